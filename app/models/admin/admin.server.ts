import { sql } from "kysely";
import { db, now } from "@server/db";
import { env } from "@server/env";
import {
  adminFlagProblem,
  deactivationProblem,
  likePattern,
  organizationDeactivationProblem,
  pageWindow,
  type AccountChangeProblem,
  type PageWindow,
} from "~/models/admin/admin";
import { sendInvitation, sendPasswordReset } from "~/models/accounts/auth-mail.server";
import { osloMonth } from "~/models/credit/credit";
import { recordSecurityEvent, SECURITY_EVENT_KINDS, type RequestSource, type SecurityEventKind } from "~/models/accounts/security-events.server";
import { createInvitation, createPasswordReset, findUserByEmail, normalizeEmail, type Language } from "~/models/accounts/users.server";
import { refuse } from "~/models/shared/refusal";

/**
 * The installation's administration (decision 042): every organisation, every user, the security log,
 * every credit-report order and the most followed suppliers, across organisations — for the operator (is_admin)
 * only; the routes ask `requireUser(request, "admin")` before they call anything here. Every change records an
 * `admin_action` security event (decision 039) with what it did, in the change's own transaction.
 */

/** Who acts, and from where (for the security log). */
export interface AdminActor {
  id: number;
  organizationId: number | null;
  source: RequestSource | null;
}

export interface Paged<T> extends PageWindow {
  rows: T[];
  total: number;
}

/** A list's query without its page: `limit` and `offset` make one page of it. */
interface PageableQuery<R> {
  limit(limit: number): { offset(offset: number): { execute(): Promise<R[]> } };
}

/**
 * One page of a list (every list here has this shape): `count` answers `{ total }`, the rows in all; the page asked for
 * (past the end: the last, `pageWindow`) of `rows`, each shaped by `shape`.
 */
async function pageOf<R, T>(
  requested: number | null,
  count: { executeTakeFirstOrThrow(): Promise<{ total: number | string | bigint }> },
  rows: PageableQuery<R>,
  shape: (row: R) => T,
): Promise<Paged<T>> {
  const total = Number((await count.executeTakeFirstOrThrow()).total);
  const window = pageWindow(total, requested);
  const page = await rows.limit(window.pageSize).offset(window.offset).execute();
  return { ...window, total, rows: page.map(shape) };
}

/* ---------- organisations ---------- */

export interface AdminOrganizationRow {
  id: number;
  name: string;
  orgNumber: string | null;
  kind: "customer" | "supplier";
  members: number;
  /** Members by access level: the organisation's administrators (3), analysts (2), viewers (1). */
  levels: { 3: number; 2: number; 1: number };
  dataSharing: boolean;
  deactivatedAt: string | null;
  createdAt: string;
}

/** Customers, and supplier organisations that have users; by name or organisation number. */
export async function listOrganizations(input: { search: string | null; page: number | null }): Promise<Paged<AdminOrganizationRow>> {
  let base = db()
    .selectFrom("organizations as o")
    .where((eb) => eb.or([eb("o.kind", "=", "customer"), eb.exists(eb.selectFrom("users").select("users.id").whereRef("users.organization_id", "=", "o.id"))]));
  if (input.search) {
    const pattern = likePattern(input.search.toLowerCase());
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`lower(o.name) like ${pattern} escape '\\'`,
        sql<boolean>`coalesce(o.org_number, '') like ${likePattern(input.search!.replace(/\s/g, ""))} escape '\\'`,
      ]),
    );
  }
  return pageOf(
    input.page,
    base.select((eb) => eb.fn.countAll<number>().as("total")),
    base
      .select([
        "o.id",
        "o.name",
        "o.org_number",
        "o.kind",
        "o.data_sharing_enabled",
        "o.deactivated_at",
        "o.created_at",
        (eb) =>
          eb
            .selectFrom("users")
            .select((e) => e.fn.countAll<number>().as("n"))
            .whereRef("users.organization_id", "=", "o.id")
            .as("members"),
        sql<number>`(select count(*) from users where users.organization_id = o.id and users.access_level >= 3)`.as("level3"),
        sql<number>`(select count(*) from users where users.organization_id = o.id and users.access_level = 2)`.as("level2"),
        sql<number>`(select count(*) from users where users.organization_id = o.id and users.access_level <= 1)`.as("level1"),
      ])
      .orderBy(sql`lower(o.name)`)
      .orderBy("o.id"),
    (r) => ({
      id: r.id,
      name: r.name,
      orgNumber: r.org_number,
      kind: r.kind,
      members: Number(r.members ?? 0),
      levels: { 3: Number(r.level3), 2: Number(r.level2), 1: Number(r.level1) },
      dataSharing: r.data_sharing_enabled === 1,
      deactivatedAt: r.deactivated_at,
      createdAt: r.created_at,
    }),
  );
}

