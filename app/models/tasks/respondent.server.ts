import { refuse } from "~/models/shared/refusal";
import type { Readable } from "node:stream";
import { db, now } from "@server/db";
import type { DB } from "@server/db-types";
import type { Transaction, Updateable } from "kysely";
import { deleteStoredFile, saveFile } from "@server/storage";
import { renderMarkdown } from "~/models/shared/markdown";
import { parseDefinition } from "~/models/tasks/survey-definition-schema";
import type { Answers, SurveyDefinition, SurveyLanguage } from "~/models/tasks/survey-definition";
import { displayStatus, isOpen, osloDate, type StatusFilter, type TaskStatus } from "~/models/tasks/task-states";
import { applyAction, linkTask, respondentTask, type ActingParty, type LinkRefusal, type TaskRow } from "~/models/tasks/task-workflow.server";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";

/**
 * The respondent side of tasks and surveys (decisions 031 and 033): what a supplier organisation must answer,
 * found either through the signed-in user's organisation (`respondentTask`) or through a mailed link (`linkTask`), and
 * the answer's reads and writes. Every function here takes an item already found through one of those two readers, so
 * nothing reaches an item of another organisation. The respondent never sees the customer's comments, tags or risk data:
 * only the item itself, its template and their own answer.
 */

/* ---------------- finding the item ---------------- */

export type RespondentKind = "task" | "survey";

/** How the respondent came: signed in (a member of the supplier organisation) or by a link. */
export type Access = { mode: "user"; task: TaskRow; userId: number; email: string } | { mode: "link"; task: TaskRow; token: string; email: string | null };

/** An item sent to the user's organisation, by the id in its URL (a compliance_tasks id or a survey response id). */
export async function respondentItem(input: { supplierOrganizationId: number; kind: RespondentKind; answerId: number }): Promise<TaskRow | undefined> {
  const row = await db()
    .selectFrom("supplier_tasks")
    .select("id")
    .where(input.kind === "task" ? "compliance_task_id" : "survey_response_id", "=", input.answerId)
    .where("supplier_organization_id", "=", input.supplierOrganizationId)
    .executeTakeFirst();
  if (!row) return undefined;
  // A cancelled one too: the page says that there is nothing more to answer.
  return respondentTask({ supplierOrganizationId: input.supplierOrganizationId, id: row.id });
}

/** The item a link opens on the URL it was used on: a link for another item (or another kind) is an unknown link. */
export async function linkItem(
  token: string,
  kind: RespondentKind,
  answerId: number,
): Promise<{ task: TaskRow; email: string | null } | { refused: LinkRefusal }> {
  const found = await linkTask(token);
  if ("refused" in found) return found;
  const id = kind === "task" ? found.task.complianceTaskId : found.task.surveyResponseId;
  if (found.task.kind !== kind || id !== answerId) return { refused: "unknown" };
  return { task: found.task, email: found.email };
}

/** Who acts, for the history and the "answered by" the customer sees. */
export function actingParty(access: Access, given?: { name: string; email: string | null }): ActingParty {
  if (access.mode === "user") return { actor: "respondent", userId: access.userId, name: access.email };
  const name = given ? (given.email ? `${given.name} (${given.email})` : given.name) : access.email;
  return { actor: "respondent", userId: null, name };
}

/** Opening records "opened", once (a concurrent first opening loses cleanly). */
export async function markOpened(access: Access): Promise<void> {
  if (access.task.status !== "sent") return;
  await db()
    .transaction()
    .execute((trx) => applyAction(trx, access.task, "open", actingParty(access)))
    .catch(() => undefined);
}

/* ---------------- the lists ---------------- */

export interface RespondentListItem {
  id: number;
  kind: RespondentKind;
  title: string;
  customerName: string;
  status: TaskStatus;
  displayStatus: StatusFilter;
  dueDate: string | null;
  submittedAt: string | null;
  href: string;
}

export function respondentHref(item: { kind: RespondentKind; complianceTaskId: number | null; surveyResponseId: number | null }): string {
  return item.kind === "task" ? `/tasks/${item.complianceTaskId}` : `/tasks/surveys/${item.surveyResponseId}`;
}

/**
 * What the organisation must answer, from every customer that asked: open items first (overdue first, then by due date,
 * undated last), then submitted and accepted ones (latest first). Cancelled items are gone from the list.
 */
