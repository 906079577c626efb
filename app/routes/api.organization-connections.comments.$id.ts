import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { idParam } from "@server/http";
import { apiAnswer, deleteComment } from "~/models/connections.server";
import { requireApiUser, requireOrganization } from "~/models/session.server";

/** DELETE /api/organization-connections/comments/{id}: by the comment's author or an administrator only (else 403). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE")
    return json({ error: "Method Not Allowed", message: "Delete a comment with DELETE." }, { status: 405, headers: { Allow: "DELETE" } });
  const user = await requireApiUser(request);
  const organizationId = requireOrganization(user);
  const commentId = idParam(params.id);
  await apiAnswer(() => deleteComment({ organizationId, user, commentId }));
  return json({ data: { id: commentId } });
}
