import { db, now as isoNow } from "@server/db";
import type { JobContext, Schedule } from "@server/jobs/types";
import { RISK_RECOMPUTE_JOB } from "@server/monitoring/notify";
import { announcementWindowStart, REPUTATION_MIN_SCORE } from "~/models/suppliers/risk";
import { overallRisk, riskOverviewLines, type RiskOverviewInputs } from "~/models/suppliers/overall-risk";
import type { FinancialRiskScore, FinancialStatement } from "~/models/registry/financials";
import { NOTIFICATIONS_PER_COMPANY_LIMIT } from "~/models/notifications/notifications.server";
import { countedSurveyScore } from "~/models/tasks/task-list";
import { companyComplianceFlags, encodeComplianceFlags } from "~/models/suppliers/compliance";
import { naceSection } from "~/models/registry/nace";
import { snapshotRisk } from "~/models/overview/risk-snapshots.server";

export { RISK_RECOMPUTE_JOB };

/** The daily safety run over every followed supplier: the announcement window moves with the date even when nothing else changes. */
export const riskRecomputeSchedule: Schedule = { name: RISK_RECOMPUTE_JOB, dailyAt: "05:30", type: RISK_RECOMPUTE_JOB };

/** The "risk.recompute" job: the payload's companies (from the registry monitor's notifications), or everything. */
export async function riskRecomputeJob(ctx: JobContext<unknown>): Promise<void> {
  const payload = ctx.job.payload as { companyIds?: unknown } | null;
  const ids = Array.isArray(payload?.companyIds) ? payload.companyIds.filter((id): id is number => Number.isInteger(id)) : undefined;
  const written = await recomputeOverallRisk({ companyIds: ids });
  // Today's risk snapshot (decision 038) of the organisations whose suppliers it touched, so the dashboard's today is current.
  const snapshotRows = await snapshotRisk({ organizationIds: ids ? await organizationsFollowing(ids) : undefined });
  await ctx.finish(async () => ({ written, snapshotRows }));
}

/** The organisations following a supplier that carries one of these registry companies' numbers. */
async function organizationsFollowing(companyIds: readonly number[]): Promise<number[]> {
  if (companyIds.length === 0) return [];
  const rows = await db()
    .selectFrom("organization_connections as oc")
    .innerJoin("organizations as o", "o.id", "oc.child_organization_id")
    .innerJoin("companies as c", "c.org_number", "o.org_number")
    .select("oc.parent_organization_id")
    .distinct()
    .where("oc.is_deleted", "=", 0)
    .where("c.id", "in", [...companyIds])
    .execute();
  return rows.map((r) => r.parent_organization_id);
}

/** Connections read and written per round: the reads are set-based per batch, SQLite's variable limit stays far away. */
const BATCH = 400;

export interface RecomputeScope {
  /** Only this organisation's followed suppliers. */
  organizationId?: number;
  /** Only connections to these supplier organisations. */
  childOrganizationIds?: readonly number[];
  /** Only connections to the supplier organisations carrying these registry companies' numbers. */
  companyIds?: readonly number[];
  now?: Date;
}

/**
 * Recomputes and stores the overall risk (decision 036) of every active connection in scope, in batches: per batch one
 * read each of statements, announcements, notifications (with the organisations' dismissals) and surveys. An empty id list
 * means nothing to do. Returns the number of connections written.
 */