export async function respondentList(input: { supplierOrganizationId: number; kind?: RespondentKind; today?: string }): Promise<RespondentListItem[]> {
  const today = input.today ?? osloDate(new Date());
  let query = db()
    .selectFrom("supplier_tasks as st")
    .innerJoin("organizations as c", "c.id", "st.organization_id")
    .select([
      "st.id",
      "st.kind",
      "st.title",
      "st.status",
      "st.due_date",
      "st.submitted_at",
      "st.compliance_task_id",
      "st.survey_response_id",
      "c.name as customer_name",
    ])
    .where("st.supplier_organization_id", "=", input.supplierOrganizationId)
    .where("st.status", "!=", "cancelled");
  if (input.kind) query = query.where("st.kind", "=", input.kind);
  const rows = await query.orderBy("st.id", "desc").limit(1000).execute();
  const items = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    title: r.title,
    customerName: r.customer_name,
    status: r.status,
    displayStatus: displayStatus({ status: r.status, dueDate: r.due_date }, today),
    dueDate: r.due_date,
    submittedAt: r.submitted_at,
    href: respondentHref({ kind: r.kind, complianceTaskId: r.compliance_task_id, surveyResponseId: r.survey_response_id }),
  }));
  return sortRespondentList(items);
}

/** The list's order (pure; exported for its test). */
export function sortRespondentList<
  T extends { status: TaskStatus; displayStatus: StatusFilter; dueDate: string | null; submittedAt: string | null; id: number },
>(items: T[]): T[] {
  const rank = (i: T) => (isOpen(i.status) ? (i.displayStatus === "overdue" ? 0 : 1) : 2);
  return [...items].sort((a, b) => {
    const r = rank(a) - rank(b);
    if (r !== 0) return r;
    if (rank(a) < 2) {
      if (a.dueDate !== b.dueDate) return a.dueDate === null ? 1 : b.dueDate === null ? -1 : a.dueDate < b.dueDate ? -1 : 1;
      return a.id - b.id;
    }
    return (b.submittedAt ?? "").localeCompare(a.submittedAt ?? "") || b.id - a.id;
  });
}

export interface SupplierStatusRow {
  supplierOrganizationId: number;
  name: string;
  orgNumber: string | null;
  counts: Partial<Record<StatusFilter, number>>;
  total: number;
}

export interface CampaignRow {
  id: number;
  kind: RespondentKind;
  title: string;
  dueDate: string | null;
  sentAt: string | null;
  sent: number;
  done: number;
  /** Submitted and accepted over sent, 0–100, rounded; null when nothing was sent. */
  rate: number | null;
}

/** The customer's overview: the state of what it sent, per supplier (overdue first) and per campaign (completion). */
export async function customerOverview(input: {
  organizationId: number;
  today?: string;
}): Promise<{ suppliers: SupplierStatusRow[]; campaigns: CampaignRow[] }> {
  const today = input.today ?? osloDate(new Date());
  const rows = await db()
    .selectFrom("supplier_tasks as st")
    .innerJoin("organizations as s", "s.id", "st.supplier_organization_id")
    .select(["st.supplier_organization_id", "st.status", "st.due_date", "st.campaign_id", "s.name", "s.org_number"])
    .where("st.organization_id", "=", input.organizationId)
    .execute();
  const bySupplier = new Map<number, SupplierStatusRow>();
  const byCampaign = new Map<number, { sent: number; done: number }>();
  for (const r of rows) {
    const status = displayStatus({ status: r.status, dueDate: r.due_date }, today);
    const row = bySupplier.get(r.supplier_organization_id) ?? {
      supplierOrganizationId: r.supplier_organization_id,
      name: r.name,
      orgNumber: r.org_number,
      counts: {},
      total: 0,
    };
    row.counts[status] = (row.counts[status] ?? 0) + 1;
    row.total += 1;
    bySupplier.set(r.supplier_organization_id, row);
    if (r.campaign_id !== null) {
      const c = byCampaign.get(r.campaign_id) ?? { sent: 0, done: 0 };
      c.sent += 1;
      if (r.status === "submitted" || r.status === "accepted") c.done += 1;
      byCampaign.set(r.campaign_id, c);
    }
  }
  const suppliers = [...bySupplier.values()].sort((a, b) => (b.counts.overdue ?? 0) - (a.counts.overdue ?? 0) || a.name.localeCompare(b.name));
  const campaignRows = await db()
    .selectFrom("task_campaigns")
    .select(["id", "kind", "title", "due_date", "sent_at"])
    .where("organization_id", "=", input.organizationId)
    .orderBy("id", "desc")
    .limit(200)
    .execute();
  const campaigns = campaignRows.map((c) => {
    const n = byCampaign.get(c.id) ?? { sent: 0, done: 0 };
    return {
      id: c.id,
      kind: c.kind,
      title: c.title,
      dueDate: c.due_date,
      sentAt: c.sent_at,
      sent: n.sent,
      done: n.done,
      rate: n.sent === 0 ? null : Math.round((n.done / n.sent) * 100),
    };
  });
  return { suppliers, campaigns };
}

