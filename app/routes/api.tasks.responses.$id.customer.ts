import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { apiError, idParam } from "@server/http";
import { taskResponseForCustomer } from "~/models/tasks.server";
import { requireAnalystApiUser, requireOrganization } from "~/models/session.server";

/**
 * GET /api/tasks/responses/{id}/customer — a submitted response to a task the
 * session's organisation sent. Another organisation's response is a 404, the
 * same as a missing one.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const organizationId = requireOrganization(await requireAnalystApiUser(request));
  const responseId = idParam(params.id, "id");
  const response = await taskResponseForCustomer({ organizationId, responseId });
  if (!response) throw apiError(404, "No task response with this id.");
  return json(response);
}
