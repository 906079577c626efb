import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { idParam } from "@server/http";
import { apiAnswer } from "~/models/connections.server";
import { requireApiUser, requireOrganization } from "~/models/session.server";
import { deleteTag } from "~/models/tags.server";

/** DELETE /api/organization-tags/{id}: removes the tag and all its links (another organisation's id is a 404). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE")
    return json({ error: "Method Not Allowed", message: "Delete a tag with DELETE." }, { status: 405, headers: { Allow: "DELETE" } });
  const user = await requireApiUser(request);
  const organizationId = requireOrganization(user);
  const tagId = idParam(params.id);
  await apiAnswer(() => deleteTag({ organizationId, userId: user.id, tagId }));
  return json({ data: { id: tagId } });
}
