import { db, now, type Db } from "@server/db";
import { refuse, type Refusal, type RefusalReason } from "~/models/shared/refusal";
import { recordConnectionEvent, type ConnectionAction } from "~/models/suppliers/connection-audit.server";
import { followedConnectionId } from "~/models/suppliers/follows.server";
import { findCompany } from "~/models/registry/registry.server";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";

/**
 * A supplier connection: the session's organisation following a supplier
 * organisation, with its flags, contact email, tags, comments and attached
 * files. Every function takes the organisation id from the caller's session
 * and never reads or changes another organisation's rows; every change is
 * recorded in the audit trail inside the transaction that makes it.
 */

/** The spec's shape of an organisation connection (shared/spec/02-supplier-credit-connections.md §3). */
export interface ConnectionData {
  id: number;
  childId: number;
  createdAt: string;
  contact_email: string | null;
  is_priority: boolean;
  is_due_diligence: boolean;
  is_deleted: boolean;
  child: { organization_name: string; local_organization_id: number };
  tags: Array<{ tag: { id: number; title: string } }>;
  comments: Array<{ id: number; text: string; createdAt: string; user: { email: string } | null }>;
  files: Array<{ fileUpload: { id: number; fileName: string; fileSize: number } }>;
}

/**
 * What a refused change is about, as the `code` of its Refusal: an id that is not the organisation's (reason
 * "not-found"), a comment by someone else ("forbidden"), the organisation itself as a supplier ("invalid"). Thrown
 * inside the change's transaction, so nothing of it is saved; the route picks the user's words by the code, and the
 * Refusal's message is for logs and the JSON API, never for the screen.
 */
export const CONNECTION_REFUSALS = ["connection", "company", "tag", "comment", "file", "attachment", "own-organization", "author"] as const;
export type ConnectionRefusal = (typeof CONNECTION_REFUSALS)[number];

/** A connection's Refusal; `subject` repeats its code under the name the connection model has always given it. */
function refuseConnection(reason: RefusalReason, subject: ConnectionRefusal, message: string): Refusal<ConnectionRefusal> & { subject: ConnectionRefusal } {
  return Object.assign(refuse(reason, subject, { message }), { subject });
}

const notFound = (subject: ConnectionRefusal, message: string) => refuseConnection("not-found", subject, message);

/** One change of a connection (shared/spec/02-supplier-credit-connections.md §7 PATCH): exactly one of these. Values are already checked by the caller. */
export type ConnectionChange =
  | { contact_email: string | null }
  | { is_priority: boolean }
  | { is_due_diligence: boolean }
  | { is_deleted: true }
  | { removeTagIds: number[] }
  | { addTagIds: number[] }
  | { newTags: string[] }
  | { newComment: string };

async function connectionRow(database: Db, organizationId: number, id: number, includeDeleted = false) {
  let query = database
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .select(["c.id", "c.child_organization_id", "c.created_at", "c.contact_email", "c.is_priority", "c.is_due_diligence", "c.is_deleted", "o.name"])
    .where("c.id", "=", id)
    .where("c.parent_organization_id", "=", organizationId);
  if (!includeDeleted) query = query.where("c.is_deleted", "=", 0);
  return query.executeTakeFirst();
}

const activeConnectionRow = (database: Db, organizationId: number, id: number) => connectionRow(database, organizationId, id);

/**
 * One connection of the organisation in the spec's shape; null for another
 * organisation's id or (unless `includeDeleted`, for the answer to a soft
 * delete) a soft-deleted one.
 */