/* ---------------- the item's header ---------------- */

export interface ItemHeader {
  kind: RespondentKind;
  title: string;
  customerName: string;
  /** The customer's message to the supplier with the request (addressed to them; never the customer's internal comments). */
  message: string | null;
  status: TaskStatus;
  displayStatus: StatusFilter;
  dueDate: string | null;
  returnComment: string | null;
  submittedAt: string | null;
  answeredByName: string | null;
  editable: boolean;
}

export async function itemHeader(task: TaskRow, today = osloDate(new Date())): Promise<ItemHeader> {
  const customer = await db().selectFrom("organizations").select("name").where("id", "=", task.organizationId).executeTakeFirst();
  return {
    kind: task.kind,
    title: task.title,
    customerName: customer?.name ?? "",
    message: task.message,
    status: task.status,
    displayStatus: displayStatus(task, today),
    dueDate: task.dueDate,
    returnComment: task.status === "returned" ? task.returnComment : null,
    submittedAt: task.submittedAt,
    answeredByName: task.answeredByName,
    editable: isOpen(task.status),
  };
}

/* ---------------- a task's answer ---------------- */

export interface FileRef {
  id: number;
  fileName: string;
  fileSize: number;
}

export interface TaskAnswerView {
  descriptionHtml: string | null;
  templateFile: FileRef | null;
  comment: string;
  files: FileRef[];
}

export async function taskAnswer(task: TaskRow, language: SurveyLanguage): Promise<TaskAnswerView> {
  const row = await db()
    .selectFrom("compliance_tasks as t")
    .leftJoin("compliance_task_templates as tpl", "tpl.id", "t.template_id")
    .leftJoin("file_uploads as f", "f.id", "tpl.template_file_id")
    .select(["tpl.description", "tpl.description_no", "f.id as file_id", "f.file_name", "f.file_size"])
    .where("t.id", "=", task.complianceTaskId!)
    .where("t.supplier_organization_id", "=", task.supplierOrganizationId)
    .executeTakeFirst();
  const description = (language === "no" ? row?.description_no || row?.description : row?.description || row?.description_no) ?? null;
  const response = await taskResponse(task);
  const files = response ? await responseFiles(response.id) : [];
  return {
    descriptionHtml: description ? renderMarkdown(description) : null,
    templateFile: row?.file_id != null && row.file_name != null ? { id: row.file_id, fileName: row.file_name, fileSize: row.file_size ?? 0 } : null,
    comment: response?.comment ?? "",
    files,
  };
}

function taskResponse(task: TaskRow) {
  return db().selectFrom("compliance_task_responses").select(["id", "comment"]).where("task_id", "=", task.complianceTaskId!).orderBy("id").executeTakeFirst();
}

function responseFiles(responseId: number): Promise<FileRef[]> {
  return db()
    .selectFrom("compliance_task_response_files as rf")
    .innerJoin("file_uploads as f", "f.id", "rf.file_upload_id")
    .select(["f.id", "f.file_name as fileName", "f.file_size as fileSize"])
    .where("rf.response_id", "=", responseId)
    .orderBy("f.id")
    .execute();
}

