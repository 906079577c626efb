import { useTranslation } from "~/translations";
import { financialRisk, legalRisk, operationalRisk, reputationRisk } from "~/models/risk";
import { selfAssessmentRisk } from "~/models/supplier-task-list";
import type { SupplierScreenData } from "~/models/supplier-page.server";
import { RiskScoreRow } from "./CreditRiskScore";
import { utcDay } from "./main-helpers";
import { Section } from "./Section";

/**
 * Risk overview (spec 02 §7, §9): credit, geography, reputation, operational
 * and legal risk on one 0–100 scale, and the supplier's self-assessment (100 −
 * its latest submitted survey score; decision 034). The rules are pure and run in the
 * component; the announcement window is counted in UTC days so the server's
 * HTML and the browser's hydration use the same "today".
 */
export function RiskOverview({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t } = useTranslation("supplier");
  const today = utcDay(new Date());
  // The rules read date and scores; the registry's detail may be null where the rule's type wants undefined.
  const announcements = data.announcements.map((a) => ({ date: a.date, risk: a.risk, risk_scores: a.risk_scores }));
  const rows = [
    { key: "credit", value: financialRisk(data.statements)?.finalScore ?? null },
    { key: "geography", value: data.country?.risk_score ?? null },
    { key: "reputation", value: reputationRisk(data.notifications) },
    { key: "operational", value: operationalRisk(announcements, today) },
    { key: "legal", value: legalRisk(announcements, today) },
  ] as const;
  // Decision 034: the latest submitted survey score of this organisation's surveys to the supplier, as a risk (100 − score).
  const selfAssessment = selfAssessmentRisk(data.taskItems.filter((i) => i.kind === "survey"));
  return (
    <Section id="risk-overview" title={t("riskOverview.title")}>
      <ul className="flex flex-col gap-2">
        {rows.map((r) => (
          <RiskScoreRow key={r.key} label={t(`riskOverview.${r.key}`)} value={r.value} />
        ))}
        <RiskScoreRow label={t("supplierTasks:screen.selfAssessment")} value={selfAssessment} />
      </ul>
      <p className="mt-3 text-xs text-base-content/70">
        {t("riskOverview.scale")} {t("supplierTasks:screen.selfAssessmentHint")}
      </p>
    </Section>
  );
}
