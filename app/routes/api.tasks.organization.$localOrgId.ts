import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { followsSupplier } from "~/models/suppliers/follows.server";
import { tasksForSupplier } from "~/models/tasks/tasks-for-supplier.server";

/**
 * GET /api/tasks/organization/{localOrgId} — the tasks the
 * session's organisation sent to that supplier, most recently changed first
 * (the supplier screen's tasks: registryRead, like the screen).
 * 404 when the organisation neither follows the supplier nor sent it tasks.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organizationId } = await requireUser(request, "registryRead");
  const supplierOrganizationId = requireId(params.localOrgId, "localOrgId");
  const tasks = await tasksForSupplier({ organizationId, supplierOrganizationId });
  if (!tasks.length && !(await followsSupplier({ organizationId, supplier: { id: supplierOrganizationId } }))) {
    throw errorResponse(404, "No supplier with this id among your organisation's suppliers.");
  }
  return json(tasks);
}

export async function action() {
  throw methodNotAllowed(["GET"]);
}