export async function getOrganization(id: number) {
  return db().selectFrom("organizations").select(["id", "name", "kind", "deactivated_at"]).where("id", "=", id).executeTakeFirst();
}

/**
 * Why the operator's change is refused: an address that already has an account (conflict, on `email`), an unknown
 * organisation or user (not-found), the operator's own organisation or account (conflict), the last active
 * administrator (conflict).
 */
export const ADMIN_REFUSALS = ["email-taken", "organization-not-found", "user-not-found", "own-organization", "own-account", "last-admin"] as const;
export type AdminRefusal = (typeof ADMIN_REFUSALS)[number];

/** `mailed: false`: the organisation and the invitation are saved, the mail failed (it is in the mail log, decision 044). */
export type CreateOrganizationResult = { organizationId: number; mailed: boolean };

/**
 * A new customer organisation with its first administrator: an invitation at level 3 (the existing invitation
 * flow), mailed in the language chosen. A failed mail does not undo either.
 */
export async function createCustomerOrganization(
  actor: AdminActor,
  origin: string,
  input: { name: string; orgNumber: string | null; email: string; language: Language },
): Promise<CreateOrganizationResult> {
  const email = normalizeEmail(input.email);
  if (await findUserByEmail(email)) throw refuse("conflict", "email-taken", { field: "email" });
  const organizationId = await db()
    .transaction()
    .execute(async (trx) => {
      const org = await trx
        .insertInto("organizations")
        .values({ name: input.name, kind: "customer", org_number: input.orgNumber, country_code: "NO", created_at: now() })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordSecurityEvent(
        {
          kind: "admin_action",
          userId: null,
          email,
          actorUserId: actor.id,
          organizationId: org.id,
          source: actor.source,
          detail: { action: "organization_created", organizationId: org.id, name: input.name, orgNumber: input.orgNumber, invited: email, accessLevel: 3 },
        },
        trx,
      );
      return org.id;
    });
  const token = await createInvitation({ email, organizationId, accessLevel: 3, invitedBy: actor.id });
  await recordSecurityEvent({
    kind: "invitation_sent",
    userId: null,
    email,
    actorUserId: actor.id,
    organizationId,
    source: actor.source,
    detail: { accessLevel: 3 },
  });
  const mailed = await sendInvitation(origin, { variant: "administrator", email, token, language: input.language, organization: input.name });
  return { organizationId, mailed };
}

/** Turns an organisation's data sharing on or off. */
export async function setDataSharing(actor: AdminActor, input: { organizationId: number; enabled: boolean }): Promise<void> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const result = await trx
        .updateTable("organizations")
        .set({ data_sharing_enabled: input.enabled ? 1 : 0 })
        .where("id", "=", input.organizationId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw refuse("not-found", "organization-not-found");
      await recordSecurityEvent(
        {
          kind: "admin_action",
          userId: null,
          actorUserId: actor.id,
          organizationId: input.organizationId,
          source: actor.source,
          detail: { action: input.enabled ? "data_sharing_on" : "data_sharing_off", organizationId: input.organizationId },
        },
        trx,
      );
    });
}

/**
 * Deactivates or reactivates an organisation: deactivation ends its members' sessions at once (decision 039). Not
 * the acting administrator's own organisation.
 */