export async function getConnection(
  input: { organizationId: number; id: number; includeDeleted?: boolean },
  database: Db = db(),
): Promise<ConnectionData | null> {
  const row = await connectionRow(database, input.organizationId, input.id, input.includeDeleted);
  if (!row) return null;
  const [tags, comments, files] = await Promise.all([
    database
      .selectFrom("organization_connection_tags as ct")
      .innerJoin("organization_tags as t", "t.id", "ct.tag_id")
      .select(["t.id", "t.title"])
      .where("ct.connection_id", "=", row.id)
      .where("t.organization_id", "=", input.organizationId)
      .orderBy("t.title", "asc")
      .execute(),
    database
      .selectFrom("organization_connection_comments as cc")
      .leftJoin("users as u", "u.id", "cc.user_id")
      .select(["cc.id", "cc.text", "cc.created_at", "u.email"])
      .where("cc.connection_id", "=", row.id)
      .orderBy("cc.created_at", "asc")
      .orderBy("cc.id", "asc")
      .execute(),
    database
      .selectFrom("organization_connection_files as cf")
      .innerJoin("file_uploads as f", "f.id", "cf.file_upload_id")
      .select(["f.id", "f.file_name", "f.file_size"])
      .where("cf.connection_id", "=", row.id)
      .where("f.organization_id", "=", input.organizationId)
      .orderBy("cf.created_at", "asc")
      .orderBy("f.id", "asc")
      .execute(),
  ]);
  return {
    id: row.id,
    childId: row.child_organization_id,
    createdAt: row.created_at,
    contact_email: row.contact_email,
    is_priority: row.is_priority === 1,
    is_due_diligence: row.is_due_diligence === 1,
    is_deleted: row.is_deleted === 1,
    child: { organization_name: row.name, local_organization_id: row.child_organization_id },
    tags: tags.map((t) => ({ tag: { id: t.id, title: t.title } })),
    comments: comments.map((c) => ({ id: c.id, text: c.text, createdAt: c.created_at, user: c.email ? { email: c.email } : null })),
    files: files.map((f) => ({ fileUpload: { id: f.id, fileName: f.file_name, fileSize: f.file_size } })),
  };
}

/** The organisation's active connection to a supplier organisation, if any. */
export async function connectionForSupplier(input: { organizationId: number; supplierOrganizationId: number }): Promise<ConnectionData | null> {
  const followed = await followedConnectionId({ organizationId: input.organizationId, supplier: { id: input.supplierOrganizationId } });
  return followed ? getConnection({ organizationId: input.organizationId, id: followed.connectionId }) : null;
}

/** The id of the organisation's active connection to the company with this organisation number; a "connection" refusal when it follows none. */
export async function connectionIdForCompany(input: { organizationId: number; orgNumber: string }): Promise<number> {
  const followed = await followedConnectionId({ organizationId: input.organizationId, supplier: { orgNumber: input.orgNumber.replace(/\s/g, "") } });
  if (!followed) throw notFound("connection", "Connection not found");
  return followed.connectionId;
}

/**
 * Inside a transaction: the organisation's connection to a registry company — its local organisation created when missing,
 * the connection created (with `event` in the audit trail) unless the company is followed already. null when the company is
 * the organisation itself. Shared by adding one supplier and by confirming an import.
 */
