import { refuse } from "~/models/shared/refusal";
import { db, now, type Db } from "@server/db";
import type { DB } from "@server/db-types";
import { hashToken, newToken } from "@server/auth/tokens";
import type { Updateable } from "kysely";
import { canDo, nextStatus, type Actor, type TaskAction, type TaskStatus } from "~/models/tasks/task-states";

/**
 * The one place where a task or survey sent to a supplier is found and changes state (decision 031). Every
 * screen and endpoint of the customer side reads through `customerTask`, the respondent side through `respondentTask`
 * or `linkTask`, so the isolation rules are written once:
 * - a customer sees only what its own organisation sent;
 * - a supplier user sees only what was sent to their own organisation (never cancelled items' answers to change);
 * - a link opens exactly one item, while it has not expired, been revoked, or the item been cancelled.
 * Changes go through `applyAction`, which checks the transition (supplier-task-states.ts), stamps the time, keeps the
 * answer rows' own flags in step and writes the history.
 */

export interface TaskRow {
  id: number;
  organizationId: number;
  supplierOrganizationId: number;
  campaignId: number | null;
  kind: "task" | "survey";
  complianceTaskId: number | null;
  surveyResponseId: number | null;
  title: string;
  recipientEmail: string | null;
  message: string | null;
  dueDate: string | null;
  status: TaskStatus;
  returnComment: string | null;
  answeredByName: string | null;
  sentAt: string;
  openedAt: string | null;
  submittedAt: string | null;
  decidedAt: string | null;
  updatedAt: string;
}

function baseQuery(database: Db) {
  return database
    .selectFrom("supplier_tasks as st")
    .select([
      "st.id",
      "st.organization_id as organizationId",
      "st.supplier_organization_id as supplierOrganizationId",
      "st.campaign_id as campaignId",
      "st.kind",
      "st.compliance_task_id as complianceTaskId",
      "st.survey_response_id as surveyResponseId",
      "st.title",
      "st.recipient_email as recipientEmail",
      "st.message",
      "st.due_date as dueDate",
      "st.status",
      "st.return_comment as returnComment",
      "st.answered_by_name as answeredByName",
      "st.sent_at as sentAt",
      "st.opened_at as openedAt",
      "st.submitted_at as submittedAt",
      "st.decided_at as decidedAt",
      "st.updated_at as updatedAt",
    ]);
}

/** An item the customer organisation sent; undefined for anything else (another organisation's is indistinguishable from none). */
export async function customerTask(input: { organizationId: number; id: number }, database: Db = db()): Promise<TaskRow | undefined> {
  return baseQuery(database).where("st.id", "=", input.id).where("st.organization_id", "=", input.organizationId).executeTakeFirst();
}

/** An item sent to the supplier organisation, from any customer; undefined for anything else. */
export async function respondentTask(input: { supplierOrganizationId: number; id: number }, database: Db = db()): Promise<TaskRow | undefined> {
  return baseQuery(database).where("st.id", "=", input.id).where("st.supplier_organization_id", "=", input.supplierOrganizationId).executeTakeFirst();
}

/** How long a mailed link works (decision 031): long enough for a yearly questionnaire's due date plus its reminders. */
export const LINK_TTL_DAYS = 90;

/** A new link for the item; returns the token, which exists only in the mail (the database keeps its hash). */
export async function createLink(input: { supplierTaskId: number; email: string | null; at?: Date; ttlDays?: number }, database: Db = db()): Promise<string> {
  const token = newToken();
  const at = input.at ?? new Date();
  const expires = new Date(at.getTime() + (input.ttlDays ?? LINK_TTL_DAYS) * 86_400_000);
  await database
    .insertInto("supplier_task_links")
    .values({
      supplier_task_id: input.supplierTaskId,
      token_hash: hashToken(token),
      email: input.email,
      expires_at: expires.toISOString(),
      created_at: at.toISOString(),
    })
    .execute();
  return token;
}

export type LinkRefusal = "unknown" | "expired" | "revoked" | "cancelled";

/**
 * The item a link opens, or why it does not: an unknown token, an expired or revoked link, a cancelled item. The caller
 * shows each refusal as the same page with its own explanation (a link is not a secret worth probing: 256 random bits).
 */
export async function linkTask(
  token: string,
  at: Date = new Date(),
  database: Db = db(),
): Promise<{ task: TaskRow; linkId: number; email: string | null } | { refused: LinkRefusal }> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { refused: "unknown" };
  const link = await database
    .selectFrom("supplier_task_links")
    .select(["id", "supplier_task_id", "email", "expires_at", "revoked_at"])
    .where("token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!link) return { refused: "unknown" };
  if (link.revoked_at) return { refused: "revoked" };
  if (link.expires_at <= at.toISOString()) return { refused: "expired" };
  const task = await baseQuery(database).where("st.id", "=", link.supplier_task_id).executeTakeFirst();
  if (!task) return { refused: "unknown" };
  if (task.status === "cancelled") return { refused: "cancelled" };
  await database.updateTable("supplier_task_links").set({ last_used_at: at.toISOString() }).where("id", "=", link.id).execute();
  return { task, linkId: link.id, email: link.email };
}