export async function setOrganizationActive(actor: AdminActor, input: { organizationId: number; active: boolean }): Promise<void> {
  if (!input.active) {
    const problem = organizationDeactivationProblem({ actorOrganizationId: actor.organizationId, organizationId: input.organizationId });
    if (problem) throw refuse("conflict", "own-organization");
  }
  return db()
    .transaction()
    .execute(async (trx) => {
      const result = await trx
        .updateTable("organizations")
        .set({ deactivated_at: input.active ? null : now() })
        .where("id", "=", input.organizationId)
        .where("deactivated_at", input.active ? "is not" : "is", null)
        .executeTakeFirst();
      const exists = await trx.selectFrom("organizations").select("id").where("id", "=", input.organizationId).executeTakeFirst();
      if (!exists) throw refuse("not-found", "organization-not-found");
      if (Number(result.numUpdatedRows) === 0) return;
      let sessionsEnded = 0;
      if (!input.active) {
        const ended = await trx
          .deleteFrom("sessions")
          .where("user_id", "in", (eb) => eb.selectFrom("users").select("users.id").where("users.organization_id", "=", input.organizationId))
          .executeTakeFirst();
        sessionsEnded = Number(ended.numDeletedRows);
      }
      await recordSecurityEvent(
        {
          kind: "admin_action",
          userId: null,
          actorUserId: actor.id,
          organizationId: input.organizationId,
          source: actor.source,
          detail: { action: input.active ? "organization_reactivated" : "organization_deactivated", organizationId: input.organizationId, sessionsEnded },
        },
        trx,
      );
    });
}

/* ---------- users ---------- */

export interface AdminUserRow {
  id: number;
  email: string;
  organizationId: number | null;
  organizationName: string | null;
  accessLevel: number;
  isAdmin: boolean;
  deactivatedAt: string | null;
  lastSeenAt: string | null;
  createdAt: string;
}

export async function listUsers(input: { search: string | null; page: number | null }): Promise<Paged<AdminUserRow>> {
  let base = db().selectFrom("users as u").leftJoin("organizations as o", "o.id", "u.organization_id");
  if (input.search) base = base.where(sql<boolean>`u.email like ${likePattern(input.search.toLowerCase())} escape '\\'`);
  return pageOf(
    input.page,
    base.select((eb) => eb.fn.countAll<number>().as("total")),
    base
      .select([
        "u.id",
        "u.email",
        "u.organization_id",
        "o.name as organization_name",
        "u.access_level",
        "u.is_admin",
        "u.deactivated_at",
        "u.created_at",
        (eb) =>
          eb
            .selectFrom("sessions")
            .select((e) => e.fn.max("sessions.last_seen_at").as("m"))
            .whereRef("sessions.user_id", "=", "u.id")
            .as("last_seen_at"),
      ])
      .orderBy("u.email"),
    (r) => ({
      id: r.id,
      email: r.email,
      organizationId: r.organization_id,
      organizationName: r.organization_name,
      accessLevel: r.access_level,
      isAdmin: r.is_admin === 1,
      deactivatedAt: r.deactivated_at,
      lastSeenAt: (r.last_seen_at as string | null) ?? null,
      createdAt: r.created_at,
    }),
  );
}

/** A refused change of an account: its own account or the last active administrator. */
function accountRefusal(problem: AccountChangeProblem) {
  return refuse("conflict", problem === "self" ? "own-account" : "last-admin");
}