async function ensureTaskResponse(task: TaskRow, userId: number | null): Promise<number> {
  const existing = await taskResponse(task);
  if (existing) return existing.id;
  const at = now();
  const row = await db()
    .insertInto("compliance_task_responses")
    .values({ task_id: task.complianceTaskId!, responder_user_id: userId, comment: null, created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

function assertEditable(task: TaskRow) {
  // No longer open for the respondent (submitted, accepted, cancelled meanwhile).
  if (!isOpen(task.status)) throw refuse("conflict", "not-editable", { details: { status: task.status } });
}

/** Saves the comment (and records "draft saved"); `submit` also submits, as the given party. */
export async function saveTaskAnswer(access: Access, input: { comment: string; submit: boolean; party: ActingParty }): Promise<void> {
  assertEditable(access.task);
  const responseId = await ensureTaskResponse(access.task, access.mode === "user" ? access.userId : null);
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable("compliance_task_responses")
        .set({ comment: input.comment || null, updated_at: now(), ...(access.mode === "user" ? { responder_user_id: access.userId } : {}) })
        .where("id", "=", responseId)
        .execute();
      await applyAction(trx, access.task, input.submit ? "submit" : "save", input.party);
    });
}

/** Stores an uploaded file (owned by the supplier organisation) and attaches it to the task's answer. */
export async function storeRespondentFile(access: Access, file: { fileName: string; contentType: string; data: Readable | Uint8Array }): Promise<FileRef> {
  assertEditable(access.task);
  const stored = await saveFile(file.data, {
    fileName: file.fileName,
    mimeType: file.contentType,
    organizationId: access.task.supplierOrganizationId,
    userId: access.mode === "user" ? access.userId : null,
  });
  return { id: stored.id, fileName: stored.fileName, fileSize: stored.fileSize };
}

export async function attachTaskFile(access: Access, fileId: number): Promise<void> {
  assertEditable(access.task);
  const responseId = await ensureTaskResponse(access.task, access.mode === "user" ? access.userId : null);
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto("compliance_task_response_files").values({ response_id: responseId, file_upload_id: fileId }).execute();
      await applyAction(trx, access.task, "save", actingParty(access));
    });
}

/** Removes a file of the answer (and its bytes); false when the file is not part of this answer. */
export async function removeTaskFile(access: Access, fileId: number): Promise<boolean> {
  assertEditable(access.task);
  const response = await taskResponse(access.task);
  if (!response) return false;
  return removeAnswerFile("compliance_task_response_files", { responseId: response.id, fileId, supplierOrganizationId: access.task.supplierOrganizationId });
}

/**
 * Removes one file of an answer: its link (`compliance_task_response_files` or `survey_response_files`, both keyed by
 * response and file), its row and its bytes. False when the file is not part of that answer or not the supplier's.
 */
async function removeAnswerFile(
  table: "compliance_task_response_files" | "survey_response_files",
  input: { responseId: number; fileId: number; supplierOrganizationId: number },
): Promise<boolean> {
  // Both link tables have the same two key columns; one name stands for both in the query's types.
  const links = table as "survey_response_files";
  const file = await db()
    .selectFrom(`${links} as rf`)
    .innerJoin("file_uploads as f", "f.id", "rf.file_upload_id")
    .select(["f.id", "f.storage_key"])
    .where("rf.response_id", "=", input.responseId)
    .where("f.id", "=", input.fileId)
    .where("f.organization_id", "=", input.supplierOrganizationId)
    .executeTakeFirst();
  if (!file) return false;
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom(links).where("response_id", "=", input.responseId).where("file_upload_id", "=", file.id).execute();
      await trx.deleteFrom("file_uploads").where("id", "=", file.id).execute();
    });
  await deleteStoredFile(file.storage_key).catch(() => undefined);
  return true;
}

/** Drops a stored upload that could not be attached (the form was refused after the file was written). */
export async function discardUpload(fileId: number): Promise<void> {
  const file = await db().selectFrom("file_uploads").select("storage_key").where("id", "=", fileId).executeTakeFirst();
  if (!file) return;
  await db().deleteFrom("file_uploads").where("id", "=", fileId).execute();
  await deleteStoredFile(file.storage_key).catch(() => undefined);
}

/** A file the respondent may download on this item: the task template's file, or a file of this item's answer. */
export async function downloadableTaskFile(
  task: TaskRow,
  fileId: number,
): Promise<{ storageKey: string; fileName: string; mimeType: string; fileSize: number } | undefined> {
  if (task.kind === "task") {
    const template = await db()
      .selectFrom("compliance_tasks as t")
      .innerJoin("compliance_task_templates as tpl", "tpl.id", "t.template_id")
      .select("tpl.template_file_id")
      .where("t.id", "=", task.complianceTaskId!)
      .executeTakeFirst();
    const response = await taskResponse(task);
    const attached = response
      ? await db()
          .selectFrom("compliance_task_response_files")
          .select("file_upload_id")
          .where("response_id", "=", response.id)
          .where("file_upload_id", "=", fileId)
          .executeTakeFirst()
      : undefined;
    if (template?.template_file_id !== fileId && !attached) return undefined;
  } else {
    const evidence = await db()
      .selectFrom("survey_response_files")
      .select("file_upload_id")
      .where("response_id", "=", task.surveyResponseId!)
      .where("file_upload_id", "=", fileId)
      .executeTakeFirst();
    if (!evidence) return undefined;
  }
  const file = await db().selectFrom("file_uploads").select(["storage_key", "file_name", "mime_type", "file_size"]).where("id", "=", fileId).executeTakeFirst();
  return file ? { storageKey: file.storage_key, fileName: file.file_name, mimeType: file.mime_type, fileSize: file.file_size } : undefined;
}