/** Revokes every live link of the item (cancelling does it; a customer may do it alone). */
export async function revokeLinks(input: { supplierTaskId: number; at?: Date }, database: Db = db()): Promise<number> {
  const result = await database
    .updateTable("supplier_task_links")
    .set({ revoked_at: (input.at ?? new Date()).toISOString() })
    .where("supplier_task_id", "=", input.supplierTaskId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Who does something: a signed-in user (customer or supplier), or a link's holder named by what they typed or the link's e-mail. */
export interface ActingParty {
  actor: Actor;
  userId: number | null;
  /** Shown in the history: the user's e-mail, or the respondent's name/e-mail given on a link. */
  name: string | null;
}

/** The Refusal of an action the item's state (or the party) does not allow: a conflict, with the action and the state. */
export function transitionRefused(action: TaskAction, status: TaskStatus) {
  return refuse("conflict", "transition-refused", { details: { action, status }, message: `${action} is not possible while the item is ${status}` });
}

/**
 * Applies an action to an item already found through one of the scoped readers above, in the given transaction: checks
 * the transition, sets the status and its time, keeps compliance_tasks.is_submitted / survey_responses.status in step
 * (a returned survey becomes a draft again), and records the event. `remind` only records (the caller mails).
 * Throws a "transition-refused" Refusal when the item's state does not allow it (the caller answers 409 with the state).
 */
export async function applyAction(
  trx: Db,
  task: TaskRow,
  action: TaskAction,
  party: ActingParty,
  extra: { comment?: string | null; at?: Date } = {},
): Promise<TaskStatus> {
  if (!canDo(action, party.actor, task.status)) throw transitionRefused(action, task.status);
  const at = (extra.at ?? new Date()).toISOString();
  const status = nextStatus(action, task.status);
  const set: Updateable<DB["supplier_tasks"]> = { status, updated_at: at };
  if (action === "open") set.opened_at = at;
  if (action === "submit") {
    set.submitted_at = at;
    set.answered_by_user_id = party.userId;
    set.answered_by_name = party.name;
    set.return_comment = null;
  }
  if (action === "accept" || action === "return") set.decided_at = at;
  if (action === "return") set.return_comment = extra.comment ?? null;
  if (action === "cancel") set.cancelled_at = at;
  if (action !== "remind") {
    // Compare-and-set: a concurrent change (two tabs, a customer and a respondent at once) loses cleanly.
    const result = await trx.updateTable("supplier_tasks").set(set).where("id", "=", task.id).where("status", "=", task.status).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw transitionRefused(action, task.status);
  }

  if (task.complianceTaskId !== null && (action === "submit" || action === "return")) {
    await trx
      .updateTable("compliance_tasks")
      .set({ is_submitted: action === "submit" ? 1 : 0, updated_at: at })
      .where("id", "=", task.complianceTaskId)
      .execute();
  }
  if (task.surveyResponseId !== null && (action === "submit" || action === "return" || action === "save")) {
    await trx
      .updateTable("survey_responses")
      .set(action === "submit" ? { status: "submitted", submitted_at: at, updated_at: at } : { status: "draft", updated_at: at })
      .where("id", "=", task.surveyResponseId)
      .execute();
  }
  if (action === "cancel") await revokeLinks({ supplierTaskId: task.id, at: new Date(at) }, trx);

  const kind =
    action === "open"
      ? "opened"
      : action === "save"
        ? "draft_saved"
        : action === "submit"
          ? "submitted"
          : action === "accept"
            ? "accepted"
            : action === "return"
              ? "returned"
              : action === "remind"
                ? "reminded"
                : "cancelled";
  // Saving page after page of a draft is one "draft saved" in the history, not one per page.
  if (!(action === "save" && task.status === "draft")) await recordEvent(trx, { supplierTaskId: task.id, kind, party, detail: extra.comment ?? null, at });
  return status;
}

export async function recordEvent(
  trx: Db,
  input: {
    supplierTaskId: number;
    kind: DB["supplier_task_events"]["kind"];
    party: Pick<ActingParty, "userId" | "name"> | null;
    detail?: string | null;
    at?: string;
  },
): Promise<void> {
  await trx
    .insertInto("supplier_task_events")
    .values({
      supplier_task_id: input.supplierTaskId,
      kind: input.kind,
      user_id: input.party?.userId ?? null,
      actor: input.party?.name ?? null,
      detail: input.detail ?? null,
      created_at: input.at ?? now(),
    })
    .execute();
}

export interface TaskEvent {
  id: number;
  kind: DB["supplier_task_events"]["kind"];
  actor: string | null;
  detail: string | null;
  createdAt: string;
}

/** The item's history, oldest first (the caller has found the item through a scoped reader). */
export async function taskEvents(supplierTaskId: number, database: Db = db()): Promise<TaskEvent[]> {
  const rows = await database
    .selectFrom("supplier_task_events as e")
    .leftJoin("users as u", "u.id", "e.user_id")
    .select(["e.id", "e.kind", "e.actor", "u.email", "e.detail", "e.created_at"])
    .where("e.supplier_task_id", "=", supplierTaskId)
    .orderBy("e.id")
    .execute();
  return rows.map((r) => ({ id: r.id, kind: r.kind, actor: r.actor ?? r.email ?? null, detail: r.detail, createdAt: r.created_at }));
}
