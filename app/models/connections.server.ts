import type { Transaction } from "kysely";
import { z } from "zod";
import { db, now } from "@server/db";
import { apiError } from "@server/http";
import type { DB } from "@server/db-types";
import { recordConnectionEvent } from "./connection-audit.server";
import { findCompany } from "./registry.server";

/**
 * A supplier connection: the session's organisation following a supplier
 * organisation, with its flags, contact email, tags, comments and attached
 * files. Every function takes the organisation id from the caller's session
 * and never reads or changes another organisation's rows; every change is
 * recorded in the audit trail inside the transaction that makes it.
 */

/** The spec's shape of an organisation connection (spec 02 §3). */
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

/** A refused change: 400 for bad input, 404 for an id that is not the organisation's. */
export class ConnectionError extends Error {
  constructor(
    readonly status: 400 | 403 | 404,
    message: string,
  ) {
    super(message);
    this.name = "ConnectionError";
  }
}

const ids = z.array(z.number().int().positive()).min(1, "Choose at least one").max(100);
const title = z.string().trim().min(1, "A tag title must not be empty").max(100);

/** One change of PATCH /api/organization-connections/{id} (spec 02 §7): exactly one key. */
export const connectionChangeSchema = z.union([
  z.strictObject({ contact_email: z.union([z.email("Enter a valid email address").max(254), z.literal("").transform(() => null), z.null()]) }),
  z.strictObject({ is_priority: z.boolean() }),
  z.strictObject({ is_due_diligence: z.boolean() }),
  z.strictObject({ is_deleted: z.literal(true) }),
  z.strictObject({ removeTagIds: ids }),
  z.strictObject({ addTagIds: ids }),
  z.strictObject({ newTags: z.array(title).min(1, "Enter a tag title").max(20) }),
  z.strictObject({ newComment: z.string().trim().min(1, "A comment must not be empty").max(5000) }),
]);

export type ConnectionChange = z.infer<typeof connectionChangeSchema>;

/** Parses an API body: an object with exactly one known key and a valid value, else a ConnectionError 400. */
export function parseConnectionChange(body: unknown): ConnectionChange {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new ConnectionError(400, "The body must be a JSON object");
  const keys = Object.keys(body);
  if (keys.length !== 1)
    throw new ConnectionError(
      400,
      "Send exactly one of contact_email, is_priority, is_due_diligence, is_deleted, removeTagIds, addTagIds, newTags, newComment",
    );
  const parsed = connectionChangeSchema.safeParse(body);
  if (!parsed.success) {
    const known = ["contact_email", "is_priority", "is_due_diligence", "is_deleted", "removeTagIds", "addTagIds", "newTags", "newComment"];
    if (!known.includes(keys[0])) throw new ConnectionError(400, `Unknown field: ${keys[0]}`);
    // The union reports every branch; the one named by the key is the one that matters.
    const issue = parsed.error.issues.flatMap((i) => (i.code === "invalid_union" ? i.errors.flat() : [i])).find((i) => i.path[0] === keys[0]);
    throw new ConnectionError(400, `${keys[0]}: ${issue?.message ?? "invalid value"}`);
  }
  return parsed.data;
}

type Database = ReturnType<typeof db> | Transaction<DB>;

async function activeConnectionRow(database: Database, organizationId: number, id: number) {
  return database
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .select(["c.id", "c.child_organization_id", "c.created_at", "c.contact_email", "c.is_priority", "c.is_due_diligence", "c.is_deleted", "o.name"])
    .where("c.id", "=", id)
    .where("c.parent_organization_id", "=", organizationId)
    .where("c.is_deleted", "=", 0)
    .executeTakeFirst();
}

/** One connection of the organisation in the spec's shape; null for another organisation's id or a soft-deleted one. */
export async function getConnection(input: { organizationId: number; id: number }, database: Database = db()): Promise<ConnectionData | null> {
  const row = await activeConnectionRow(database, input.organizationId, input.id);
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
  const row = await db()
    .selectFrom("organization_connections")
    .select("id")
    .where("parent_organization_id", "=", input.organizationId)
    .where("child_organization_id", "=", input.supplierOrganizationId)
    .where("is_deleted", "=", 0)
    .executeTakeFirst();
  return row ? getConnection({ organizationId: input.organizationId, id: row.id }) : null;
}

