import { casefilesBySupplier, type CasefileListItem } from "~/models/files/casefiles.server";
import { connectionForSupplier } from "~/models/suppliers/connections.server";
import { supplierCreditReports, type CreditReportListItem } from "~/models/credit/credit-reports.server";
import { listFiles, type FileListItem } from "~/models/files/files.server";
import { softLoad } from "~/models/shared/soft-load.server";
import { subSuppliers, type SubSuppliersResult } from "~/models/suppliers/sub-suppliers.server";
import { supplierScreenItems, type SupplierScreenItem } from "~/models/tasks/task-list.server";
import { submittedSurveyResponses, type SurveyResponseOut } from "~/models/tasks/survey-responses.server";
import { listTagsWithCounts } from "~/models/suppliers/tags.server";
import { taskResponseForCustomer, tasksForSupplier, type ComplianceTaskOut, type TaskResponseOut } from "~/models/tasks/tasks-for-supplier.server";

/**
 * The organisation-owned part of the supplier screen, for the session's
 * organisation only: tasks, survey responses, sub-suppliers, an open task
 * response, its credit reports on the company, the connection with its tags,
 * the user's files and the case files. Each part fails soft to its empty state.
 */

export async function loadSupplierWork(input: {
  organizationId: number | null;
  userId: number;
  /** The supplier organisation this organisation follows under the company's number, or null. */
  supplierOrganizationId: number | null;
  company: { orgNumber: string; countryCode: string };
  subSearch: string;
  taskResponseId: number | null;
}) {
  const { organizationId, supplierOrganizationId, userId } = input;
  const empty = {
    tasks: [] as ComplianceTaskOut[],
    surveys: [] as SurveyResponseOut[],
    subSuppliers: { status: "not-found" } as SubSuppliersResult | { status: "failed" },
    taskResponse: null as TaskResponseOut | null,
    creditReports: [] as CreditReportListItem[],
    connection: null as Awaited<ReturnType<typeof connectionForSupplier>>,
    tags: [] as Awaited<ReturnType<typeof listTagsWithCounts>>,
    myFiles: [] as FileListItem[],
    casefiles: [] as CasefileListItem[],
    /** Each task's and survey's workflow state, due date and score (decision 034). */
    taskItems: [] as SupplierScreenItem[],
  };
  if (organizationId == null) return empty;
  const soft = <T>(section: string, load: Promise<T>, fallback: T) =>
    softLoad(`supplier screen: ${section}`, load, fallback, { organizationId, supplierOrganizationId });
  const followed = supplierOrganizationId;
  const [tasks, surveys, subs, taskResponse, creditReports, connection, tags, myFiles, casefiles, taskItems] = await Promise.all([
    followed == null ? empty.tasks : soft("tasks", tasksForSupplier({ organizationId, supplierOrganizationId: followed }), empty.tasks),
    followed == null ? empty.surveys : soft("survey responses", submittedSurveyResponses({ organizationId, supplierOrganizationId: followed }), empty.surveys),
    followed == null
      ? empty.subSuppliers
      : soft<SubSuppliersResult | { status: "failed" }>(
          "sub-suppliers",
          subSuppliers({ organizationId, supplierOrganizationId: followed, searchTerm: input.subSearch }),
          { status: "failed" },
        ),
    followed == null || !input.taskResponseId
      ? null
      : soft("task response", taskResponseForCustomer({ organizationId, responseId: input.taskResponseId }), null),
    // The organisation's own reports on this company (24 months), followed or not.
    soft("credit reports", supplierCreditReports({ organizationId, regNo: input.company.orgNumber, country: input.company.countryCode }), empty.creditReports),
    followed == null ? null : soft("connection", connectionForSupplier({ organizationId, supplierOrganizationId: followed }), null),
    soft("tags", listTagsWithCounts({ organizationId }), empty.tags),
    soft("files", listFiles({ organizationId, userId }), empty.myFiles),
    followed == null ? empty.casefiles : soft("casefiles", casefilesBySupplier({ organizationId, supplierOrganizationId: followed }), empty.casefiles),
    followed == null ? empty.taskItems : soft("task states", supplierScreenItems({ organizationId, supplierOrganizationId: followed }), empty.taskItems),
  ]);
  return { tasks, surveys, subSuppliers: subs, taskResponse, creditReports, connection, tags, myFiles, casefiles, taskItems };
}
