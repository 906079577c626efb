import { activeAnnouncements } from "~/models/notifications/announcements.server";
import { db } from "@server/db";
import { sql } from "kysely";
import { osloMonth } from "~/models/credit/credit";
import { listNotifications } from "~/models/notifications/notification-list.server";
import type { OverallRiskReason } from "~/models/suppliers/overall-risk";
import {
  OVERVIEW_LIMITS,
  OVERVIEW_NOTIFICATION_DAYS,
  OVERVIEW_NOTIFICATION_MIN_RISK,
  DUE_SOON_DAYS,
  type BandKey,
  type CustomerOverview,
  type OverviewActivity,
  type OverviewSupplier,
  type RespondentOverview,
} from "~/models/overview/overview";
import { respondentList, type RespondentListItem } from "~/models/tasks/respondent.server";
import type { RiskBand } from "~/models/suppliers/risk";
import { displayStatus, isOpen, OPEN_STATUSES, osloDate } from "~/models/tasks/task-states";

/**
 * What needs the user's attention (decision 037): the landing page's data, in one call per role. Every query is
 * filtered by the session's organisation and reads an index: the stored overall risk (organization_connections_overall_risk),
 * the notifications' covering index, the open items by due date (supplier_tasks_org_open_due), the audit trail by
 * organisation and time (connection_events_org_created) and the orders by organisation and time (credit_reports_org_created).
 */

function parseReasons(text: string | null): OverallRiskReason[] {
  if (!text) return [];
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? (value as OverallRiskReason[]) : [];
  } catch {
    return [];
  }
}

function parseDetail(text: string | null): OverviewActivity["detail"] {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    return {
      title: typeof value.title === "string" ? value.title : undefined,
      fileName: typeof value.fileName === "string" ? value.fileName : undefined,
      to: typeof value.to === "boolean" ? value.to : typeof value.to === "number" ? value.to === 1 : undefined,
    };
  } catch {
    return {};
  }
}

/** The organisation's active connections with their supplier, for the two supplier lists. */
function connections(organizationId: number) {
  return db()
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .select(["c.id", "c.overall_risk", "c.overall_risk_band", "c.overall_risk_reasons", "o.id as supplier_id", "o.name", "o.org_number"])
    .where("c.parent_organization_id", "=", organizationId)
    .where("c.is_deleted", "=", 0);
}

type ConnectionRow = {
  id: number;
  overall_risk: number | null;
  overall_risk_band: RiskBand | null;
  overall_risk_reasons: string | null;
  supplier_id: number;
  name: string;
  org_number: string | null;
};

function toSupplier(r: ConnectionRow): OverviewSupplier {
  return {
    connectionId: r.id,
    supplier: { id: r.supplier_id, name: r.name, orgNumber: r.org_number },
    risk: r.overall_risk != null && r.overall_risk_band != null ? { score: r.overall_risk, band: r.overall_risk_band } : null,
    reasons: parseReasons(r.overall_risk_reasons),
  };
}

/** The band of a stored score, in SQL, on the same boundaries as riskBandColor (shared/spec/02-supplier-credit-connections.md §9: ≤ 33 green, ≤ 66 yellow). */
const bandOfScore = sql<BandKey>`case when c.overall_risk is null then 'unknown' when c.overall_risk <= 33 then 'green' when c.overall_risk <= 66 then 'yellow' else 'red' end`;

const openStatuses = sql.join(OPEN_STATUSES.map((s) => sql.lit(s)));

