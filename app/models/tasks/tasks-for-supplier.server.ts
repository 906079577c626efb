import { db } from "@server/db";
import { openFile } from "@server/storage";

/**
 * Tasks as the customer that sent them sees them (shared/spec/02-supplier-credit-connections.md §3, its
 * "Compliance task", "Task response"). Every read is filtered by the sending
 * organisation, so one customer never sees another's tasks to the same
 * supplier. A response is shown only once the supplier has submitted it:
 * until then it is the supplier's draft.
 */

export interface FileRef {
  id: number;
  fileName: string;
  fileSize: number;
}

export interface TaskTemplateOut {
  id: number;
  title: string;
  description: string | null;
  templateFile: FileRef | null;
}

export interface ComplianceTaskOut {
  id: number;
  is_submitted: boolean;
  is_custom: boolean;
  title: string;
  complianceTaskTemplate: TaskTemplateOut | null;
  updatedAt: string;
  /** Not in the spec's list: the id for GET /api/tasks/responses/{id}/customer, null until submitted. */
  responseId: number | null;
}

export interface TaskResponseOut {
  id: number;
  comment: string | null;
  updatedAt: string;
  organization: { organization_name: string };
  /** Not in the spec's list: the task answered, since a custom task has no template to name it. */
  complianceTask: { id: number; title: string; is_custom: boolean };
  complianceTaskTemplate: TaskTemplateOut | null;
  complianceTaskResponseFiles: Array<{ fileUpload: FileRef }>;
}

function taskQuery() {
  return db()
    .selectFrom("compliance_tasks as t")
    .leftJoin("compliance_task_templates as tpl", "tpl.id", "t.template_id")
    .leftJoin("file_uploads as tf", "tf.id", "tpl.template_file_id");
}

interface TemplateColumns {
  tpl_id: number | null;
  tpl_title: string | null;
  tpl_description: string | null;
  tf_id: number | null;
  tf_name: string | null;
  tf_size: number | null;
}

function templateOut(r: TemplateColumns): TaskTemplateOut | null {
  if (r.tpl_id == null || r.tpl_title == null) return null;
  return {
    id: r.tpl_id,
    title: r.tpl_title,
    description: r.tpl_description,
    templateFile: r.tf_id != null && r.tf_name != null ? { id: r.tf_id, fileName: r.tf_name, fileSize: r.tf_size ?? 0 } : null,
  };
}

const TEMPLATE_COLUMNS = [
  "tpl.id as tpl_id",
  "tpl.title as tpl_title",
  "tpl.description as tpl_description",
  "tf.id as tf_id",
  "tf.file_name as tf_name",
  "tf.file_size as tf_size",
] as const;

/** The tasks one customer organisation sent to one supplier, most recently changed first. */
export async function tasksForSupplier({
  organizationId,
  supplierOrganizationId,
}: {
  organizationId: number;
  supplierOrganizationId: number;
}): Promise<ComplianceTaskOut[]> {
  const rows = await taskQuery()
    .leftJoin("compliance_task_responses as r", (join) => join.onRef("r.task_id", "=", "t.id").on("t.is_submitted", "=", 1))
    .select(["t.id", "t.title", "t.is_custom", "t.is_submitted", "t.updated_at", "r.id as response_id", ...TEMPLATE_COLUMNS])
    .where("t.organization_id", "=", organizationId)
    .where("t.supplier_organization_id", "=", supplierOrganizationId)
    .orderBy("t.updated_at", "desc")
    .orderBy("t.id", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    is_submitted: r.is_submitted === 1,
    is_custom: r.is_custom === 1,
    title: r.title,
    complianceTaskTemplate: templateOut(r),
    updatedAt: r.updated_at,
    responseId: r.response_id,
  }));
}