/* ---------------- a survey's answer ---------------- */

export interface EvidenceFile extends FileRef {
  questionId: string;
  expiresOn: string | null;
}

export interface SurveyState {
  definition: SurveyDefinition;
  answers: Answers;
  files: EvidenceFile[];
  fileCounts: Record<string, number>;
  score: number | null;
}

export async function surveyState(task: TaskRow): Promise<SurveyState | undefined> {
  const row = await db()
    .selectFrom("survey_responses as r")
    .innerJoin("survey_template_versions as v", "v.id", "r.template_version_id")
    .select(["r.answers", "r.score", "v.definition"])
    .where("r.id", "=", task.surveyResponseId!)
    .where("r.supplier_organization_id", "=", task.supplierOrganizationId)
    .executeTakeFirst();
  if (!row) return undefined;
  let definition: SurveyDefinition;
  try {
    definition = parseDefinition(row.definition);
  } catch {
    return undefined;
  }
  let answers: Answers = {};
  try {
    const raw = JSON.parse(row.answers) as unknown;
    if (raw && typeof raw === "object" && !Array.isArray(raw)) answers = raw as Answers;
  } catch {
    answers = {};
  }
  const files = await db()
    .selectFrom("survey_response_files as rf")
    .innerJoin("file_uploads as f", "f.id", "rf.file_upload_id")
    .select(["f.id", "f.file_name as fileName", "f.file_size as fileSize", "rf.question_id as questionId", "rf.expires_on as expiresOn"])
    .where("rf.response_id", "=", task.surveyResponseId!)
    .orderBy("f.id")
    .execute();
  const fileCounts: Record<string, number> = {};
  for (const f of files) fileCounts[f.questionId] = (fileCounts[f.questionId] ?? 0) + 1;
  return { definition, answers, files, fileCounts, score: row.score };
}

/**
 * One change of a survey's answer row and its workflow step, in one transaction (`before` adds what goes with it, such as
 * an evidence file's link).
 */
async function changeSurvey(
  access: Access,
  set: Updateable<DB["survey_responses"]>,
  action: "save" | "submit",
  party: ActingParty,
  before?: (trx: Transaction<DB>) => Promise<unknown>,
): Promise<void> {
  assertEditable(access.task);
  await db()
    .transaction()
    .execute(async (trx) => {
      if (before) await before(trx);
      await trx
        .updateTable("survey_responses")
        .set({ ...set, updated_at: now() })
        .where("id", "=", access.task.surveyResponseId!)
        .execute();
      await applyAction(trx, access.task, action, party);
    });
}

/** Merges a page's answers into the draft (the caller has checked them) and records "draft saved". */
export function saveSurveyAnswers(access: Access, merged: Answers): Promise<void> {
  return changeSurvey(access, { answers: JSON.stringify(merged) }, "save", actingParty(access));
}

/** Submits the survey (the caller has checked every answer strictly) with its score, then the customer's overall risk of the supplier (decision 036). */
export async function submitSurvey(access: Access, input: { score: number | null; language: SurveyLanguage; party: ActingParty }): Promise<void> {
  await changeSurvey(access, { score: input.score, language: input.language }, "submit", input.party);
  await recomputeOverallRisk({ organizationId: access.task.organizationId, childOrganizationIds: [access.task.supplierOrganizationId] });
}

/** Links an uploaded evidence file to its question, with the expiry date as the question's answer. */
export function addEvidence(access: Access, input: { questionId: string; fileId: number; expiresOn: string | null; answers: Answers }): Promise<void> {
  const answers = { ...input.answers, [input.questionId]: input.expiresOn ?? "" };
  return changeSurvey(access, { answers: JSON.stringify(answers) }, "save", actingParty(access), (trx) =>
    trx
      .insertInto("survey_response_files")
      .values({
        response_id: access.task.surveyResponseId!,
        question_id: input.questionId,
        file_upload_id: input.fileId,
        expires_on: input.expiresOn,
        created_at: now(),
      })
      .execute(),
  );
}

export async function removeEvidence(access: Access, fileId: number): Promise<boolean> {
  assertEditable(access.task);
  return removeAnswerFile("survey_response_files", {
    responseId: access.task.surveyResponseId!,
    fileId,
    supplierOrganizationId: access.task.supplierOrganizationId,
  });
}
