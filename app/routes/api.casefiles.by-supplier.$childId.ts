import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { apiError, idParam } from "@server/http";
import { casefilesBySupplier, followsSupplier } from "~/models/casefiles.server";
import { requireApiUser, requireOrganization } from "~/models/session.server";

/**
 * GET /api/casefiles/by-supplier/{childId} — `{data: [{id, title, status,
 * priority, createdAt, comments: [{id}], events: [{id}]}]}`, newest first.
 * 404 when the organisation does not follow that supplier.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const organizationId = requireOrganization(await requireApiUser(request));
  const supplierOrganizationId = idParam(params.childId, "childId");
  if (!(await followsSupplier({ organizationId, supplierOrganizationId }))) throw apiError(404, "Your organisation does not follow this supplier.");
  return json({ data: await casefilesBySupplier({ organizationId, supplierOrganizationId }) });
}