/** A submitted response to a task the organisation sent; null for anything else, so callers cannot tell other organisations' responses from missing ones. */
export async function taskResponseForCustomer({ organizationId, responseId }: { organizationId: number; responseId: number }): Promise<TaskResponseOut | null> {
  const row = await taskQuery()
    .innerJoin("compliance_task_responses as r", "r.task_id", "t.id")
    .innerJoin("organizations as supplier", "supplier.id", "t.supplier_organization_id")
    .select([
      "r.id",
      "r.comment",
      "r.updated_at",
      "supplier.name as supplier_name",
      "t.id as task_id",
      "t.title as task_title",
      "t.is_custom",
      ...TEMPLATE_COLUMNS,
    ])
    .where("r.id", "=", responseId)
    .where("t.organization_id", "=", organizationId)
    .where("t.is_submitted", "=", 1)
    .executeTakeFirst();
  if (!row) return null;
  const files = await db()
    .selectFrom("compliance_task_response_files as rf")
    .innerJoin("file_uploads as f", "f.id", "rf.file_upload_id")
    .select(["f.id", "f.file_name", "f.file_size"])
    .where("rf.response_id", "=", row.id)
    .orderBy("f.id")
    .execute();
  return {
    id: row.id,
    comment: row.comment,
    updatedAt: row.updated_at,
    organization: { organization_name: row.supplier_name },
    complianceTask: { id: row.task_id, title: row.task_title, is_custom: row.is_custom === 1 },
    complianceTaskTemplate: templateOut(row),
    complianceTaskResponseFiles: files.map((f) => ({ fileUpload: { id: f.id, fileName: f.file_name, fileSize: f.file_size } })),
  };
}

/**
 * Whether the organisation may download the file as the sender of a task:
 * the template file of a task it sent, or a file of a submitted response to
 * such a task; or the evidence of a submitted response to a survey it sent.
 */
export async function canCustomerDownloadTaskFile({ organizationId, fileId }: { organizationId: number; fileId: number }): Promise<boolean> {
  const asTemplate = await db()
    .selectFrom("compliance_tasks as t")
    .innerJoin("compliance_task_templates as tpl", "tpl.id", "t.template_id")
    .select("t.id")
    .where("tpl.template_file_id", "=", fileId)
    .where("t.organization_id", "=", organizationId)
    .limit(1)
    .executeTakeFirst();
  if (asTemplate) return true;
  const asResponse = await db()
    .selectFrom("compliance_task_response_files as rf")
    .innerJoin("compliance_task_responses as r", "r.id", "rf.response_id")
    .innerJoin("compliance_tasks as t", "t.id", "r.task_id")
    .select("t.id")
    .where("rf.file_upload_id", "=", fileId)
    .where("t.organization_id", "=", organizationId)
    .where("t.is_submitted", "=", 1)
    .limit(1)
    .executeTakeFirst();
  if (asResponse) return true;
  // Evidence of a submitted response to a survey the organisation sent (the read view, decision 034).
  return isSurveyEvidence({ fileId, organizationId, side: "sender" });
}

/** Whether the organisation may download the file as the supplier that answered: evidence of its own survey responses. */
export async function canRespondentDownloadSurveyFile({ organizationId, fileId }: { organizationId: number; fileId: number }): Promise<boolean> {
  return isSurveyEvidence({ fileId, organizationId, side: "supplier" });
}

/** Whether the file is evidence of a survey response the organisation sent (once submitted) or answered (any state). */
async function isSurveyEvidence(input: { fileId: number; organizationId: number; side: "sender" | "supplier" }): Promise<boolean> {
  let query = db()
    .selectFrom("survey_response_files as sf")
    .innerJoin("survey_responses as sr", "sr.id", "sf.response_id")
    .select("sr.id")
    .where("sf.file_upload_id", "=", input.fileId);
  query =
    input.side === "sender"
      ? query.where("sr.organization_id", "=", input.organizationId).where("sr.status", "=", "submitted")
      : query.where("sr.supplier_organization_id", "=", input.organizationId);
  return Boolean(await query.limit(1).executeTakeFirst());
}

/** The stored file behind a task file id, only when the organisation may download it as the task's sender (canCustomerDownloadTaskFile). */
export async function customerTaskFile({ organizationId, fileId }: { organizationId: number; fileId: number }) {
  if (!(await canCustomerDownloadTaskFile({ organizationId, fileId }))) return undefined;
  return db()
    .selectFrom("file_uploads")
    .select(["id", "file_name as fileName", "file_size as fileSize", "mime_type as mimeType", "storage_key as storageKey"])
    .where("id", "=", fileId)
    .executeTakeFirst();
}

/** The file of `customerTaskFile` with its stored content; undefined when it is not the organisation's or is gone from storage. */
export async function openCustomerTaskFile(input: { organizationId: number; fileId: number }) {
  const file = await customerTaskFile(input);
  const stored = file ? await openFile(file.storageKey) : null;
  return file && stored ? { file, stored } : undefined;
}