/** A day `days` after the given YYYY-MM-DD. */
function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export async function customerOverview(input: { organizationId: number; userId: number; language: "en" | "no"; now?: Date }): Promise<CustomerOverview> {
  const at = input.now ?? new Date();
  const today = osloDate(at);
  const soon = addDays(today, DUE_SOON_DAYS);
  const org = input.organizationId;

  // One pass over the organisation's connections: the count per band and, beside it, those under due diligence.
  const bandRows = db()
    .selectFrom("organization_connections as c")
    .select([bandOfScore.as("band"), (eb) => eb.fn.countAll<number>().as("n"), sql<number>`sum(c.is_due_diligence)`.as("dd")])
    .where("c.parent_organization_id", "=", org)
    .where("c.is_deleted", "=", 0)
    .groupBy("band")
    .execute();

  // Highest first, ties newest connection first: the order of the index (…, overall_risk, id), so only ten rows are read.
  const highest = connections(org)
    .where("c.overall_risk", "is not", null)
    .orderBy("c.overall_risk", "desc")
    .orderBy("c.id", "desc")
    .limit(OVERVIEW_LIMITS.highestRisk)
    .execute();

  const notifications = listNotifications(
    { userId: input.userId, organizationId: org, language: input.language },
    { minRiskScore: OVERVIEW_NOTIFICATION_MIN_RISK, lookbackDays: OVERVIEW_NOTIFICATION_DAYS },
    { limit: OVERVIEW_LIMITS.notifications },
    at,
  );

  // Open items due by the end of the "soon" window, overdue first (earliest due date first), on the partial index.
  const openDue = () =>
    db()
      .selectFrom("supplier_tasks as st")
      .where("st.organization_id", "=", org)
      .where(sql<boolean>`st.status in (${openStatuses})`)
      .where("st.due_date", "is not", null)
      .where("st.due_date", "<=", soon);
  const taskCounts = openDue()
    .select([
      sql<number>`coalesce(sum(case when st.due_date < ${today} then 1 else 0 end), 0)`.as("overdue"),
      sql<number>`coalesce(sum(case when st.due_date >= ${today} then 1 else 0 end), 0)`.as("due_soon"),
    ])
    .executeTakeFirstOrThrow();
  const taskItems = openDue()
    .innerJoin("organizations as o", "o.id", "st.supplier_organization_id")
    .select(["st.id", "st.kind", "st.title", "st.status", "st.due_date", "o.id as supplier_id", "o.name", "o.org_number"])
    .orderBy("st.due_date")
    .orderBy("st.id")
    .limit(OVERVIEW_LIMITS.tasks)
    .execute();

  // Descending puts the not-assessed (NULL) last, on the same index walk.
  const ddItems = connections(org)
    .where("c.is_due_diligence", "=", 1)
    .orderBy("c.overall_risk", "desc")
    .orderBy("c.id", "desc")
    .limit(OVERVIEW_LIMITS.dueDiligence)
    .execute();

  const activity = db()
    .selectFrom("connection_events as e")
    .innerJoin("organization_connections as c", "c.id", "e.connection_id")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .leftJoin("users as u", "u.id", "e.user_id")
    .select(["e.id", "e.action", "e.detail", "e.created_at", "u.email", "o.id as supplier_id", "o.name", "o.org_number"])
    .where("e.organization_id", "=", org)
    .where("c.parent_organization_id", "=", org)
    .orderBy("e.created_at", "desc")
    .orderBy("e.id", "desc")
    .limit(OVERVIEW_LIMITS.activity)
    .execute();

  // This billing month (Europe/Oslo): orders since a day before its first UTC day, then by their Oslo month.
  const month = osloMonth(at);
  const monthStart = new Date(Date.parse(`${month}-01T00:00:00Z`) - 86_400_000).toISOString();
  const orders = db()
    .selectFrom("credit_reports")
    .select(["created_at", "price_nok"])
    .where("organization_id", "=", org)
    .where("created_at", ">=", monthStart)
    .execute();

  const ownWork = respondentList({ supplierOrganizationId: org, today });

  const [bandsRaw, highestRows, notificationRows, counts, taskRows, ddRows, activityRows, orderRows, work] = await Promise.all([
    bandRows,
    highest,
    notifications,
    taskCounts,
    taskItems,
    ddItems,
    activity,
    orders,
    ownWork,
  ]);

  const bands: Record<BandKey, number> = { red: 0, yellow: 0, green: 0, unknown: 0 };
  let dueDiligence = 0;
  for (const r of bandsRaw) {
    bands[r.band] = Number(r.n);
    dueDiligence += Number(r.dd ?? 0);
  }
  const thisMonth = orderRows.filter((o) => osloMonth(o.created_at) === month);

  return {
    kind: "customer",
    total: bands.red + bands.yellow + bands.green + bands.unknown,
    bands,
    highestRisk: highestRows.map(toSupplier),
    notifications: notificationRows,
    tasks: {
      overdue: Number(counts.overdue),
      dueSoon: Number(counts.due_soon),
      items: taskRows.map((r) => ({
        id: r.id,
        kind: r.kind,
        title: r.title,
        dueDate: r.due_date!,
        shownStatus: displayStatus({ status: r.status, dueDate: r.due_date }, today),
        supplier: { id: r.supplier_id, name: r.name, orgNumber: r.org_number },
      })),
    },
    dueDiligence: { total: dueDiligence, items: ddRows.map(toSupplier) },
    activity: activityRows.map((r) => ({
      id: r.id,
      action: r.action,
      detail: parseDetail(r.detail),
      at: r.created_at,
      who: r.email,
      supplier: { id: r.supplier_id, name: r.name, orgNumber: r.org_number },
    })),
    creditReports: { month, count: thisMonth.length, costNok: thisMonth.reduce((sum, o) => sum + o.price_nok, 0) },
    ownWork: openFirst(work),
    announcements: await activeAnnouncements({ organizationId: input.organizationId, now: input.now }),
  };
}

/** The open items of the organisation's own work (what it must answer), overdue first, at most OVERVIEW_LIMITS.ownWork. */
function openFirst(items: RespondentListItem[]): RespondentListItem[] {
  return items.filter((i) => isOpen(i.status)).slice(0, OVERVIEW_LIMITS.ownWork);
}

/** A level 1 user's or a supplier respondent's overview: what their organisation must answer, with due dates. */
export async function respondentOverview(input: { organizationId: number; now?: Date }): Promise<RespondentOverview> {
  const today = osloDate(input.now ?? new Date());
  const items = await respondentList({ supplierOrganizationId: input.organizationId, today });
  const open = items.filter((i) => isOpen(i.status));
  return {
    kind: "respondent",
    announcements: await activeAnnouncements({ organizationId: input.organizationId, now: input.now }),
    ownWork: open.slice(0, OVERVIEW_LIMITS.ownWork),
    open: open.length,
    overdue: open.filter((i) => i.displayStatus === "overdue").length,
  };
}