/**
 * Adds a registry company to the organisation's suppliers: the local supplier
 * organisation is created from the registry when missing, then the connection.
 * Adding one that is already a supplier returns the existing connection.
 */
export async function addSupplier(input: { organizationId: number; userId: number | null; orgNumber: string }): Promise<ConnectionData> {
  const orgNumber = input.orgNumber.replace(/\s/g, "");
  const company = orgNumber ? await findCompany(orgNumber) : undefined;
  if (!company) throw new ConnectionError(404, "No company with that organisation number");
  const id = await db()
    .transaction()
    .execute(async (trx) => {
      let local = await trx.selectFrom("organizations").select("id").where("org_number", "=", company.org_number).orderBy("id", "asc").executeTakeFirst();
      if (!local) {
        local = await trx
          .insertInto("organizations")
          .values({ name: company.legal_name, kind: "supplier", org_number: company.org_number, country_code: company.country_code, created_at: now() })
          .returning("id")
          .executeTakeFirstOrThrow();
      }
      if (local.id === input.organizationId) throw new ConnectionError(400, "An organisation cannot be its own supplier");
      const existing = await trx
        .selectFrom("organization_connections")
        .select("id")
        .where("parent_organization_id", "=", input.organizationId)
        .where("child_organization_id", "=", local.id)
        .where("is_deleted", "=", 0)
        .executeTakeFirst();
      if (existing) return existing.id;
      const at = now();
      const created = await trx
        .insertInto("organization_connections")
        .values({ parent_organization_id: input.organizationId, child_organization_id: local.id, created_at: at, updated_at: at })
        .returning("id")
        .executeTakeFirstOrThrow();
      await recordConnectionEvent(
        { connectionId: created.id, organizationId: input.organizationId, userId: input.userId, action: "created", detail: { orgNumber: company.org_number } },
        trx,
      );
      return created.id;
    });
  const connection = await getConnection({ organizationId: input.organizationId, id });
  if (!connection) throw new ConnectionError(404, "Connection not found");
  return connection;
}

async function organizationTagIds(trx: Transaction<DB>, organizationId: number, tagIds: number[]): Promise<Array<{ id: number; title: string }>> {
  const unique = [...new Set(tagIds)];
  const rows = await trx
    .selectFrom("organization_tags")
    .select(["id", "title"])
    .where("organization_id", "=", organizationId)
    .where("id", "in", unique)
    .execute();
  if (rows.length !== unique.length) throw new ConnectionError(404, "Tag not found");
  return rows;
}

async function linkTags(
  trx: Transaction<DB>,
  input: { organizationId: number; userId: number | null; connectionId: number },
  tags: Array<{ id: number; title: string }>,
) {
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
      if (!row) throw new ConnectionError(404, "Connection not found");
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
  return getConnection({ organizationId, id });
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
      if (!comment) throw new ConnectionError(404, "Comment not found");
      if (comment.user_id !== input.user.id && !input.user.isAdmin)
        throw new ConnectionError(403, "Only the author or an administrator can delete this comment");
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

async function fileOfConnection(trx: Transaction<DB>, input: { organizationId: number; connectionId: number; fileId: number }) {
  const connection = await activeConnectionRow(trx, input.organizationId, input.connectionId);
  if (!connection) throw new ConnectionError(404, "Connection not found");
  const file = await trx
    .selectFrom("file_uploads")
    .select(["id", "file_name"])
    .where("id", "=", input.fileId)
    .where("organization_id", "=", input.organizationId)
    .executeTakeFirst();
  if (!file) throw new ConnectionError(404, "File not found");
  return file;
}

/** Attaches one of the organisation's files to one of its connections (attaching twice is one link). */
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
      if (Number(removed.numDeletedRows) === 0) throw new ConnectionError(404, "The file is not attached to this connection");
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

/** Runs an API change and maps a refused one to its JSON error answer. */
export async function apiAnswer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConnectionError) throw apiError(error.status, error.message);
    throw error;
  }
}

