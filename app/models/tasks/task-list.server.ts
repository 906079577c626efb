import { db } from "@server/db";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DB } from "@server/db-types";
import { countedSurveyScore, STATUS_ORDER, type TaskFilters, type TaskKind, type TaskSort } from "~/models/tasks/task-list";
import { displayStatus, OPEN_STATUSES, type StatusFilter, type TaskStatus } from "~/models/tasks/task-states";
import { taskResponseForCustomer, type TaskResponseOut } from "~/models/tasks/tasks-for-supplier.server";
import { mailFreshLink } from "~/models/tasks/campaigns.server";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";
import {
  applyAction,
  createLink,
  customerTask,
  recordEvent,
  revokeLinks,
  taskEvents,
  type ActingParty,
  type TaskEvent,
  type TaskRow,
} from "~/models/tasks/task-workflow.server";

/**
 * What the customer organisation sent (decision 034): the list with its filters, one item with its answer
 * and history, and the per-supplier view of the supplier screen. Every query is filtered by the session's
 * organisation (`st.organization_id`), on the indexes supplier_tasks_org_sent / supplier_tasks_org_supplier.
 */

export interface TaskListItem {
  id: number;
  kind: TaskKind;
  title: string;
  status: TaskStatus;
  /** What the list shows: the status, or "overdue" for an open item past its due date. */
  shownStatus: StatusFilter;
  dueDate: string | null;
  sentAt: string;
  submittedAt: string | null;
  recipientEmail: string | null;
  answeredByName: string | null;
  campaignId: number | null;
  supplier: { id: number; name: string; orgNumber: string | null };
}

type Eb = ExpressionBuilder<DB & { st: DB["supplier_tasks"]; o: DB["organizations"] }, "st" | "o">;

const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

function filterWhere(eb: Eb, organizationId: number, f: TaskFilters, today: string) {
  const conditions: Expression<SqlBool>[] = [eb("st.organization_id", "=", organizationId)];
  if (f.kind) conditions.push(eb("st.kind", "=", f.kind));
  if (f.campaign) conditions.push(eb("st.campaign_id", "=", f.campaign));
  if (f.q) conditions.push(sql<boolean>`o.name like ${likeContains(f.q)} escape '\\'`);
  if (f.tag)
    conditions.push(
      eb.exists(
        eb
          .selectFrom("organization_connections as c")
          .innerJoin("organization_connection_tags as ct", "ct.connection_id", "c.id")
          .select("c.id")
          .whereRef("c.child_organization_id", "=", "st.supplier_organization_id")
          .where("c.parent_organization_id", "=", organizationId)
          .where("c.is_deleted", "=", 0)
          .where("ct.tag_id", "=", f.tag),
      ),
    );
  if (f.status === "overdue") {
    conditions.push(eb("st.status", "in", OPEN_STATUSES), eb("st.due_date", "is not", null), eb("st.due_date", "<", today));
  } else if (f.status && OPEN_STATUSES.includes(f.status)) {
    // An open item past its due date is shown as overdue, so it is not listed under its stored status either.
    conditions.push(eb("st.status", "=", f.status), eb.or([eb("st.due_date", "is", null), eb("st.due_date", ">=", today)]));
  } else if (f.status) {
    conditions.push(eb("st.status", "=", f.status));
  }
  return eb.and(conditions);
}

function listQuery(organizationId: number, filters: TaskFilters, today: string) {
  return db()
    .selectFrom("supplier_tasks as st")
    .innerJoin("organizations as o", "o.id", "st.supplier_organization_id")
    .where((eb) => filterWhere(eb, organizationId, filters, today));
}

/** The position of a row's shown status in STATUS_ORDER, in SQL (overdue derived like displayStatus). */
function statusRank(today: string) {
  const open = sql.join(OPEN_STATUSES.map((s) => sql.lit(s)));
  const whens = STATUS_ORDER.filter((s) => s !== "overdue").map((s) => sql`when ${sql.lit(s)} then ${sql.lit(STATUS_ORDER.indexOf(s))}`);
  return sql<number>`case when st.status in (${open}) and st.due_date is not null and st.due_date < ${today} then ${sql.lit(STATUS_ORDER.indexOf("overdue"))} else case st.status ${sql.join(whens, sql` `)} end end`;
}

