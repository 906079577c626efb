import type { ReactNode } from "react";
import { useTranslation } from "~/translations";
import { explainFinancialRisk, riskBandColor } from "~/models/suppliers/risk";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { badgeClass, barClass } from "~/components/risk/colors";
import { BAND_LABEL_KEY, displayScore } from "./supplier-screen-rules";
import { Empty, Section } from "./Section";

const PARTS = ["finalScore", "capitalRisk", "liquidityRisk", "coverageRisk", "profitabilityRisk", "growthRisk"] as const;

/**
 * Credit risk (right column): the newest statement's financial risk score and
 * its parts (shared/spec/02-supplier-credit-connections.md §7 "the newest statement supplies the financial risk").
 */
export function CreditRiskScore({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t } = useTranslation("supplier");
  // The same rule as the risk overview's credit line: the newest statement's score object and its year.
  const { score, year } = explainFinancialRisk(data.statements);
  return (
    <Section id="credit-risk" title={t("creditRisk.title")}>
      {score && year !== null ? (
        <>
          <p className="mb-3 text-xs text-base-content/70">{t("creditRisk.from", { year })}</p>
          <ul className="flex flex-col gap-2">
            {PARTS.map((part) => (
              <RiskScoreRow
                key={part}
                label={t(`creditRisk.parts.${part}`)}
                value={score[part]}
                strong={part === "finalScore"}
                why={t("why.creditPart", { what: t(`why.parts.${part}`), year })}
              />
            ))}
          </ul>
        </>
      ) : (
        <Empty>{t("creditRisk.empty")}</Empty>
      )}
    </Section>
  );
}

/**
 * One labelled 0–100 score: a bar in the band's colour, the number, and the
 * band in words (the colour is never the only signal); N/A when missing.
 */
export function RiskScoreRow({
  label,
  value,
  strong = false,
  why,
}: {
  label: string;
  value: number | null | undefined;
  strong?: boolean;
  /** The inputs behind the score, in a closed <details> under the row (opens by click or keyboard, with or without JavaScript). */
  why?: ReactNode;
}) {
  const { t } = useTranslation("supplier");
  const score = displayScore(value);
  const band = score === null ? null : riskBandColor(score);
  return (
    <li className="grid grid-cols-[minmax(0,1fr)_3rem_auto] items-center gap-3 text-sm sm:grid-cols-[minmax(7rem,10rem)_1fr_7rem]">
      <span className={strong ? "font-semibold" : undefined}>{label}</span>
      <span className="h-2 overflow-hidden rounded-full bg-base-200" aria-hidden="true">
        {score !== null && band ? <span className={`block h-full rounded-full ${barClass(band)}`} style={{ width: `${Math.max(score, 2)}%` }} /> : null}
      </span>
      {score !== null && band ? (
        <span className="flex items-center justify-end gap-2">
          <span className="w-8 text-right font-medium tabular-nums">{score}</span>
          <span className={`${badgeClass(band)} badge-sm w-16`}>{t(BAND_LABEL_KEY[band])}</span>
        </span>
      ) : (
        <span className="text-right text-base-content/70">{t("notAvailable")}</span>
      )}
      {why ? (
        <details className="col-span-3 -mt-1 text-xs">
          <summary className="w-fit cursor-pointer text-primary underline-offset-2 hover:underline">
            {t("why.summary")}
            <span className="sr-only"> {label}</span>
          </summary>
          <div className="mt-1 text-base-content/80">{why}</div>
        </details>
      ) : null}
    </li>
  );
}
