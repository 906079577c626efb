import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import { db } from "@server/db";
import type { DB } from "@server/db-types";
import type { NotificationOut } from "~/models/notifications/notifications.server";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";
import { REPUTATION_MIN_SCORE } from "~/models/suppliers/risk";
import {
  DEFAULT_LOOKBACK_DAYS,
  DEFAULT_MIN_RISK_SCORE_PANEL,
  DEFAULT_NOTIFICATION_TYPE,
  NOTIFICATION_PAGE_SIZE,
  type NotificationReadFilter,
  type NotificationStatusFilter,
  type NotificationTypeFilter,
} from "~/models/notifications/notifications";

/**
 * The risk notifications an organisation sees (shared/spec/01-shell-chat-lei.md §2.4, §3, §7): those about the companies of its
 * followed suppliers (active connections, matched to the registry by organisation number), registry-wide or found by
 * its own news feeds — never another organisation's feed hits — and, unless asked for, not dismissed by it. Read is
 * per user. The bell, the panel, `GET /api/notifications`, `/notifications`, its CSV export and the digest all ask here.
 *
 * Cost: the followed companies come first (the organisation's own list, on organization_connections' index), then each
 * company's notifications in the lookback window on (company_id, date, id): the work grows with the organisation's list
 * and the window, never with the whole table (benchmark in the README).
 */

export interface NotificationViewer {
  userId: number;
  organizationId: number;
  language: "en" | "no";
}

export interface NotificationFilters {
  minRiskScore?: number;
  lookbackDays?: number;
  type?: NotificationTypeFilter;
  /** Only this supplier (its organisation number). */
  supplier?: string | null;
  /** Only suppliers with this tag of the organisation. */
  tagId?: number | null;
  read?: NotificationReadFilter;
  status?: NotificationStatusFilter;
  /** Only those written from this moment on (ISO 8601): what a digest has not told yet. */
  createdSince?: string | null;
  /** Only these notifications (an immediate mail asks whether the viewer sees them). */
  ids?: number[] | null;
}

export interface NotificationListItem extends NotificationOut {
  read: boolean;
  dismissed: { reason: string; at: string } | null;
  kind: string | null;
}

type Query = SelectQueryBuilder<DB, "risk_notifications", object>;

/** The day `days` days before `today` (YYYY-MM-DD, UTC): notification dates are calendar days. */
export function lookbackStart(days: number, today: Date = new Date()): string {
  const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - days * 86_400_000);
  return start.toISOString().slice(0, 10);
}

/** The registry companies of the organisation's active connections (matched by organisation number), optionally narrowed. */
function followedCompanies(
  eb: ExpressionBuilder<DB, "risk_notifications">,
  organizationId: number,
  narrow: { supplier?: string | null; tagId?: number | null } = {},
) {
  let followed = eb
    .selectFrom("organization_connections as oc")
    .innerJoin("organizations as supplier", "supplier.id", "oc.child_organization_id")
    .innerJoin("companies as c", "c.org_number", "supplier.org_number")
    .select("c.id")
    .where("oc.parent_organization_id", "=", organizationId)
    .where("oc.is_deleted", "=", 0);
  if (narrow.supplier) followed = followed.where("supplier.org_number", "=", narrow.supplier);
  if (narrow.tagId != null) {
    const tagId = narrow.tagId;
    followed = followed.where((w) =>
      w.exists(w.selectFrom("organization_connection_tags as t").select("t.tag_id").whereRef("t.connection_id", "=", "oc.id").where("t.tag_id", "=", tagId)),
    );
  }
  return followed;
}

/** The organisation's own or shared: a news hit of another organisation's feed is never visible. */
function ownOrShared(eb: ExpressionBuilder<DB, "risk_notifications">, organizationId: number) {
  return eb.or([eb("risk_notifications.organization_id", "is", null), eb("risk_notifications.organization_id", "=", organizationId)]);
}

