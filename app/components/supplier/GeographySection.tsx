import { useTranslation } from "~/translations";
import { formatPercent, MISSING } from "~/models/shared/format";
import { regionLabel } from "~/models/registry/regions";
import { co2PerGdpColor, riskBandColor } from "~/models/suppliers/risk";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { badgeClass } from "~/components/risk/colors";
import { BAND_LABEL_KEY, displayScore } from "./supplier-screen-rules";
import { uiLanguage } from "~/i18n";
import { Empty, Section } from "./Section";

/**
 * Supplier geography (shared/spec/02-supplier-credit-connections.md §2, §9): the country of the supplier with its
 * governance risk score and the 10-year change of CO2 intensity of GDP.
 */
export function GeographySection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation("supplier");
  const lng = uiLanguage(i18n.language);
  const country = data.country;
  if (!country) {
    return (
      <Section id="geography" title={t("geography.title")}>
        <Empty>{t("geography.empty")}</Empty>
      </Section>
    );
  }
  const risk = displayScore(country.risk_score);
  const riskBand = risk === null ? null : riskBandColor(risk);
  const co2 = country.co2_per_gdp;
  const co2Color = co2PerGdpColor(co2);
  return (
    <Section id="geography" title={t("geography.title")}>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[minmax(9rem,auto)_1fr]">
        <dt className="font-medium text-base-content/70">{t("geography.country")}</dt>
        <dd>
          {lng === "no" ? country.country_name_no : country.country_name} <span className="text-base-content/70">({country.iso_2})</span>
        </dd>
        <dt className="font-medium text-base-content/70">{t("geography.region")}</dt>
        <dd>{regionLabel(country.region, t) ?? MISSING}</dd>
        <dt className="font-medium text-base-content/70">{t("geography.riskScore")}</dt>
        <dd className="flex flex-wrap items-center gap-2">
          {risk !== null && riskBand ? (
            <>
              <span className="font-medium tabular-nums">{risk}</span>
              <span className={`${badgeClass(riskBand)} badge-sm`}>{t(BAND_LABEL_KEY[riskBand])}</span>
              {/* The inputs behind the score; a <details> opens by click or keyboard, with or without JavaScript. */}
              <details className="basis-full text-xs">
                <summary className="w-fit cursor-pointer text-primary underline-offset-2 hover:underline">
                  {t("why.summary")}
                  <span className="sr-only"> {t("geography.riskScore")}</span>
                </summary>
                <p className="mt-1 text-base-content/80">{t("why.countryRisk", { value: risk })}</p>
              </details>
            </>
          ) : (
            <span className="text-base-content/70">{t("notAvailable")}</span>
          )}
        </dd>
        <dt className="font-medium text-base-content/70">{t("geography.co2PerGdp")}</dt>
        <dd className="flex flex-wrap items-center gap-2">
          {co2Color !== "neutral" ? (
            <>
              <span className="font-medium tabular-nums">{formatPercent(co2, lng)}</span>
              <span className={`${badgeClass(co2Color)} badge-sm`}>{t(`geography.co2Band.${co2Color}`)}</span>
            </>
          ) : (
            <span className="text-base-content/70">{t("notAvailable")}</span>
          )}
        </dd>
      </dl>
      <p className="mt-2 text-xs text-base-content/70">{t("geography.explanation")}</p>
      <p className="mt-2 text-xs text-base-content/70">{t("geography.attribution")}</p>
    </Section>
  );
}
