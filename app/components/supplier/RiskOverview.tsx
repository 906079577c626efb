import type { ReactNode } from "react";
import { useTranslation } from "~/translations";
import { formatDate } from "~/models/shared/format";
import {
  explainRiskOverview,
  overallRisk,
  type OverallRiskLineKey,
  type OverallRiskLines,
  type RiskOverviewExplanation,
} from "~/models/suppliers/overall-risk";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { RiskScoreRow } from "./CreditRiskScore";
import { displayScore, utcDay } from "./supplier-screen-rules";
import { uiLanguage } from "~/i18n";
import { Section } from "./Section";

/**
 * Risk overview (shared/spec/02-supplier-credit-connections.md §7, §9): credit, geography, reputation, operational
 * and legal risk on one 0–100 scale, and the supplier's self-assessment (100 −
 * its latest submitted survey score; decision 034). The rules are pure and run in the
 * component; the announcement window is counted in UTC days so the server's
 * HTML and the browser's hydration use the same "today".
 */
export function RiskOverview({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t } = useTranslation(["supplier", "supplierTasks"]);
  // The same lines the stored overall risk is computed from (decision 036); the self-assessment is the latest
  // submitted survey score of this organisation's surveys to the supplier, as a risk (100 − score; decision 034).
  const explained = explainRiskOverview(
    {
      statements: data.statements,
      countryRiskScore: data.country?.risk_score,
      notifications: data.notifications,
      announcements: data.announcements,
      surveys: data.taskItems.filter((i) => i.kind === "survey"),
    },
    utcDay(new Date()),
  );
  const lines = Object.fromEntries(Object.entries(explained).map(([key, e]) => [key, e.value])) as OverallRiskLines;
  const why = useWhy(data, explained);
  const rows = (["credit", "geography", "reputation", "operational", "legal"] as const).map((key) => ({ key, value: lines[key] }));
  const selfAssessment = lines.selfAssessment;
  const { company } = data;
  // The same rule as the stored value on /suppliers (decision 036), from the lines shown below.
  const overall = overallRisk(lines, {
    bankrupt: company.is_bankrupt || Boolean(company.date_of_bankruptcy),
    underLiquidation: company.is_under_liquidation,
    inactive: !company.is_active || company.is_deleted,
  });
  const lineLabel = (key: OverallRiskLineKey) => (key === "selfAssessment" ? t("supplierTasks:screen.selfAssessment") : t(`riskOverview.${key}`));
  return (
    <Section id="risk-overview" title={t("riskOverview.title")}>
      <ul className="mb-2 flex flex-col gap-2">
        <RiskScoreRow label={t("riskOverview.overall")} value={overall.score} strong />
      </ul>
      {/* A <details> opens by click or keyboard, with or without JavaScript. */}
      <details className="mb-4 text-sm">
        <summary className="cursor-pointer text-primary underline-offset-2 hover:underline">{t("riskOverview.why")}</summary>
        {overall.reasons.length > 0 ? (
          <ul className="mt-2 list-disc pl-5">
            {overall.reasons.map((r) => (
              <li key={r.kind === "line" ? r.key : r.flag}>
                {r.kind === "line" ? t("riskOverview.reasonLine", { line: lineLabel(r.key), value: r.value }) : t(`riskOverview.reasonFlag.${r.flag}`)}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2">{t("riskOverview.noReasons")}</p>
        )}
        <p className="mt-2 text-xs text-base-content/70">{t("riskOverview.rule")}</p>
      </details>
      <ul className="flex flex-col gap-2">
        {rows.map((r) => (
          <RiskScoreRow key={r.key} label={t(`riskOverview.${r.key}`)} value={r.value} why={why[r.key]} />
        ))}
        <RiskScoreRow label={t("supplierTasks:screen.selfAssessment")} value={selfAssessment} why={why.selfAssessment} />
      </ul>
      <p className="mt-3 text-xs text-base-content/70">
        {t("riskOverview.scale")} {t("supplierTasks:screen.selfAssessmentHint")}
      </p>
    </Section>
  );
}

/** Announcements listed in a line's "why"; the rest are counted. */
const WHY_ANNOUNCEMENTS_SHOWN = 3;

/** Each line's "why": the inputs its rule used (explainRiskOverview), in the reader's language. */
function useWhy(data: SupplierScreenData, e: RiskOverviewExplanation<SupplierScreenData["taskItems"][number], SupplierScreenData["announcements"][number]>) {
  const { t, i18n } = useTranslation(["supplier", "supplierTasks"]);
  const lng = uiLanguage(i18n.language);
  const date = (d: string | null) => formatDate(d, lng);
  const period = (from: string | null, to: string | null) => (date(from) === date(to) ? date(from) : `${date(from)} – ${date(to)}`);
  const country = data.country ? (lng === "no" ? data.country.country_name_no : data.country.country_name) : null;
  const announcements = (x: RiskOverviewExplanation["operational"]): ReactNode =>
    x.counted.length === 0 ? (
      t("why.announcementsNone", { from: date(x.windowStart) })
    ) : (
      <>
        {t("why.announcements", { count: x.counted.length, from: date(x.windowStart) })}
        <ul className="list-disc pl-5">
          {x.counted.slice(0, WHY_ANNOUNCEMENTS_SHOWN).map((c, i) => (
            <li key={i}>
              {date(c.announcement.date)} {c.announcement.type}: {t("why.announcementScore", { score: displayScore(c.score) })}
            </li>
          ))}
          {x.counted.length > WHY_ANNOUNCEMENTS_SHOWN ? <li>{t("why.announcementsMore", { count: x.counted.length - WHY_ANNOUNCEMENTS_SHOWN })}</li> : null}
        </ul>
        {t("why.announcementsRule")}
      </>
    );
  const survey = e.selfAssessment.survey;
  const surveyTitle = survey ? (data.surveys.find((s) => s.id === survey.surveyResponseId)?.surveyTemplate.title ?? t("why.survey")) : null;
  return {
    credit:
      e.credit.value === null || e.credit.year === null ? t("why.creditNone") : t("why.credit", { value: displayScore(e.credit.value), year: e.credit.year }),
    geography: e.geography.value === null || !country ? t("why.geographyNone") : t("why.geography", { country, value: displayScore(e.geography.value) }),
    reputation:
      e.reputation.count === 0
        ? t("why.reputationNone")
        : `${t("why.reputation", { count: e.reputation.count, period: period(e.reputation.oldest, e.reputation.newest), highest: e.reputation.highest })} ${t("why.reputationRule")}`,
    operational: announcements(e.operational),
    legal: announcements(e.legal),
    selfAssessment: survey
      ? t("why.selfAssessment", { survey: surveyTitle, date: date(survey.submittedAt), score: Math.round(survey.score), value: e.selfAssessment.value })
      : t("why.selfAssessmentNone"),
  } satisfies Record<OverallRiskLineKey, ReactNode>;
}
