import { db, now, type Db } from "@server/db";

/** What can happen to a connection; each change is one audit row. */
export type ConnectionAction =
  | "created"
  | "contact_email"
  | "is_priority"
  | "is_due_diligence"
  | "deleted"
  | "tag_added"
  | "tag_removed"
  | "tag_created"
  | "comment_added"
  | "comment_deleted"
  | "file_attached"
  | "file_detached"
  /** Created by confirming a supplier-list import (detail: importId, orgNumber, fileName). */
  | "imported";

/** Records a change; call it inside the transaction that makes the change. */
export async function recordConnectionEvent(
  input: { connectionId: number; organizationId: number; userId: number | null; action: ConnectionAction; detail?: Record<string, unknown> },
  database: Db = db(),
): Promise<void> {
  await database
    .insertInto("connection_events")
    .values({
      connection_id: input.connectionId,
      organization_id: input.organizationId,
      user_id: input.userId,
      action: input.action,
      detail: input.detail ? JSON.stringify(input.detail) : null,
      created_at: now(),
    })
    .execute();
}

/** A connection's history, newest first (for its own organisation only). */
export async function connectionHistory(input: { organizationId: number; connectionId: number }) {
  return db()
    .selectFrom("connection_events")
    .leftJoin("users", "users.id", "connection_events.user_id")
    .select(["connection_events.id", "connection_events.action", "connection_events.detail", "connection_events.created_at", "users.email"])
    .where("connection_events.organization_id", "=", input.organizationId)
    .where("connection_events.connection_id", "=", input.connectionId)
    .orderBy("connection_events.created_at", "desc")
    .orderBy("connection_events.id", "desc")
    .execute();
}
