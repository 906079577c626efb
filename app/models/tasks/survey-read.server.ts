import { db } from "@server/db";
import { parseDefinition } from "~/models/tasks/survey-definition-schema";
import type { Answers, SurveyDefinition } from "~/models/tasks/survey-definition";
import type { TaskStatus } from "~/models/tasks/task-states";
import { customerTask, respondentTask } from "~/models/tasks/task-workflow.server";

/**
 * The read view of a survey response (/tasks/surveys/{surveyResponseId}/read; decision 034): for the customer that sent
 * it (customerTask scope) and for the supplier organisation that answered (respondentTask scope), each seeing only its
 * own. Only an answered response is read here: submitted, accepted or returned (a cancelled one once it was submitted).
 */

export interface SurveyEvidence {
  fileId: number;
  fileName: string;
  fileSize: number;
  expiresOn: string | null;
}

export interface SurveyReading {
  side: "customer" | "respondent";
  supplierTaskId: number;
  status: TaskStatus;
  title: string;
  titleNo: string | null;
  version: number | null;
  definition: SurveyDefinition | null;
  answers: Answers;
  score: number | null;
  language: string | null;
  submittedAt: string | null;
  answeredByName: string | null;
  answeredByEmail: string | null;
  customerName: string;
  supplierName: string;
  /** Evidence files per question id. */
  evidence: Record<string, SurveyEvidence[]>;
}

const ANSWERED: readonly TaskStatus[] = ["submitted", "accepted", "returned"];

/**
 * The response for the reader's organisation, or: "forbidden" when it is the organisation's own sent survey but the
 * reader may not read sent items (below level 2), "unanswered" when it is theirs but not answered yet, undefined when
 * it is not theirs at all (another organisation's is a 404, like a missing one).
 */
export async function surveyForReading(input: {
  organizationId: number;
  responseId: number;
  mayReadSent: boolean;
}): Promise<SurveyReading | "forbidden" | "unanswered" | undefined> {
  const item = await db().selectFrom("supplier_tasks").select("id").where("survey_response_id", "=", input.responseId).executeTakeFirst();
  if (!item) return undefined;
  const asCustomer = await customerTask({ organizationId: input.organizationId, id: item.id });
  const task = asCustomer ?? (await respondentTask({ supplierOrganizationId: input.organizationId, id: item.id }));
  if (!task) return undefined;
  if (asCustomer && !input.mayReadSent) return "forbidden";
  if (!(ANSWERED.includes(task.status) || (task.status === "cancelled" && task.submittedAt !== null))) return "unanswered";
  const row = await db()
    .selectFrom("survey_responses as r")
    .innerJoin("survey_templates as t", "t.id", "r.survey_template_id")
    .leftJoin("survey_template_versions as v", "v.id", "r.template_version_id")
    .innerJoin("organizations as customer", "customer.id", "r.organization_id")
    .innerJoin("organizations as supplier", "supplier.id", "r.supplier_organization_id")
    .leftJoin("supplier_tasks as st", "st.survey_response_id", "r.id")
    .leftJoin("users as u", "u.id", "st.answered_by_user_id")
    .select([
      "r.answers",
      "r.score",
      "r.language",
      "r.submitted_at",
      "t.title",
      "t.title_no",
      "v.version",
      "v.definition",
      "customer.name as customer_name",
      "supplier.name as supplier_name",
      "u.email as answered_by_email",
    ])
    .where("r.id", "=", input.responseId)
    .executeTakeFirstOrThrow();
  const files = await db()
    .selectFrom("survey_response_files as sf")
    .innerJoin("file_uploads as f", "f.id", "sf.file_upload_id")
    .select(["sf.question_id", "sf.expires_on", "f.id", "f.file_name", "f.file_size"])
    .where("sf.response_id", "=", input.responseId)
    .orderBy("f.id")
    .execute();
  const evidence: Record<string, SurveyEvidence[]> = {};
  for (const f of files) (evidence[f.question_id] ??= []).push({ fileId: f.id, fileName: f.file_name, fileSize: f.file_size, expiresOn: f.expires_on });
  let answers: Answers = {};
  try {
    answers = JSON.parse(row.answers) as Answers;
  } catch {
    answers = {};
  }
  return {
    side: asCustomer ? "customer" : "respondent",
    supplierTaskId: task.id,
    status: task.status,
    title: row.title,
    titleNo: row.title_no,
    version: row.version,
    definition: row.definition ? parseDefinition(row.definition) : null,
    answers,
    score: row.score,
    language: row.language,
    submittedAt: row.submitted_at ?? task.submittedAt,
    answeredByName: task.answeredByName,
    answeredByEmail: row.answered_by_email,
    customerName: row.customer_name,
    supplierName: row.supplier_name,
    evidence,
  };
}
