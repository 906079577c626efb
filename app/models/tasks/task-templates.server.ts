import { db, type Db } from "@server/db";
import { refuse } from "~/models/shared/refusal";
import { mayChange, type TemplateScope } from "~/models/tasks/survey-templates.server";

/**
 * Task templates (decision 032): the organisation's own and the system-wide ones, bilingual, with an optional template
 * file (one of the user's uploads) and an optional number of days to answer. Archived ones are not offered for sending
 * (campaigns.server.ts reads only active ones); tasks already sent keep theirs. Who may change what: as for survey
 * templates (mayChange). A refused change throws a Refusal: "template-not-found" (not-found: another organisation's, or
 * a system-wide one for a non-operator), "template-forbidden" (forbidden: the user may not create such a template),
 * "template-file-not-found" (invalid, on the field `fileId`: not one of the user's uploads).
 */

export interface TaskTemplateItem {
  id: number;
  title: string;
  titleNo: string | null;
  description: string | null;
  descriptionNo: string | null;
  dueInDays: number | null;
  systemWide: boolean;
  archived: boolean;
  editable: boolean;
  file: { id: number; fileName: string } | null;
  /** Tasks of this organisation made from the template. */
  tasks: number;
}

export interface TaskTemplateInput {
  title: { en: string; no: string };
  description: { en: string; no: string };
  dueInDays: number | null;
  fileId: number | null;
}

export async function listTaskTemplates(scope: TemplateScope, database: Db = db()): Promise<TaskTemplateItem[]> {
  const org = scope.organizationId ?? -1;
  const rows = await database
    .selectFrom("compliance_task_templates as t")
    .leftJoin("file_uploads as f", "f.id", "t.template_file_id")
    .select((eb) => [
      "t.id",
      "t.title",
      "t.title_no",
      "t.description",
      "t.description_no",
      "t.due_in_days",
      "t.organization_id",
      "t.archived_at",
      "f.id as fileId",
      "f.file_name as fileName",
      eb
        .selectFrom("compliance_tasks as c")
        .select((x) => x.fn.countAll<number>().as("n"))
        .whereRef("c.template_id", "=", "t.id")
        .where("c.organization_id", "=", org)
        .as("tasks"),
    ])
    .where((eb) => eb.or([eb("t.organization_id", "=", org), eb("t.organization_id", "is", null)]))
    .orderBy((eb) => eb.case().when("t.organization_id", "is", null).then(1).else(0).end())
    .orderBy("t.title")
    .orderBy("t.id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    titleNo: r.title_no,
    description: r.description,
    descriptionNo: r.description_no,
    dueInDays: r.due_in_days,
    systemWide: r.organization_id === null,
    archived: r.archived_at !== null,
    editable: mayChange(scope, r.organization_id),
    file: r.fileId !== null && r.fileName !== null ? { id: r.fileId, fileName: r.fileName } : null,
    tasks: Number(r.tasks ?? 0),
  }));
}

/** A template the user may change; undefined otherwise (another organisation's, or system-wide for a non-operator). */
async function changeable(scope: TemplateScope, id: number, database: Db) {
  const row = await database
    .selectFrom("compliance_task_templates")
    .select(["id", "organization_id", "template_file_id"])
    .where("id", "=", id)
    .where((eb) => eb.or([eb("organization_id", "=", scope.organizationId ?? -1), eb("organization_id", "is", null)]))
    .executeTakeFirst();
  return row && mayChange(scope, row.organization_id) ? row : undefined;
}

/** Whether the file is one the user may attach: their own upload in their organisation (or already the template's). */
async function attachable(scope: TemplateScope, fileId: number, currentFileId: number | null, database: Db): Promise<boolean> {
  if (fileId === currentFileId) return true;
  if (scope.organizationId === null) return false;
  const own = await database
    .selectFrom("file_uploads")
    .select("id")
    .where("id", "=", fileId)
    .where("organization_id", "=", scope.organizationId)
    .where("user_id", "=", scope.userId)
    .executeTakeFirst();
  return Boolean(own);
}

const fileNotFound = () => refuse("invalid", "template-file-not-found", { field: "fileId" });

function values(input: TaskTemplateInput) {
  return {
    title: input.title.en,
    title_no: input.title.no || null,
    description: input.description.en || null,
    description_no: input.description.no || null,
    due_in_days: input.dueInDays,
    template_file_id: input.fileId,
  };
}

export async function createTaskTemplate(
  scope: TemplateScope,
  input: TaskTemplateInput & { systemWide: boolean; at?: Date },
  database: Db = db(),
): Promise<{ id: number }> {
  if (input.systemWide ? !scope.manageSystem : !scope.manageOwn || scope.organizationId === null) throw refuse("forbidden", "template-forbidden");
  if (input.fileId !== null && !(await attachable(scope, input.fileId, null, database))) throw fileNotFound();
  const now = (input.at ?? new Date()).toISOString();
  const row = await database
    .insertInto("compliance_task_templates")
    .values({ ...values(input), organization_id: input.systemWide ? null : scope.organizationId, created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

export async function updateTaskTemplate(
  scope: TemplateScope,
  input: TaskTemplateInput & { id: number; at?: Date },
  database: Db = db(),
): Promise<{ id: number }> {
  const row = await changeable(scope, input.id, database);
  if (!row) throw refuse("not-found", "template-not-found");
  if (input.fileId !== null && !(await attachable(scope, input.fileId, row.template_file_id, database))) throw fileNotFound();
  const now = (input.at ?? new Date()).toISOString();
  await database
    .updateTable("compliance_task_templates")
    .set({ ...values(input), updated_at: now })
    .where("id", "=", row.id)
    .execute();
  return { id: row.id };
}

export async function setTaskTemplateArchived(scope: TemplateScope, input: { id: number; archived: boolean; at?: Date }, database: Db = db()): Promise<void> {
  const row = await changeable(scope, input.id, database);
  if (!row) throw refuse("not-found", "template-not-found");
  const now = (input.at ?? new Date()).toISOString();
  await database
    .updateTable("compliance_task_templates")
    .set({ archived_at: input.archived ? now : null, updated_at: now })
    .where("id", "=", row.id)
    .execute();
}