export async function countSupplierTasks(input: { organizationId: number; filters: TaskFilters; today: string }): Promise<number> {
  const row = await listQuery(input.organizationId, input.filters, input.today)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listSupplierTasks(input: {
  organizationId: number;
  filters: TaskFilters;
  sort: TaskSort;
  today: string;
  limit: number;
  offset?: number;
}): Promise<TaskListItem[]> {
  let query = listQuery(input.organizationId, input.filters, input.today).select([
    "st.id",
    "st.kind",
    "st.title",
    "st.status",
    "st.due_date",
    "st.sent_at",
    "st.submitted_at",
    "st.recipient_email",
    "st.answered_by_name",
    "st.campaign_id",
    "o.id as supplier_id",
    "o.name as supplier_name",
    "o.org_number as supplier_org_number",
  ]);
  switch (input.sort) {
    case "due":
      query = query.orderBy(sql`st.due_date is null`).orderBy("st.due_date", "asc");
      break;
    case "status":
      query = query.orderBy(statusRank(input.today)).orderBy("st.due_date", "asc");
      break;
    case "supplier":
      query = query.orderBy(sql`o.name collate nocase`).orderBy("st.sent_at", "desc");
      break;
    case "sent":
      query = query.orderBy("st.sent_at", "desc");
      break;
  }
  const rows = await query
    .orderBy("st.id", "desc")
    .limit(input.limit)
    .offset(input.offset ?? 0)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    title: r.title,
    status: r.status,
    shownStatus: displayStatus({ status: r.status, dueDate: r.due_date }, input.today),
    dueDate: r.due_date,
    sentAt: r.sent_at,
    submittedAt: r.submitted_at,
    recipientEmail: r.recipient_email,
    answeredByName: r.answered_by_name,
    campaignId: r.campaign_id,
    supplier: { id: r.supplier_id, name: r.supplier_name, orgNumber: r.supplier_org_number },
  }));
}

/** The campaign's title for the list's heading when it is filtered by one; undefined for another organisation's. */
export async function campaignTitle(input: { organizationId: number; campaignId: number }): Promise<string | undefined> {
  const row = await db()
    .selectFrom("task_campaigns")
    .select("title")
    .where("id", "=", input.campaignId)
    .where("organization_id", "=", input.organizationId)
    .executeTakeFirst();
  return row?.title;
}

export interface TaskDetail {
  task: TaskRow;
  supplier: { id: number; name: string; orgNumber: string | null };
  /** The account that answered (signed in), else null; `task.answeredByName` is what a link's holder typed. */
  answeredByEmail: string | null;
  /** Kind task: the submitted answer (comment and files), null until submitted. */
  taskResponse: TaskResponseOut | null;
  /** Kind survey: the response's template title and score (null: not scored, or not submitted). */
  survey: { responseId: number; title: string; score: number | null; submitted: boolean } | null;
  events: TaskEvent[];
  /** Links that still work (not revoked, not expired). */
  liveLinks: number;
}

/** One item the organisation sent, with its answer and history; undefined for any other id (another organisation's is a 404). */
export async function taskDetail(input: { organizationId: number; id: number; at?: Date }): Promise<TaskDetail | undefined> {
  const task = await customerTask({ organizationId: input.organizationId, id: input.id });
  if (!task) return undefined;
  const at = (input.at ?? new Date()).toISOString();
  const [supplier, answeredBy, events, links] = await Promise.all([
    db().selectFrom("organizations").select(["id", "name", "org_number"]).where("id", "=", task.supplierOrganizationId).executeTakeFirstOrThrow(),
    db()
      .selectFrom("supplier_tasks as st")
      .innerJoin("users as u", "u.id", "st.answered_by_user_id")
      .select("u.email")
      .where("st.id", "=", task.id)
      .executeTakeFirst(),
    taskEvents(task.id),
    db()
      .selectFrom("supplier_task_links")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("supplier_task_id", "=", task.id)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", at)
      .executeTakeFirstOrThrow(),
  ]);
  let taskResponse: TaskResponseOut | null = null;
  let survey: TaskDetail["survey"] = null;
  if (task.complianceTaskId !== null) {
    const response = await db()
      .selectFrom("compliance_task_responses")
      .select("id")
      .where("task_id", "=", task.complianceTaskId)
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (response) taskResponse = await taskResponseForCustomer({ organizationId: input.organizationId, responseId: response.id });
  }
  if (task.surveyResponseId !== null) {
    const row = await db()
      .selectFrom("survey_responses as r")
      .innerJoin("survey_templates as t", "t.id", "r.survey_template_id")
      .select(["r.id", "r.status", "r.score", "t.title"])
      .where("r.id", "=", task.surveyResponseId)
      .where("r.organization_id", "=", input.organizationId)
      .executeTakeFirst();
    if (row) {
      const submitted = row.status === "submitted";
      survey = { responseId: row.id, title: row.title, score: submitted ? row.score : null, submitted };
    }
  }
  return {
    task,
    supplier: { id: supplier.id, name: supplier.name, orgNumber: supplier.org_number },
    answeredByEmail: answeredBy?.email ?? null,
    taskResponse,
    survey,
    events,
    liveLinks: Number(links.n),
  };
}

