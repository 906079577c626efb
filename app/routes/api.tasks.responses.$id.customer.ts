import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { taskResponseForCustomer } from "~/models/tasks/tasks-for-supplier.server";

/**
 * GET /api/tasks/responses/{id}/customer — a submitted response to a task the
 * session's organisation sent (registryRead, like the supplier screen).
 * Another organisation's response is a 404, the same as a missing one.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organizationId } = await requireUser(request, "registryRead");
  const responseId = requireId(params.id, "id");
  const response = await taskResponseForCustomer({ organizationId, responseId });
  if (!response) throw errorResponse(404, "No task response with this id.");
  return json(response);
}

export async function action() {
  throw methodNotAllowed(["GET"]);
}
