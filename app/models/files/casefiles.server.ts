import { db, now } from "@server/db";
import { followsSupplier } from "~/models/suppliers/follows.server";
import type { CasefileStatus } from "~/models/files/casefile-schemas";

/**
 * Case files of an organisation: a title, a status, a priority 1–5 (or
 * none), the supplier it concerns, comments and an event history. Every
 * function is scoped by the session's organisation: another organisation's
 * id reads as absent.
 */

export interface CasefileListItem {
  id: number;
  title: string;
  status: string;
  /** 1 (lowest) … 5 (highest), or null. */
  priority: number | null;
  createdAt: string;
  comments: Array<{ id: number }>;
  events: Array<{ id: number }>;
}

async function withCounts<T extends { id: number }>(rows: T[]): Promise<Array<T & { comments: Array<{ id: number }>; events: Array<{ id: number }> }>> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [comments, events] = await Promise.all([
    db().selectFrom("casefile_comments").select(["id", "casefile_id"]).where("casefile_id", "in", ids).orderBy("id").execute(),
    db().selectFrom("casefile_events").select(["id", "casefile_id"]).where("casefile_id", "in", ids).orderBy("id").execute(),
  ]);
  const group = (list: Array<{ id: number; casefile_id: number }>) => {
    const map = new Map<number, Array<{ id: number }>>();
    for (const item of list) map.set(item.casefile_id, [...(map.get(item.casefile_id) ?? []), { id: item.id }]);
    return map;
  };
  const byComment = group(comments);
  const byEvent = group(events);
  return rows.map((r) => ({ ...r, comments: byComment.get(r.id) ?? [], events: byEvent.get(r.id) ?? [] }));
}