export async function connectCompany(
  trx: Db,
  input: {
    organizationId: number;
    userId: number | null;
    company: { org_number: string; legal_name: string; country_code: string };
    event: { action: ConnectionAction; detail: Record<string, unknown> };
  },
): Promise<{ connectionId: number; created: boolean } | null> {
  const { company } = input;
  let local = await trx.selectFrom("organizations").select("id").where("org_number", "=", company.org_number).orderBy("id", "asc").executeTakeFirst();
  if (!local) {
    local = await trx
      .insertInto("organizations")
      .values({ name: company.legal_name, kind: "supplier", org_number: company.org_number, country_code: company.country_code, created_at: now() })
      .returning("id")
      .executeTakeFirstOrThrow();
  }
  if (local.id === input.organizationId) return null;
  const existing = await trx
    .selectFrom("organization_connections")
    .select("id")
    .where("parent_organization_id", "=", input.organizationId)
    .where("child_organization_id", "=", local.id)
    .where("is_deleted", "=", 0)
    .executeTakeFirst();
  if (existing) return { connectionId: existing.id, created: false };
  const at = now();
  const created = await trx
    .insertInto("organization_connections")
    .values({ parent_organization_id: input.organizationId, child_organization_id: local.id, created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  await recordConnectionEvent({ connectionId: created.id, organizationId: input.organizationId, userId: input.userId, ...input.event }, trx);
  return { connectionId: created.id, created: true };
}

/**
 * Adds a registry company to the organisation's suppliers: the local supplier
 * organisation is created from the registry when missing, then the connection.
 * Adding one that is already a supplier returns the existing connection.
 */
export async function addSupplier(input: { organizationId: number; userId: number | null; orgNumber: string }): Promise<ConnectionData> {
  const orgNumber = input.orgNumber.replace(/\s/g, "");
  const company = orgNumber ? await findCompany(orgNumber) : undefined;
  if (!company) throw notFound("company", "No company with that organisation number");
  const id = await db()
    .transaction()
    .execute(async (trx) => {
      const connected = await connectCompany(trx, {
        organizationId: input.organizationId,
        userId: input.userId,
        company,
        event: { action: "created", detail: { orgNumber: company.org_number } },
      });
      if (!connected) throw refuseConnection("invalid", "own-organization", "An organisation cannot be its own supplier");
      return connected.connectionId;
    });
  const child = await db().selectFrom("organization_connections").select("child_organization_id").where("id", "=", id).executeTakeFirstOrThrow();
  await recomputeOverallRisk({ organizationId: input.organizationId, childOrganizationIds: [child.child_organization_id] });
  const connection = await getConnection({ organizationId: input.organizationId, id });
  if (!connection) throw notFound("connection", "Connection not found");
  return connection;
}

async function organizationTagIds(trx: Db, organizationId: number, tagIds: number[]): Promise<Array<{ id: number; title: string }>> {
  const unique = [...new Set(tagIds)];
  const rows = await trx
    .selectFrom("organization_tags")
    .select(["id", "title"])
    .where("organization_id", "=", organizationId)
    .where("id", "in", unique)
    .execute();
  if (rows.length !== unique.length) throw notFound("tag", "Tag not found");
  return rows;
}

async function linkTags(trx: Db, input: { organizationId: number; userId: number | null; connectionId: number }, tags: Array<{ id: number; title: string }>) {
  for (const tag of tags) {
    const inserted = await trx
      .insertInto("organization_connection_tags")
      .values({ connection_id: input.connectionId, tag_id: tag.id, created_at: now() })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
      await recordConnectionEvent(
        {
          connectionId: input.connectionId,
          organizationId: input.organizationId,
          userId: input.userId,
          action: "tag_added",
          detail: { tagId: tag.id, title: tag.title },
        },
        trx,
      );
    }
  }
}

/** Applies one change to a connection of the organisation and returns the connection as it is then. */
export async function updateConnection(input: {
  organizationId: number;
  userId: number | null;
  id: number;
  change: ConnectionChange;
}): Promise<ConnectionData | null> {
  const { organizationId, userId, id, change } = input;
  const base = { connectionId: id, organizationId, userId };
  await db()
    .transaction()
    .execute(async (trx) => {
      const row = await activeConnectionRow(trx, organizationId, id);
      if (!row) throw notFound("connection", "Connection not found");
      const touch = () => trx.updateTable("organization_connections").set({ updated_at: now() }).where("id", "=", id).execute();
      if ("contact_email" in change) {
        const email = change.contact_email?.trim() || null;
        await trx.updateTable("organization_connections").set({ contact_email: email, updated_at: now() }).where("id", "=", id).execute();
        await recordConnectionEvent({ ...base, action: "contact_email", detail: { from: row.contact_email, to: email } }, trx);
      } else if ("is_priority" in change) {
        await trx
          .updateTable("organization_connections")
          .set({ is_priority: change.is_priority ? 1 : 0, updated_at: now() })
          .where("id", "=", id)
          .execute();
        await recordConnectionEvent({ ...base, action: "is_priority", detail: { to: change.is_priority } }, trx);
      } else if ("is_due_diligence" in change) {
        await trx
          .updateTable("organization_connections")
          .set({ is_due_diligence: change.is_due_diligence ? 1 : 0, updated_at: now() })
          .where("id", "=", id)
          .execute();
        await recordConnectionEvent({ ...base, action: "is_due_diligence", detail: { to: change.is_due_diligence } }, trx);
      } else if ("is_deleted" in change) {
        await trx.updateTable("organization_connections").set({ is_deleted: 1, updated_at: now() }).where("id", "=", id).execute();
        await recordConnectionEvent({ ...base, action: "deleted" }, trx);
      } else if ("removeTagIds" in change) {
        const tags = await organizationTagIds(trx, organizationId, change.removeTagIds);
        for (const tag of tags) {
          const removed = await trx.deleteFrom("organization_connection_tags").where("connection_id", "=", id).where("tag_id", "=", tag.id).executeTakeFirst();
          if (Number(removed.numDeletedRows) > 0)
            await recordConnectionEvent({ ...base, action: "tag_removed", detail: { tagId: tag.id, title: tag.title } }, trx);
        }
        await touch();
      } else if ("addTagIds" in change) {
        await linkTags(trx, base, await organizationTagIds(trx, organizationId, change.addTagIds));
        await touch();
      } else if ("newTags" in change) {
        const tags: Array<{ id: number; title: string }> = [];
        for (const raw of change.newTags) {
          const tagTitle = raw.trim();
          // Titles are unique per organisation regardless of case: an existing one is reused.
          const existing = await trx
            .selectFrom("organization_tags")
            .select(["id", "title"])
            .where("organization_id", "=", organizationId)
            .where((eb) => eb(eb.fn("lower", ["title"]), "=", tagTitle.toLowerCase()))
            .executeTakeFirst();
          if (existing) {
            tags.push(existing);
            continue;
          }
          const created = await trx
            .insertInto("organization_tags")
            .values({ organization_id: organizationId, title: tagTitle, created_at: now() })
            .returning(["id", "title"])
            .executeTakeFirstOrThrow();
          await recordConnectionEvent({ ...base, action: "tag_created", detail: { tagId: created.id, title: created.title } }, trx);
          tags.push(created);
        }
        await linkTags(trx, base, tags);
        await touch();
      } else {
        const text = change.newComment.trim();
        const comment = await trx
          .insertInto("organization_connection_comments")
          .values({ connection_id: id, user_id: userId, text, created_at: now() })
          .returning("id")
          .executeTakeFirstOrThrow();
        await recordConnectionEvent({ ...base, action: "comment_added", detail: { commentId: comment.id } }, trx);
        await touch();
      }
    });
  return getConnection({ organizationId, id, includeDeleted: "is_deleted" in change });
}

/**
 * The slide-over's Save Changes: flags and contact email in one transaction.
 * Only what differs from the stored connection is written and recorded, so
 * the audit trail shows real changes.
 */
export async function saveConnectionSettings(input: {
  organizationId: number;
  userId: number | null;
  id: number;
  isPriority: boolean;
  isDueDiligence: boolean;
  contactEmail: string | null;
}): Promise<void> {
  const { organizationId, userId, id } = input;
  const base = { connectionId: id, organizationId, userId };
  await db()
    .transaction()
    .execute(async (trx) => {
      const row = await activeConnectionRow(trx, organizationId, id);
      if (!row) throw notFound("connection", "Connection not found");
      const email = input.contactEmail?.trim() || null;
      const changes: { is_priority?: number; is_due_diligence?: number; contact_email?: string | null } = {};
      if (input.isPriority !== (row.is_priority === 1)) {
        changes.is_priority = input.isPriority ? 1 : 0;
        await recordConnectionEvent({ ...base, action: "is_priority", detail: { to: input.isPriority } }, trx);
      }
      if (input.isDueDiligence !== (row.is_due_diligence === 1)) {
        changes.is_due_diligence = input.isDueDiligence ? 1 : 0;
        await recordConnectionEvent({ ...base, action: "is_due_diligence", detail: { to: input.isDueDiligence } }, trx);
      }
      if (email !== row.contact_email) {
        changes.contact_email = email;
        await recordConnectionEvent({ ...base, action: "contact_email", detail: { from: row.contact_email, to: email } }, trx);
      }
      if (Object.keys(changes).length)
        await trx
          .updateTable("organization_connections")
          .set({ ...changes, updated_at: now() })
          .where("id", "=", id)
          .execute();
    });
}

/** Deletes a comment on one of the organisation's connections: its author or an administrator only. */
export async function deleteComment(input: { organizationId: number; user: { id: number; isAdmin: boolean }; commentId: number }): Promise<void> {
  await db()
    .transaction()
    .execute(async (trx) => {
      const comment = await trx
        .selectFrom("organization_connection_comments as cc")
        .innerJoin("organization_connections as c", "c.id", "cc.connection_id")
        .select(["cc.id", "cc.user_id", "cc.connection_id", "cc.text"])
        .where("cc.id", "=", input.commentId)
        .where("c.parent_organization_id", "=", input.organizationId)
        .where("c.is_deleted", "=", 0)
        .executeTakeFirst();
      if (!comment) throw notFound("comment", "Comment not found");
      if (comment.user_id !== input.user.id && !input.user.isAdmin)
        throw refuseConnection("forbidden", "author", "Only the author or an administrator can delete this comment");
      await trx.deleteFrom("organization_connection_comments").where("id", "=", comment.id).execute();
      await recordConnectionEvent(
        {
          connectionId: comment.connection_id,
          organizationId: input.organizationId,
          userId: input.user.id,
          action: "comment_deleted",
          detail: { commentId: comment.id, text: comment.text },
        },
        trx,
      );
    });
}

async function fileOfConnection(trx: Db, input: { organizationId: number; connectionId: number; fileId: number }) {
  const connection = await activeConnectionRow(trx, input.organizationId, input.connectionId);
  if (!connection) throw notFound("connection", "Connection not found");
  const file = await trx
    .selectFrom("file_uploads")
    .select(["id", "file_name", "user_id"])
    .where("id", "=", input.fileId)
    .where("organization_id", "=", input.organizationId)
    .executeTakeFirst();
  if (!file) throw notFound("file", "File not found");
  return file;
}

/**
 * May this member attach the file? Their own upload, or one the organisation
 * already shares through one of its active connections. Another member's
 * private upload reads as missing, like another organisation's.
 */
async function mayAttach(trx: Db, input: { organizationId: number; userId: number | null }, file: { id: number; user_id: number | null }) {
  if (input.userId !== null && file.user_id === input.userId) return true;
  const shared = await trx
    .selectFrom("organization_connection_files as cf")
    .innerJoin("organization_connections as c", "c.id", "cf.connection_id")
    .select("cf.file_upload_id")
    .where("cf.file_upload_id", "=", file.id)
    .where("c.parent_organization_id", "=", input.organizationId)
    .where("c.is_deleted", "=", 0)
    .executeTakeFirst();
  return shared !== undefined;
}

/** Attaches the member's file (or one the organisation already shares) to one of its connections (attaching twice is one link). */
export async function attachFile(input: {
  organizationId: number;
  userId: number | null;
  connectionId: number;
  fileId: number;
}): Promise<ConnectionData | null> {
  await db()
    .transaction()
    .execute(async (trx) => {
      const file = await fileOfConnection(trx, input);
      if (!(await mayAttach(trx, input, file))) throw notFound("file", "File not found");
      const inserted = await trx
        .insertInto("organization_connection_files")
        .values({ connection_id: input.connectionId, file_upload_id: file.id, created_at: now() })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
        await recordConnectionEvent(
          {
            connectionId: input.connectionId,
            organizationId: input.organizationId,
            userId: input.userId,
            action: "file_attached",
            detail: { fileId: file.id, fileName: file.file_name },
          },
          trx,
        );
      }
    });
  return getConnection({ organizationId: input.organizationId, id: input.connectionId });
}

/** Detaches a file from a connection; the file itself stays in the user's uploads. */
export async function detachFile(input: {
  organizationId: number;
  userId: number | null;
  connectionId: number;
  fileId: number;
}): Promise<ConnectionData | null> {
  await db()
    .transaction()
    .execute(async (trx) => {
      const file = await fileOfConnection(trx, input);
      const removed = await trx
        .deleteFrom("organization_connection_files")
        .where("connection_id", "=", input.connectionId)
        .where("file_upload_id", "=", file.id)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) throw notFound("attachment", "The file is not attached to this connection");
      await recordConnectionEvent(
        {
          connectionId: input.connectionId,
          organizationId: input.organizationId,
          userId: input.userId,
          action: "file_detached",
          detail: { fileId: file.id, fileName: file.file_name },
        },
        trx,
      );
    });
  return getConnection({ organizationId: input.organizationId, id: input.connectionId });
}
