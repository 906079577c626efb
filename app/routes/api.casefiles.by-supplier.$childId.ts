import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { methodNotAllowed, notFound } from "~/http/responses.server";
import { casefilesBySupplier } from "~/models/files/casefiles.server";
import { followsSupplier } from "~/models/suppliers/follows.server";

/**
 * GET /api/casefiles/by-supplier/{childId} — `{data: [{id, title, status,
 * priority, createdAt, comments: [{id}], events: [{id}]}]}`, newest first.
 * 404 when the organisation does not follow that supplier.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organizationId } = await requireUser(request, "suppliersRead");
  const supplierOrganizationId = requireId(params.childId, "childId");
  if (!(await followsSupplier({ organizationId, supplier: { id: supplierOrganizationId } })))
    throw notFound("Your organisation does not follow this supplier.");
  return json({ data: await casefilesBySupplier({ organizationId, supplierOrganizationId }) });
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