async function targetUser(id: number) {
  const target = await db()
    .selectFrom("users")
    .select(["id", "email", "is_admin", "access_level", "organization_id", "deactivated_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!target) throw refuse("not-found", "user-not-found");
  return target;
}

async function otherActiveAdmins(exceptUserId: number): Promise<number> {
  const row = await db()
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("is_admin", "=", 1)
    .where("deactivated_at", "is", null)
    .where("id", "!=", exceptUserId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Gives or takes the admin flag; the last active administrator keeps theirs (an administrator may hand theirs over). */
export async function setUserAdmin(actor: AdminActor, input: { userId: number; isAdmin: boolean }): Promise<void> {
  const target = await targetUser(input.userId);
  if (!input.isAdmin) {
    const problem = adminFlagProblem({
      targetIsAdmin: target.is_admin === 1 && target.deactivated_at == null,
      otherActiveAdmins: await otherActiveAdmins(target.id),
    });
    if (problem) throw accountRefusal(problem);
  }
  if ((target.is_admin === 1) === input.isAdmin) return;
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable("users")
        .set({ is_admin: input.isAdmin ? 1 : 0 })
        .where("id", "=", target.id)
        .execute();
      await recordSecurityEvent(
        {
          kind: "admin_action",
          userId: target.id,
          email: target.email,
          actorUserId: actor.id,
          organizationId: target.organization_id,
          source: actor.source,
          detail: { action: input.isAdmin ? "admin_granted" : "admin_revoked", userId: target.id },
        },
        trx,
      );
    });
}

/** Sets a user's access level (1–3) in their organisation. */
export async function setUserLevel(actor: AdminActor, input: { userId: number; accessLevel: 1 | 2 | 3 }): Promise<void> {
  const target = await targetUser(input.userId);
  if (target.access_level === input.accessLevel) return;
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.updateTable("users").set({ access_level: input.accessLevel }).where("id", "=", target.id).execute();
      const event = { userId: target.id, email: target.email, actorUserId: actor.id, organizationId: target.organization_id, source: actor.source };
      const detail = { from: target.access_level, to: input.accessLevel };
      await recordSecurityEvent({ ...event, kind: "level_changed", detail }, trx);
      await recordSecurityEvent({ ...event, kind: "admin_action", detail: { action: "level_changed", userId: target.id, ...detail } }, trx);
    });
}

/** Deactivates (sessions end at once) or reactivates a user; never oneself, never the last active administrator. */
export async function setUserActive(actor: AdminActor, input: { userId: number; active: boolean }): Promise<void> {
  const target = await targetUser(input.userId);
  if (!input.active) {
    const problem = deactivationProblem({
      actorId: actor.id,
      targetId: target.id,
      targetIsAdmin: target.is_admin === 1,
      otherActiveAdmins: await otherActiveAdmins(target.id),
    });
    if (problem) throw accountRefusal(problem);
  }
  if ((target.deactivated_at == null) === input.active) return;
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable("users")
        .set({ deactivated_at: input.active ? null : now() })
        .where("id", "=", target.id)
        .execute();
      if (!input.active) await trx.deleteFrom("sessions").where("user_id", "=", target.id).execute();
      const event = { userId: target.id, email: target.email, actorUserId: actor.id, organizationId: target.organization_id, source: actor.source };
      await recordSecurityEvent({ ...event, kind: input.active ? "user_reactivated" : "user_deactivated" }, trx);
      await recordSecurityEvent(
        { ...event, kind: "admin_action", detail: { action: input.active ? "user_reactivated" : "user_deactivated", userId: target.id } },
        trx,
      );
    });
}

/** Mails the user a password-reset link (the forgot-password flow's own link and mail). */
export async function sendUserPasswordReset(actor: AdminActor, origin: string, input: { userId: number }): Promise<void> {
  const target = await targetUser(input.userId);
  const reset = await createPasswordReset(target.email);
  if (!reset) throw refuse("not-found", "user-not-found");
  await sendPasswordReset(origin, { email: target.email, language: reset.language, token: reset.token });
  await recordSecurityEvent({
    kind: "admin_action",
    userId: target.id,
    email: target.email,
    actorUserId: actor.id,
    organizationId: target.organization_id,
    source: actor.source,
    detail: { action: "password_reset_sent", userId: target.id },
  });
}

/* ---------- the security log ---------- */

export interface SecurityEventRow {
  id: number;
  at: string;
  kind: string;
  email: string | null;
  actorEmail: string | null;
  organizationName: string | null;
  ip: string | null;
  userAgent: string | null;
  detail: string | null;
}

export function isSecurityEventKind(value: unknown): value is SecurityEventKind {
  return typeof value === "string" && (SECURITY_EVENT_KINDS as readonly string[]).includes(value);
}