/** The supplier screen's view of the organisation's items to one supplier: each task's and survey's state, due date and score. */
export interface SupplierScreenItem {
  id: number;
  kind: TaskKind;
  complianceTaskId: number | null;
  surveyResponseId: number | null;
  status: TaskStatus;
  dueDate: string | null;
  submittedAt: string | null;
  recipientEmail: string | null;
  score: number | null;
}

export async function supplierScreenItems(input: { organizationId: number; supplierOrganizationId: number }): Promise<SupplierScreenItem[]> {
  const rows = await db()
    .selectFrom("supplier_tasks as st")
    .leftJoin("survey_responses as r", "r.id", "st.survey_response_id")
    .select([
      "st.id",
      "st.kind",
      "st.compliance_task_id",
      "st.survey_response_id",
      "st.status",
      "st.due_date",
      "st.submitted_at",
      "st.recipient_email",
      "r.score",
      "r.status as response_status",
    ])
    .where("st.organization_id", "=", input.organizationId)
    .where("st.supplier_organization_id", "=", input.supplierOrganizationId)
    .orderBy("st.id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    complianceTaskId: r.compliance_task_id,
    surveyResponseId: r.survey_response_id,
    status: r.status,
    dueDate: r.due_date,
    submittedAt: r.submitted_at,
    recipientEmail: r.recipient_email,
    score: countedSurveyScore(r),
  }));
}

/** The customer accepts a submitted answer or cancels the request (cancelling revokes its links). Throws a "transition-refused" Refusal. */
export async function decideItem(input: { task: TaskRow; action: "accept" | "cancel"; party: ActingParty; at?: Date }): Promise<void> {
  await db()
    .transaction()
    .execute((trx) => applyAction(trx, input.task, input.action, input.party, { at: input.at }));
}

/**
 * The customer returns a submitted answer for rework with a comment: the transition (applyAction, in a transaction with
 * a fresh link for the recipient), then — after the commit, like the campaign job — the "returned" mail with the comment
 * and the new link. Throws a "transition-refused" Refusal when the item is not submitted. Returns whether a mail was sent.
 */
export async function returnItem(input: { task: TaskRow; party: ActingParty; comment: string; origin: string; at?: Date }): Promise<boolean> {
  const { task } = input;
  const at = input.at ?? new Date();
  // The person who answered gets it back: the supplier's user who submitted it, else the address it was sent to.
  const answerer = await db()
    .selectFrom("supplier_tasks as st")
    .innerJoin("users as u", "u.id", "st.answered_by_user_id")
    .select("u.email")
    .where("st.id", "=", task.id)
    .where("u.deactivated_at", "is", null)
    .executeTakeFirst();
  const to = answerer?.email ?? task.recipientEmail;
  const token = await db()
    .transaction()
    .execute(async (trx) => {
      await applyAction(trx, task, "return", input.party, { comment: input.comment, at });
      return to ? createLink({ supplierTaskId: task.id, email: to, at }, trx) : null;
    });
  // A returned survey's score no longer counts (decision 034): the self-assessment line and the overall risk change.
  if (task.kind === "survey") await recomputeOverallRisk({ organizationId: task.organizationId, childOrganizationIds: [task.supplierOrganizationId] });
  if (!token || !to) return false;
  await mailFreshLink({ kind: "returned", task, to, token, at, returnComment: input.comment, fallbackOrigin: input.origin });
  return true;
}

/** Revokes the item's working links and writes it in the history; returns how many were revoked (0: nothing recorded). */
export async function revokeItemLinks(input: { task: TaskRow; party: ActingParty; at?: Date }): Promise<number> {
  const at = input.at ?? new Date();
  return db()
    .transaction()
    .execute(async (trx) => {
      const count = await revokeLinks({ supplierTaskId: input.task.id, at }, trx);
      if (count > 0) await recordEvent(trx, { supplierTaskId: input.task.id, kind: "link_revoked", party: input.party, at: at.toISOString() });
      return count;
    });
}
