import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { apiError, idParam } from "@server/http";
import { apiAnswer, getConnection, parseConnectionChange, updateConnection } from "~/models/connections.server";
import { requireApiUser, requireOrganization } from "~/models/session.server";

/** GET /api/organization-connections/{id} → `{data}`; another organisation's id or a soft-deleted one is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const organizationId = requireOrganization(await requireApiUser(request));
  const id = idParam(params.id);
  const data = await getConnection({ organizationId, id });
  if (!data) throw apiError(404, "Connection not found");
  return json({ data });
}

/**
 * PATCH /api/organization-connections/{id} with exactly one of contact_email,
 * is_priority, is_due_diligence, is_deleted (true), removeTagIds, addTagIds,
 * newTags, newComment → `{data: the updated connection}` (null after a soft delete).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH")
    return json({ error: "Method Not Allowed", message: "Change a connection with PATCH." }, { status: 405, headers: { Allow: "GET, PATCH" } });
  const user = await requireApiUser(request);
  const organizationId = requireOrganization(user);
  const id = idParam(params.id);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw apiError(400, "The body must be a JSON object with exactly one change.");
  }
  const data = await apiAnswer(async () => {
    const change = parseConnectionChange(body);
    return updateConnection({ organizationId, userId: user.id, id, change });
  });
  return json({ data });
}
