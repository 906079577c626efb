import { db } from "@server/db";

/**
 * "Does this organisation follow this supplier?" — the one question behind
 * every organisation-scoped view of a supplier (its connection, case files,
 * tasks, surveys, sub-suppliers). A soft-deleted connection is not followed.
 * The supplier is named by its local organisation id or its organisation number.
 */
export async function followedConnectionId(input: {
  organizationId: number;
  supplier: { id: number } | { orgNumber: string };
}): Promise<{ connectionId: number; supplierOrganizationId: number } | null> {
  let query = db()
    .selectFrom("organization_connections as c")
    .select(["c.id as connectionId", "c.child_organization_id as supplierOrganizationId"])
    .where("c.parent_organization_id", "=", input.organizationId)
    .where("c.is_deleted", "=", 0);
  if ("id" in input.supplier) query = query.where("c.child_organization_id", "=", input.supplier.id);
  else {
    const orgNumber = input.supplier.orgNumber;
    query = query.innerJoin("organizations as o", "o.id", "c.child_organization_id").where("o.org_number", "=", orgNumber);
  }
  return (await query.executeTakeFirst()) ?? null;
}

export async function followsSupplier(input: { organizationId: number; supplier: { id: number } | { orgNumber: string } }): Promise<boolean> {
  return (await followedConnectionId(input)) !== null;
}