/** GET /api/casefiles/by-supplier/{childId} and the overview card: newest first. */
export async function casefilesBySupplier(input: { organizationId: number; supplierOrganizationId: number }): Promise<CasefileListItem[]> {
  const rows = await db()
    .selectFrom("casefiles")
    .select(["id", "title", "status", "priority", "created_at as createdAt"])
    .where("organization_id", "=", input.organizationId)
    .where("supplier_organization_id", "=", input.supplierOrganizationId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return withCounts(rows);
}

export interface CasefileRow extends CasefileListItem {
  supplier: { id: number; name: string; orgNumber: string | null } | null;
}

/** /casefiles: all of the organisation's case files, newest first. */
export async function listCasefiles(input: { organizationId: number }): Promise<CasefileRow[]> {
  const rows = await db()
    .selectFrom("casefiles as cf")
    .leftJoin("organizations as o", "o.id", "cf.supplier_organization_id")
    .select([
      "cf.id",
      "cf.title",
      "cf.status",
      "cf.priority",
      "cf.created_at as createdAt",
      "o.id as supplierId",
      "o.name as supplierName",
      "o.org_number as supplierOrgNumber",
    ])
    .where("cf.organization_id", "=", input.organizationId)
    .orderBy("cf.created_at", "desc")
    .orderBy("cf.id", "desc")
    .execute();
  const counted = await withCounts(rows);
  return counted.map(({ supplierId, supplierName, supplierOrgNumber, ...rest }) => ({
    ...rest,
    supplier: supplierId != null && supplierName != null ? { id: supplierId, name: supplierName, orgNumber: supplierOrgNumber } : null,
  }));
}

export interface CasefileDetail {
  id: number;
  title: string;
  status: string;
  priority: number | null;
  createdAt: string;
  updatedAt: string;
  supplier: { id: number; name: string; orgNumber: string | null } | null;
  createdBy: { email: string | null };
  comments: Array<{ id: number; text: string; createdAt: string; user: { email: string | null } }>;
  events: Array<{ id: number; type: string; detail: Record<string, unknown> | null; createdAt: string; user: { email: string | null } }>;
}

function parseDetail(detail: string | null): Record<string, unknown> | null {
  if (!detail) return null;
  try {
    const value: unknown = JSON.parse(detail);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** /casefiles/{id}: one case file with its comments (oldest first) and events (newest first); undefined for another organisation's id. */
export async function getCasefile(input: { organizationId: number; id: number }): Promise<CasefileDetail | undefined> {
  const row = await db()
    .selectFrom("casefiles as cf")
    .leftJoin("organizations as o", "o.id", "cf.supplier_organization_id")
    .leftJoin("users as u", "u.id", "cf.created_by")
    .select([
      "cf.id",
      "cf.title",
      "cf.status",
      "cf.priority",
      "cf.created_at as createdAt",
      "cf.updated_at as updatedAt",
      "o.id as supplierId",
      "o.name as supplierName",
      "o.org_number as supplierOrgNumber",
      "u.email as createdByEmail",
    ])
    .where("cf.organization_id", "=", input.organizationId)
    .where("cf.id", "=", input.id)
    .executeTakeFirst();
  if (!row) return undefined;
  const [comments, events] = await Promise.all([
    db()
      .selectFrom("casefile_comments as c")
      .leftJoin("users as u", "u.id", "c.user_id")
      .select(["c.id", "c.text", "c.created_at as createdAt", "u.email"])
      .where("c.casefile_id", "=", row.id)
      .orderBy("c.created_at")
      .orderBy("c.id")
      .execute(),
    db()
      .selectFrom("casefile_events as e")
      .leftJoin("users as u", "u.id", "e.user_id")
      .select(["e.id", "e.type", "e.detail", "e.created_at as createdAt", "u.email"])
      .where("e.casefile_id", "=", row.id)
      .orderBy("e.created_at", "desc")
      .orderBy("e.id", "desc")
      .execute(),
  ]);
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    priority: row.priority,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    supplier: row.supplierId != null && row.supplierName != null ? { id: row.supplierId, name: row.supplierName, orgNumber: row.supplierOrgNumber } : null,
    createdBy: { email: row.createdByEmail ?? null },
    comments: comments.map((c) => ({ id: c.id, text: c.text, createdAt: c.createdAt, user: { email: c.email ?? null } })),
    events: events.map((e) => ({ id: e.id, type: e.type, detail: parseDetail(e.detail), createdAt: e.createdAt, user: { email: e.email ?? null } })),
  };
}

async function ownedId(organizationId: number, id: number): Promise<boolean> {
  const row = await db().selectFrom("casefiles").select("id").where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
  return Boolean(row);
}

/** Adds a comment; false when the case file is not the organisation's. The text must be non-empty after trimming. */
export async function addCasefileComment(input: { organizationId: number; userId: number; id: number; text: string }): Promise<boolean> {
  const text = input.text.trim();
  if (!text) throw new Error("A comment needs text.");
  if (!(await ownedId(input.organizationId, input.id))) return false;
  await db().insertInto("casefile_comments").values({ casefile_id: input.id, user_id: input.userId, text, created_at: now() }).execute();
  return true;
}

/**
 * Changes status and/or priority, recording one event per field that
 * actually changed ('status_changed', 'priority_changed' with from/to).
 * False when the case file is not the organisation's.
 */
export async function updateCasefile(input: {
  organizationId: number;
  userId: number;
  id: number;
  status?: CasefileStatus;
  priority?: number | null;
}): Promise<boolean> {
  if (input.priority != null && !(Number.isInteger(input.priority) && input.priority >= 1 && input.priority <= 5))
    throw new Error("Priority is 1 to 5 or none.");
  return db()
    .transaction()
    .execute(async (trx) => {
      const current = await trx
        .selectFrom("casefiles")
        .select(["id", "status", "priority"])
        .where("organization_id", "=", input.organizationId)
        .where("id", "=", input.id)
        .executeTakeFirst();
      if (!current) return false;
      const at = now();
      const changes: { status?: CasefileStatus; priority?: number | null } = {};
      if (input.status !== undefined && input.status !== current.status) {
        changes.status = input.status;
        await trx
          .insertInto("casefile_events")
          .values({
            casefile_id: current.id,
            user_id: input.userId,
            type: "status_changed",
            detail: JSON.stringify({ from: current.status, to: input.status }),
            created_at: at,
          })
          .execute();
      }
      if (input.priority !== undefined && input.priority !== current.priority) {
        changes.priority = input.priority;
        await trx
          .insertInto("casefile_events")
          .values({
            casefile_id: current.id,
            user_id: input.userId,
            type: "priority_changed",
            detail: JSON.stringify({ from: current.priority, to: input.priority }),
            created_at: at,
          })
          .execute();
      }
      if (Object.keys(changes).length > 0) {
        await trx
          .updateTable("casefiles")
          .set({ ...changes, updated_at: at })
          .where("id", "=", current.id)
          .execute();
      }
      return true;
    });
}

/**
 * Opens a case file about a supplier the organisation follows, with a
 * 'created' event. Undefined when the organisation does not follow it.
 */
export async function createCasefile(input: {
  organizationId: number;
  userId: number;
  supplierOrganizationId: number;
  title: string;
  priority: number | null;
}): Promise<number | undefined> {
  const title = input.title.trim();
  if (!title) throw new Error("A case file needs a title.");
  if (input.priority != null && !(Number.isInteger(input.priority) && input.priority >= 1 && input.priority <= 5))
    throw new Error("Priority is 1 to 5 or none.");
  if (!(await followsSupplier({ organizationId: input.organizationId, supplier: { id: input.supplierOrganizationId } }))) return undefined;
  return db()
    .transaction()
    .execute(async (trx) => {
      const at = now();
      const row = await trx
        .insertInto("casefiles")
        .values({
          organization_id: input.organizationId,
          supplier_organization_id: input.supplierOrganizationId,
          title,
          status: "open",
          priority: input.priority,
          created_by: input.userId,
          created_at: at,
          updated_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("casefile_events")
        .values({ casefile_id: row.id, user_id: input.userId, type: "created", detail: JSON.stringify({ title, priority: input.priority }), created_at: at })
        .execute();
      return row.id;
    });
}

/** The suppliers the organisation follows, for the 'New case file' supplier select. */
export async function followedSuppliers(input: { organizationId: number }): Promise<Array<{ id: number; name: string }>> {
  return db()
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .select(["o.id", "o.name"])
    .where("c.parent_organization_id", "=", input.organizationId)
    .where("c.is_deleted", "=", 0)
    .orderBy("o.name")
    .execute();
}