/** The viewer has read it (a row of notification_reads) / the organisation has dismissed it (notification_dismissals). */
function markedBy(eb: ExpressionBuilder<DB, "risk_notifications">, mark: "read" | "dismissed", ownerId: number) {
  return mark === "read"
    ? eb.exists(
        eb
          .selectFrom("notification_reads as m")
          .select("m.notification_id")
          .whereRef("m.notification_id", "=", "risk_notifications.id")
          .where("m.user_id", "=", ownerId),
      )
    : eb.exists(
        eb
          .selectFrom("notification_dismissals as m")
          .select("m.notification_id")
          .whereRef("m.notification_id", "=", "risk_notifications.id")
          .where("m.organization_id", "=", ownerId),
      );
}

/**
 * An organisation following at least this many companies sees a large share of all notifications: its newest ones (a page,
 * a capped count) are found fastest by walking the date index from today backwards, asking of each row whether its company
 * is followed (the first rows mostly are), while for a short list one index range per followed company is cheaper. A full
 * count stays on the per-company plan. Only the plan differs; the rows are the same (tests/notification-density.test.ts).
 */
export const DENSE_FOLLOWING = 1000;

/** Whether the organisation follows so many companies that its lists walk the date index (see DENSE_FOLLOWING). */
async function followsDensely(organizationId: number): Promise<boolean> {
  const row = await db()
    .selectFrom((eb) =>
      eb
        .selectFrom("organization_connections")
        .select("id")
        .where("parent_organization_id", "=", organizationId)
        .where("is_deleted", "=", 0)
        .limit(DENSE_FOLLOWING)
        .as("some"),
    )
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n) >= DENSE_FOLLOWING;
}

function visible(viewer: NotificationViewer, filters: NotificationFilters, today: Date, byDate = false) {
  return (query: Query): Query => {
    const narrow = { supplier: filters.supplier, tagId: filters.tagId };
    // Walking the date index, each row asks whether its company is followed (three index lookups) instead of first
    // building the list of every followed company; otherwise the list drives one index range per company.
    let q = byDate
      ? query.where((eb) => eb.exists(followedCompanies(eb, viewer.organizationId, narrow).whereRef("c.id", "=", "risk_notifications.company_id")))
      : query.where("risk_notifications.company_id", "in", (eb: ExpressionBuilder<DB, "risk_notifications">) =>
          followedCompanies(eb, viewer.organizationId, narrow),
        );
    q = q
      .where((eb) => ownOrShared(eb, viewer.organizationId))
      .where("risk_notifications.risk_score", ">=", filters.minRiskScore ?? DEFAULT_MIN_RISK_SCORE_PANEL)
      .where("risk_notifications.date", ">=", lookbackStart(filters.lookbackDays ?? DEFAULT_LOOKBACK_DAYS, today));
    const type = filters.type ?? DEFAULT_NOTIFICATION_TYPE;
    if (type !== "all") q = q.where("risk_notifications.type", "=", type);
    if (filters.createdSince) q = q.where("risk_notifications.created_at", ">=", filters.createdSince);
    if (filters.ids) q = filters.ids.length ? q.where("risk_notifications.id", "in", filters.ids) : q.where(sql<boolean>`0`);
    const dismissed = (eb: ExpressionBuilder<DB, "risk_notifications">) => markedBy(eb, "dismissed", viewer.organizationId);
    q = (filters.status ?? "active") === "dismissed" ? q.where(dismissed) : q.where((eb) => eb.not(dismissed(eb)));
    const read = (eb: ExpressionBuilder<DB, "risk_notifications">) => markedBy(eb, "read", viewer.userId);
    if (filters.read === "read") q = q.where(read);
    if (filters.read === "unread") q = q.where((eb) => eb.not(read(eb)));
    return q;
  };
}

/**
 * One page, newest first (date, then the order they were written). Two steps: the page's ids are chosen on the covering
 * index (company, date, risk, type, organisation — migration 0012) without reading a notification row, then only those
 * rows are read with their company, the viewer's read mark and the organisation's dismissal.
 */
