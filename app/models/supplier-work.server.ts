import { db } from "@server/db";
import { submittedSurveyResponses } from "./surveys.server";
import { subSuppliers, type SubSuppliersResult } from "./sub-suppliers.server";
import { taskResponseForCustomer, tasksForSupplier } from "./tasks.server";

/**
 * The organisation-owned part of the supplier screen: tasks, survey
 * responses, sub-suppliers and an open task response, for the session's
 * organisation only.
 */

/** The local supplier organisation the viewer follows under this organisation number, if any. */
export async function followedSupplierId(organizationId: number, orgNumber: string): Promise<number | null> {
  const row = await db()
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .select("o.id")
    .where("c.parent_organization_id", "=", organizationId)
    .where("c.is_deleted", "=", 0)
    .where("o.org_number", "=", orgNumber)
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function loadSupplierWork(input: {
  organizationId: number | null;
  supplierOrganizationId: number | null;
  subSearch: string;
  taskResponseId: number | null;
}) {
  const { organizationId, supplierOrganizationId } = input;
  if (organizationId == null || supplierOrganizationId == null) {
    return { tasks: [], surveys: [], subSuppliers: { status: "not-found" as const }, taskResponse: null };
  }
  // Failures leave the section's empty or error state (spec 02 §8) and are logged.
  const soft = <T>(section: string, load: Promise<T>, fallback: T): Promise<T> =>
    load.catch((error: unknown) => {
      console.error(`supplier screen: ${section} failed`, { supplierOrganizationId, error: String(error) });
      return fallback;
    });
  const [tasks, surveys, subs, taskResponse] = await Promise.all([
    soft("tasks", tasksForSupplier({ organizationId, supplierOrganizationId }), []),
    soft("survey responses", submittedSurveyResponses({ organizationId, supplierOrganizationId }), []),
    soft<SubSuppliersResult | { status: "failed" }>("sub-suppliers", subSuppliers({ organizationId, supplierOrganizationId, searchTerm: input.subSearch }), { status: "failed" }),
    input.taskResponseId ? soft("task response", taskResponseForCustomer({ organizationId, responseId: input.taskResponseId }), null) : null,
  ]);
  return { tasks, surveys, subSuppliers: subs, taskResponse };
}
