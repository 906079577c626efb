import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { financialSummary } from "~/models/registry/financials";
import { formatThousands, MISSING } from "~/models/shared/format";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { SUMMARY_FIELDS } from "./supplier-screen-rules";
import { uiLanguage } from "~/i18n";
import { withParams } from "./screen-url";
import { Empty, Section } from "./Section";

/**
 * Financial summary (shared/spec/02-supplier-credit-connections.md §9): the newest year's key figures in whole NOK
 * thousands with the change against the year before (1 decimal, green when
 * positive, else red — and signed, so the colour is not the only cue).
 */
export function FinancialSummary({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation("supplier");
  const lng = uiLanguage(i18n.language);
  const { search } = useLocation();
  const summary = financialSummary(data.statements, SUMMARY_FIELDS, lng);
  return (
    <Section
      id="financial-summary"
      title={t("financials.title")}
      actions={
        summary ? (
          <Link to={withParams(search, { view: "statements" })} className="link link-primary text-sm">
            {t("financials.fullStatements")}
          </Link>
        ) : undefined
      }
    >
      {summary ? (
        <>
          <p className="mb-2 text-xs text-base-content/70">
            {summary.previousYear
              ? t("financials.caption", { year: summary.year, previous: summary.previousYear })
              : t("financials.captionNoPrevious", { year: summary.year })}
          </p>
          <table className="table table-sm">
            <caption className="sr-only">{t("financials.tableCaption", { year: summary.year })}</caption>
            <thead className="text-base-content/80">
              <tr>
                <th scope="col">{t("financials.figure")}</th>
                <th scope="col" className="text-right">
                  {summary.year}
                </th>
                <th scope="col" className="text-right">
                  {t("financials.change")}
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.figures.map((f) => (
                <tr key={f.field}>
                  <th scope="row" className="font-normal">
                    {t(`financials.fields.${f.field}`)}
                  </th>
                  <td className="text-right tabular-nums">{formatThousands(f.value, lng)}</td>
                  <td className="text-right tabular-nums">
                    {f.change ? (
                      <span
                        className={f.change.tone === "positive" ? "font-medium text-green-800" : "font-medium text-red-800"}
                        title={t("financials.previousValue", { value: formatThousands(f.previous, lng) })}
                      >
                        {f.change.text}
                      </span>
                    ) : (
                      <span className="text-base-content/70" title={t("financials.noChange")}>
                        {MISSING}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : (
        <Empty>{t("financials.empty")}</Empty>
      )}
    </Section>
  );
}