export async function listNotifications(
  viewer: NotificationViewer,
  filters: NotificationFilters,
  page: { limit?: number; offset?: number } = {},
  today: Date = new Date(),
): Promise<NotificationListItem[]> {
  // One supplier's list is one index range whatever the organisation follows.
  const byDate = !filters.supplier && (await followsDensely(viewer.organizationId));
  const chosen = await db()
    .selectFrom("risk_notifications")
    .$call(visible(viewer, filters, today, byDate))
    .select("risk_notifications.id")
    .orderBy("risk_notifications.date", "desc")
    .orderBy("risk_notifications.id", "desc")
    .limit(page.limit ?? NOTIFICATION_PAGE_SIZE)
    .offset(page.offset ?? 0)
    .execute();
  if (chosen.length === 0) return [];
  const rows: Row[] = [];
  // SQLite allows a limited number of bound values: read the rows in slices.
  for (let i = 0; i < chosen.length; i += 500)
    rows.push(
      ...(await readRows(
        viewer,
        chosen.slice(i, i + 500).map((c) => c.id),
      )),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const norwegian = viewer.language === "no";
  return chosen.flatMap(({ id }) => {
    const r = byId.get(id);
    if (!r) return [];
    const title = (norwegian && r.title_no) || r.title;
    const description = (norwegian && r.description_no) || r.description;
    return [
      {
        id: r.id,
        type: r.type,
        kind: r.kind,
        createdAt: r.created_at,
        date: r.date,
        risk_score: r.risk_score,
        relevance_score: r.relevance_score,
        organization: { id: r.org_number, local_organization_id: r.local_organization_id ?? null, organization_name: r.legal_name },
        content: { type: r.type, source: r.source, url: r.url, title, date: r.date, risk: { description } },
        read: r.read_at != null,
        dismissed: r.dismissed_at ? { reason: r.dismiss_reason ?? "", at: r.dismissed_at } : null,
      },
    ];
  });
}

type Row = Awaited<ReturnType<typeof readRows>>[number];

function readRows(viewer: NotificationViewer, ids: number[]) {
  return db()
    .selectFrom("risk_notifications")
    .innerJoin("companies", "companies.id", "risk_notifications.company_id")
    .leftJoin("notification_reads as mine", (join) => join.onRef("mine.notification_id", "=", "risk_notifications.id").on("mine.user_id", "=", viewer.userId))
    .leftJoin("notification_dismissals as dis", (join) =>
      join.onRef("dis.notification_id", "=", "risk_notifications.id").on("dis.organization_id", "=", viewer.organizationId),
    )
    .select([
      "risk_notifications.id",
      "risk_notifications.type",
      "risk_notifications.kind",
      "risk_notifications.date",
      "risk_notifications.created_at",
      "risk_notifications.risk_score",
      "risk_notifications.relevance_score",
      "risk_notifications.title",
      "risk_notifications.title_no",
      "risk_notifications.description",
      "risk_notifications.description_no",
      "risk_notifications.source",
      "risk_notifications.url",
      "companies.org_number",
      "companies.legal_name",
      "mine.read_at",
      "dis.reason as dismiss_reason",
      "dis.dismissed_at",
      // The supplier organisation that is the /supplier link's localId (the followed one of this viewer's organisation).
      (eb) =>
        eb
          .selectFrom("organization_connections as oc")
          .innerJoin("organizations as supplier", "supplier.id", "oc.child_organization_id")
          .select("supplier.id")
          .whereRef("supplier.org_number", "=", "companies.org_number")
          .where("oc.parent_organization_id", "=", viewer.organizationId)
          .where("oc.is_deleted", "=", 0)
          .limit(1)
          .as("local_organization_id"),
    ])
    .where("risk_notifications.id", "in", ids)
    .execute();
}

/** How many match (for the page's paging and the bell); with `cap`, counting stops there (the answer is at most `cap`). */
export async function countNotifications(viewer: NotificationViewer, filters: NotificationFilters, today: Date = new Date(), cap?: number): Promise<number> {
  if (cap !== undefined) {
    const byDate = !filters.supplier && (await followsDensely(viewer.organizationId));
    const row = await db()
      .selectFrom((eb) =>
        eb
          .selectFrom("risk_notifications")
          .$call(visible(viewer, filters, today, byDate))
          .select("risk_notifications.id")
          .limit(cap)
          .as("some"),
      )
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
  const row = await db()
    .selectFrom("risk_notifications")
    .$call(visible(viewer, filters, today))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The bell's number: unread among what the panel shows by default (shared/spec/01-shell-chat-lei.md §9 defaults), counted up to BELL_COUNT_CAP —
 * the bell shows "99+" beyond 99, so counting tens of thousands for an organisation that follows thousands is wasted.
 */
export function unreadCount(viewer: NotificationViewer, today: Date = new Date()): Promise<number> {
  return countNotifications(viewer, { read: "unread" }, today, BELL_COUNT_CAP);
}

/** The bell counts unread notifications up to this many ("99+" from 100 on). */
export const BELL_COUNT_CAP = 100;

/** The notifications of these ids this viewer's organisation can see (a mark or dismiss names only those). */
export async function visibleIds(viewer: NotificationViewer, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db()
    .selectFrom("risk_notifications")
    .select("risk_notifications.id")
    .where("risk_notifications.id", "in", ids)
    .where("risk_notifications.company_id", "in", (eb) => followedCompanies(eb, viewer.organizationId))
    .where((eb) => ownOrShared(eb, viewer.organizationId))
    .execute();
  return rows.map((r) => r.id);
}

export async function markRead(viewer: NotificationViewer, ids: number[], read: boolean, at: string): Promise<number> {
  const allowed = await visibleIds(viewer, ids);
  if (allowed.length === 0) return 0;
  if (read) {
    await db()
      .insertInto("notification_reads")
      .values(allowed.map((id) => ({ user_id: viewer.userId, notification_id: id, read_at: at })))
      .onConflict((oc) => oc.columns(["user_id", "notification_id"]).doNothing())
      .execute();
  } else {
    await db().deleteFrom("notification_reads").where("user_id", "=", viewer.userId).where("notification_id", "in", allowed).execute();
  }
  return allowed.length;
}

/**
 * The organisation dismisses notifications (with a reason). Its reputation line no longer counts them, so the stored
 * overall risk of its connections to those companies is recomputed (decision 036); other organisations' values stay.
 */
export async function dismiss(viewer: NotificationViewer, ids: number[], reason: string, at: string): Promise<number> {
  const allowed = await visibleIds(viewer, ids);
  if (allowed.length === 0) return 0;
  await db()
    .insertInto("notification_dismissals")
    .values(allowed.map((id) => ({ organization_id: viewer.organizationId, notification_id: id, dismissed_by: viewer.userId, reason, dismissed_at: at })))
    .onConflict((oc) => oc.columns(["organization_id", "notification_id"]).doUpdateSet({ reason: (eb) => eb.ref("excluded.reason") }))
    .execute();
  await recomputeReputationOf(viewer.organizationId, allowed);
  return allowed.length;
}

/** Undoes a dismissal: the notifications count again, so the stored overall risk is recomputed as for a dismissal. */
export async function restore(viewer: NotificationViewer, ids: number[]): Promise<number> {
  const allowed = await visibleIds(viewer, ids);
  if (allowed.length === 0) return 0;
  const result = await db()
    .deleteFrom("notification_dismissals")
    .where("organization_id", "=", viewer.organizationId)
    .where("notification_id", "in", allowed)
    .executeTakeFirst();
  await recomputeReputationOf(viewer.organizationId, allowed);
  return Number(result.numDeletedRows);
}

/** Recomputes the organisation's stored overall risk for the companies of these notifications, when the reputation line counts them (risk ≥ 20). */
async function recomputeReputationOf(organizationId: number, notificationIds: number[]): Promise<void> {
  const rows = await db()
    .selectFrom("risk_notifications")
    .select("company_id")
    .distinct()
    .where("id", "in", notificationIds)
    .where("risk_score", ">=", REPUTATION_MIN_SCORE)
    .execute();
  if (rows.length) await recomputeOverallRisk({ organizationId, companyIds: rows.map((r) => r.company_id) });
}