const formId = (name: string) =>
  z.coerce
    .number({ error: `Choose a ${name}` })
    .int(`Choose a ${name}`)
    .positive(`Choose a ${name}`);

/** The forms of the supplier screen's connection card, slide-over and tag dialog: one schema per `intent`. */
export const connectionIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add-supplier") }),
  z.object({
    intent: z.literal("save"),
    is_priority: z.literal("on").optional(),
    is_due_diligence: z.literal("on").optional(),
    contact_email: z.email("Enter a valid email address").max(254).optional(),
  }),
  z.object({ intent: z.literal("remove-tag"), tagId: formId("tag") }),
  z.object({ intent: z.literal("add-tag"), tagId: formId("tag") }),
  z.object({ intent: z.literal("create-tag"), title: z.string({ error: "Enter a tag title" }).trim().min(1, "Enter a tag title").max(100) }),
  z.object({ intent: z.literal("add-comment"), text: z.string({ error: "Write a comment" }).trim().min(1, "Write a comment").max(5000) }),
  z.object({ intent: z.literal("delete-comment"), commentId: formId("comment") }),
  z.object({ intent: z.literal("attach-file"), fileId: formId("file") }),
  z.object({ intent: z.literal("detach-file"), fileId: formId("file") }),
  z.object({ intent: z.literal("delete-connection") }),
  z.object({ intent: z.literal("delete-tag"), tagId: formId("tag") }),
]);

export type ConnectionIntent = z.infer<typeof connectionIntentSchema>;
export const CONNECTION_INTENTS: ReadonlyArray<ConnectionIntent["intent"]> = connectionIntentSchema.options.map((o) => o.shape.intent.value);

/**
 * Runs one form intent of the supplier screen for the organisation's
 * connection to the company `orgNumber`. Throws ConnectionError when refused.
 */
export async function runConnectionIntent(input: {
  organizationId: number;
  user: { id: number; isAdmin: boolean };
  orgNumber: string;
  intent: ConnectionIntent;
}): Promise<void> {
  const { organizationId, user, intent } = input;
  const userId = user.id;
  if (intent.intent === "add-supplier") {
    await addSupplier({ organizationId, userId, orgNumber: input.orgNumber });
    return;
  }
  if (intent.intent === "delete-tag") {
    const { deleteTag } = await import("./tags.server");
    await deleteTag({ organizationId, userId, tagId: intent.tagId });
    return;
  }
  if (intent.intent === "delete-comment") {
    await deleteComment({ organizationId, user, commentId: intent.commentId });
    return;
  }
  const row = await db()
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .select("c.id")
    .where("c.parent_organization_id", "=", organizationId)
    .where("c.is_deleted", "=", 0)
    .where("o.org_number", "=", input.orgNumber.replace(/\s/g, ""))
    .executeTakeFirst();
  if (!row) throw new ConnectionError(404, "Connection not found");
  const id = row.id;
  const change = (c: ConnectionChange) => updateConnection({ organizationId, userId, id, change: c });
  switch (intent.intent) {
    case "save": {
      const current = await getConnection({ organizationId, id });
      if (!current) throw new ConnectionError(404, "Connection not found");
      // Only what changed is saved, so the audit trail shows real changes.
      const priority = intent.is_priority === "on";
      const dueDiligence = intent.is_due_diligence === "on";
      const email = intent.contact_email?.trim() || null;
      if (priority !== current.is_priority) await change({ is_priority: priority });
      if (dueDiligence !== current.is_due_diligence) await change({ is_due_diligence: dueDiligence });
      if (email !== current.contact_email) await change({ contact_email: email });
      return;
    }
    case "remove-tag":
      await change({ removeTagIds: [intent.tagId] });
      return;
    case "add-tag":
      await change({ addTagIds: [intent.tagId] });
      return;
    case "create-tag":
      await change({ newTags: [intent.title] });
      return;
    case "add-comment":
      await change({ newComment: intent.text });
      return;
    case "attach-file":
      await attachFile({ organizationId, userId, connectionId: id, fileId: intent.fileId });
      return;
    case "detach-file":
      await detachFile({ organizationId, userId, connectionId: id, fileId: intent.fileId });
      return;
    case "delete-connection":
      await change({ is_deleted: true });
      return;
  }
}