/** The log, newest first; by kind and by the account's (or the actor's) email. */
export async function listSecurityEvents(input: {
  kind: SecurityEventKind | null;
  email: string | null;
  page: number | null;
}): Promise<Paged<SecurityEventRow>> {
  let base = db()
    .selectFrom("security_events as e")
    .leftJoin("users as actor", "actor.id", "e.actor_user_id")
    .leftJoin("users as account", "account.id", "e.user_id")
    .leftJoin("organizations as o", "o.id", "e.organization_id");
  if (input.kind) base = base.where("e.kind", "=", input.kind);
  if (input.email) {
    const pattern = likePattern(input.email.toLowerCase());
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`lower(coalesce(e.email, account.email, '')) like ${pattern} escape '\\'`,
        sql<boolean>`coalesce(actor.email, '') like ${pattern} escape '\\'`,
      ]),
    );
  }
  // Counting needs the joins only for the email filter: SQLite keeps a LEFT JOIN in an aggregate, so a count over the
  // joined rows reads every event and three rows per event (≈ 75 ms at 200 000 events) where the table alone is ~0 ms.
  let count = db().selectFrom("security_events as e");
  if (input.kind) count = count.where("e.kind", "=", input.kind);
  return pageOf(
    input.page,
    input.email ? base.select((eb) => eb.fn.countAll<number>().as("total")) : count.select((eb) => eb.fn.countAll<number>().as("total")),
    base
      .select([
        "e.id",
        "e.at",
        "e.kind",
        "e.email",
        "account.email as account_email",
        "actor.email as actor_email",
        "o.name as organization_name",
        "e.ip",
        "e.user_agent",
        "e.detail",
      ])
      .orderBy("e.at", "desc")
      .orderBy("e.id", "desc"),
    (r) => ({
      id: r.id,
      at: r.at,
      kind: r.kind,
      email: r.email ?? r.account_email,
      actorEmail: r.actor_email,
      organizationName: r.organization_name,
      ip: r.ip,
      userAgent: r.user_agent,
      detail: r.detail,
    }),
  );
}

/* ---------- credit-report billing ---------- */

export interface AdminCreditOrder {
  id: number;
  createdAt: string;
  organizationId: number;
  organizationName: string;
  companyName: string;
  regNo: string | null;
  countryCode: string;
  orderedBy: string | null;
  priceNok: number;
}

/** A UTC range [start, end) of `created_at` (a billing month's, `osloMonthRange`). */
export interface CreatedRange {
  start: string;
  end: string;
}

function creditOrdersQuery(range: CreatedRange | null) {
  let query = db().selectFrom("credit_reports as r");
  if (range) query = query.where("r.created_at", ">=", range.start).where("r.created_at", "<", range.end);
  return query;
}

function orderRows(range: CreatedRange | null) {
  return creditOrdersQuery(range)
    .innerJoin("organizations as o", "o.id", "r.organization_id")
    .leftJoin("users as u", "u.id", "r.user_id")
    .select([
      "r.id",
      "r.created_at",
      "r.organization_id",
      "o.name as organization_name",
      "r.company_name",
      "r.reg_no",
      "r.country_code",
      "u.email",
      "r.price_nok",
    ])
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc");
}

function creditOrder(r: {
  id: number;
  created_at: string;
  organization_id: number;
  organization_name: string;
  company_name: string;
  reg_no: string | null;
  country_code: string;
  email: string | null;
  price_nok: number;
}): AdminCreditOrder {
  return {
    id: r.id,
    createdAt: r.created_at,
    organizationId: r.organization_id,
    organizationName: r.organization_name,
    companyName: r.company_name,
    regNo: r.reg_no,
    countryCode: r.country_code,
    orderedBy: r.email,
    priceNok: r.price_nok,
  };
}

/** Every credit-report order of every organisation (or of one billing month's range), newest first (the billing basis). */
export async function allCreditOrders(range: CreatedRange | null = null): Promise<AdminCreditOrder[]> {
  return (await orderRows(range).execute()).map(creditOrder);
}

/** One page (25) of the orders in a billing month's range, newest first; counted and paged in SQL. */
export async function creditOrdersPage(range: CreatedRange, page: number | null): Promise<Paged<AdminCreditOrder>> {
  return pageOf(
    page,
    creditOrdersQuery(range).select((eb) => eb.fn.countAll<number>().as("total")),
    orderRows(range),
    creditOrder,
  );
}

export interface BillingMonthTotal {
  /** 'YYYY-MM' in Europe/Oslo time. */
  month: string;
  count: number;
  totalNok: number;
}

/**
 * Every billing month (Europe/Oslo) with its orders' count and total, newest first, grouped in SQL. The bucket is the
 * UTC month, except in a month's last two UTC hours (day ≥ 28, hour ≥ 22: the only instants whose Oslo month can
 * differ, as `osloMonth` decides), which are bucketed by their UTC hour and then billed through `osloMonth`.
 */
