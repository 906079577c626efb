import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { apiError, idParam } from "@server/http";
import { isFollowedSupplier } from "~/models/sub-suppliers.server";
import { tasksForSupplier } from "~/models/tasks.server";
import { requireAnalystApiUser, requireOrganization } from "~/models/session.server";

/**
 * GET /api/tasks/organization/{localOrgId} — the compliance tasks the
 * session's organisation sent to that supplier, most recently changed first.
 * 404 when the organisation neither follows the supplier nor sent it tasks.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const organizationId = requireOrganization(await requireAnalystApiUser(request));
  const supplierOrganizationId = idParam(params.localOrgId, "localOrgId");
  const tasks = await tasksForSupplier({ organizationId, supplierOrganizationId });
  if (!tasks.length && !(await isFollowedSupplier({ organizationId, supplierOrganizationId }))) {
    throw apiError(404, "No supplier with this id among your organisation's suppliers.");
  }
  return json(tasks);
}