export async function recomputeOverallRisk(scope: RecomputeScope = {}): Promise<number> {
  if (scope.childOrganizationIds?.length === 0 || scope.companyIds?.length === 0) return 0;
  const at = scope.now ?? new Date();
  let query = db()
    .selectFrom("organization_connections as oc")
    .innerJoin("organizations as o", "o.id", "oc.child_organization_id")
    .leftJoin("companies as c", "c.org_number", "o.org_number")
    .select([
      "oc.id",
      "oc.parent_organization_id as parentId",
      "oc.child_organization_id as childId",
      "o.country_code as orgCountry",
      "c.id as companyId",
      "c.country_code as companyCountry",
      "c.is_bankrupt",
      "c.is_under_liquidation",
      "c.is_under_forced_liquidation",
      "c.is_active",
      "c.deleted_at",
      "c.industry_code",
      "c.org_form",
      "c.number_of_employees",
    ])
    .where("oc.is_deleted", "=", 0);
  if (scope.organizationId != null) query = query.where("oc.parent_organization_id", "=", scope.organizationId);
  if (scope.childOrganizationIds) query = query.where("oc.child_organization_id", "in", [...scope.childOrganizationIds]);
  if (scope.companyIds) query = query.where("c.id", "in", [...scope.companyIds]);
  const connections = await query.orderBy("oc.id").execute();
  if (connections.length === 0) return 0;

  const countries = new Map((await db().selectFrom("countries").select(["iso2", "risk_score"]).execute()).map((c) => [c.iso2.toUpperCase(), c.risk_score]));
  const windowStart = announcementWindowStart(at).toISOString().slice(0, 10);
  let written = 0;

  for (let i = 0; i < connections.length; i += BATCH) {
    const batch = connections.slice(i, i + BATCH);
    const companyIds = [...new Set(batch.flatMap((c) => (c.companyId == null ? [] : [c.companyId])))];
    const parentIds = [...new Set(batch.map((c) => c.parentId))];
    const childIds = [...new Set(batch.map((c) => c.childId))];

    const [statements, announcements, notifications, dismissals, surveys] = await Promise.all([
      companyIds.length
        ? db()
            .selectFrom("financial_statements")
            .select(["company_id", "financial_year", "financial_risk_score", "number_of_employees", "total_assets", "operating_income"])
            .where("company_id", "in", companyIds)
            .execute()
        : [],
      companyIds.length
        ? db()
            .selectFrom("announcements")
            .select(["company_id", "date", "risk", "operational_risk", "legal_risk"])
            .where("company_id", "in", companyIds)
            .where("date", ">=", windowStart)
            .execute()
        : [],
      companyIds.length
        ? db()
            .selectFrom("risk_notifications")
            .select(["id", "company_id", "organization_id", "risk_score", "date", "created_at"])
            .where("company_id", "in", companyIds)
            .where("risk_score", ">=", REPUTATION_MIN_SCORE)
            .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "in", parentIds)]))
            .orderBy("date", "desc")
            .orderBy("created_at", "desc")
            .orderBy("id", "desc")
            .execute()
        : [],
      companyIds.length
        ? db()
            .selectFrom("notification_dismissals as d")
            .innerJoin("risk_notifications as n", "n.id", "d.notification_id")
            .select(["d.organization_id", "d.notification_id"])
            .where("d.organization_id", "in", parentIds)
            .where("n.company_id", "in", companyIds)
            .execute()
        : [],
      db()
        .selectFrom("supplier_tasks as st")
        .leftJoin("survey_responses as r", "r.id", "st.survey_response_id")
        .select(["st.organization_id", "st.supplier_organization_id", "st.status", "st.submitted_at", "r.score", "r.status as response_status"])
        .where("st.kind", "=", "survey")
        .where("st.organization_id", "in", parentIds)
        .where("st.supplier_organization_id", "in", childIds)
        .execute(),
    ]);

    const group = <T, K>(rows: readonly T[], key: (r: T) => K) => {
      const out = new Map<K, T[]>();
      for (const r of rows) {
        const k = key(r);
        const list = out.get(k);
        if (list) list.push(r);
        else out.set(k, [r]);
      }
      return out;
    };
    const statementsBy = group(statements, (s) => s.company_id);
    const announcementsBy = group(announcements, (a) => a.company_id);
    const notificationsBy = group(notifications, (n) => n.company_id);
    const dismissed = new Set(dismissals.map((d) => `${d.organization_id}:${d.notification_id}`));
    const surveysBy = group(surveys, (s) => `${s.organization_id}:${s.supplier_organization_id}`);
    const stamp = isoNow();

    const results = batch.map((c) => {
      const companyId = c.companyId;
      // The same inputs as the supplier screen (supplier-screen.server.ts, notificationsForCompany, supplierScreenItems).
      const inputs: RiskOverviewInputs = {
        statements:
          companyId == null
            ? []
            : (statementsBy.get(companyId) ?? []).map(
                (s): FinancialStatement => ({
                  financial_year: s.financial_year,
                  financial_risk_score: s.financial_risk_score ? (JSON.parse(s.financial_risk_score) as FinancialRiskScore) : undefined,
                }),
              ),
        countryRiskScore: countries.get((c.companyCountry ?? c.orgCountry ?? "").toUpperCase()) ?? null,
        notifications:
          companyId == null
            ? []
            : (notificationsBy.get(companyId) ?? [])
                .filter((n) => (n.organization_id == null || n.organization_id === c.parentId) && !dismissed.has(`${c.parentId}:${n.id}`))
                .slice(0, NOTIFICATIONS_PER_COMPANY_LIMIT),
        announcements:
          companyId == null
            ? []
            : (announcementsBy.get(companyId) ?? []).map((a) => ({
                date: a.date,
                risk: a.risk,
                risk_scores: { operational_risk: a.operational_risk, legal_risk: a.legal_risk },
              })),
        surveys: (surveysBy.get(`${c.parentId}:${c.childId}`) ?? []).map((s) => ({ score: countedSurveyScore(s), submittedAt: s.submitted_at })),
      };
      const flags =
        companyId == null
          ? {}
          : {
              bankrupt: c.is_bankrupt === 1,
              underLiquidation: c.is_under_liquidation === 1 || c.is_under_forced_liquidation === 1,
              inactive: c.is_active === 0 || c.deleted_at != null,
            };
      const lines = riskOverviewLines(inputs, at);
      // Without a registry company nothing is known of reputation, operations or legal matters: no evidence, not a 0.
      const known = companyId == null ? { ...lines, credit: null, reputation: null, operational: null, legal: null } : lines;
      // The registry facts the dashboard groups by (decision 038), from the same company and accounts.
      const newest =
        companyId == null
          ? null
          : (statementsBy.get(companyId) ?? []).reduce<(typeof statements)[number] | null>((a, b) => (a && a.financial_year >= b.financial_year ? a : b), null);
      const facts =
        companyId == null
          ? { nace_section: null, compliance_flags: null }
          : { nace_section: naceSection(c.industry_code), compliance_flags: encodeComplianceFlags(companyComplianceFlags(c, newest)) };
      return { id: c.id, risk: overallRisk(known, flags), facts };
    });

    await db()
      .transaction()
      .execute(async (trx) => {
        for (const { id, risk, facts } of results) {
          await trx
            .updateTable("organization_connections")
            .set({
              overall_risk: risk.score,
              overall_risk_band: risk.band,
              overall_risk_reasons: JSON.stringify(risk.reasons),
              overall_risk_at: stamp,
              ...facts,
            })
            .where("id", "=", id)
            .execute();
        }
      });
    written += results.length;
  }
  return written;
}