export async function billingMonths(): Promise<BillingMonthTotal[]> {
  const buckets = await db()
    .selectFrom("credit_reports")
    .select([
      sql<string>`case when substr(created_at, 9, 2) >= '28' and substr(created_at, 12, 2) >= '22' then substr(created_at, 1, 13) else substr(created_at, 1, 7) end`.as(
        "bucket",
      ),
      (eb) => eb.fn.countAll<number>().as("n"),
      (eb) => eb.fn.sum<number>("price_nok").as("sum"),
    ])
    .groupBy("bucket")
    .execute();
  const months = new Map<string, BillingMonthTotal>();
  for (const bucket of buckets) {
    const month = bucket.bucket.length === 7 ? bucket.bucket : osloMonth(`${bucket.bucket}:00:00.000Z`);
    const total = months.get(month) ?? { month, count: 0, totalNok: 0 };
    total.count += Number(bucket.n);
    total.totalNok += Number(bucket.sum);
    months.set(month, total);
  }
  return [...months.values()].sort((a, b) => (a.month < b.month ? 1 : a.month > b.month ? -1 : 0));
}

export interface OrganizationMonthTotal {
  organizationId: number;
  organizationName: string;
  count: number;
  totalNok: number;
}

const norwegianNames = new Intl.Collator("nb");

/** Each organisation's count and total in a billing month's range, by name (Norwegian collation). */
export async function billingByOrganization(range: CreatedRange): Promise<OrganizationMonthTotal[]> {
  const rows = await creditOrdersQuery(range)
    .innerJoin("organizations as o", "o.id", "r.organization_id")
    .select(["r.organization_id", "o.name", (eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.sum<number>("r.price_nok").as("sum")])
    .groupBy(["r.organization_id", "o.name"])
    .execute();
  return rows
    .map((r) => ({ organizationId: r.organization_id, organizationName: r.name, count: Number(r.n), totalNok: Number(r.sum) }))
    .sort((a, b) => norwegianNames.compare(a.organizationName, b.organizationName) || a.organizationId - b.organizationId);
}

/* ---------- the most followed suppliers ---------- */

export interface FollowedSupplierRow {
  organizationId: number;
  name: string;
  orgNumber: string | null;
  countryCode: string;
  /** Customer organisations following it (live connections). */
  followers: number;
  /** The stored overall risk across them (organization_connections.overall_risk): highest and average, null when none computed. */
  highestRisk: number | null;
  averageRisk: number | null;
}

/** Suppliers by how many customer organisations follow them; never a customer's comments or tags. */
export async function mostFollowedSuppliers(input: { page: number | null }): Promise<Paged<FollowedSupplierRow>> {
  const base = db()
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as parent", "parent.id", "c.parent_organization_id")
    .where("c.is_deleted", "=", 0)
    .where("parent.kind", "=", "customer");
  return pageOf(
    input.page,
    base.select(sql<number>`count(distinct c.child_organization_id)`.as("total")),
    base
      .innerJoin("organizations as s", "s.id", "c.child_organization_id")
      .select([
        "s.id",
        "s.name",
        "s.org_number",
        "s.country_code",
        sql<number>`count(distinct c.parent_organization_id)`.as("followers"),
        sql<number | null>`max(c.overall_risk)`.as("highest"),
        sql<number | null>`avg(c.overall_risk)`.as("average"),
      ])
      .groupBy(["s.id", "s.name", "s.org_number", "s.country_code"])
      .orderBy("followers", "desc")
      .orderBy(sql`max(c.overall_risk)`, (ob) => ob.desc().nullsLast())
      .orderBy("s.name")
      .orderBy("s.id"),
    (r) => ({
      organizationId: r.id,
      name: r.name,
      orgNumber: r.org_number,
      countryCode: r.country_code,
      followers: Number(r.followers),
      highestRisk: r.highest == null ? null : Number(r.highest),
      averageRisk: r.average == null ? null : Math.round(Number(r.average)),
    }),
  );
}

/** How many days the security log keeps its events (said on the page). */
export function securityLogDays(): number {
  return env().SECURITY_LOG_DAYS;
}
