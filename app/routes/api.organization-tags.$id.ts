import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { invariantResponse, methodNotAllowed } from "~/http/responses.server";
import { deleteTag } from "~/models/suppliers/tags.server";

/** DELETE /api/organization-tags/{id}: removes the tag and all its links (another organisation's id is a 404). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") throw methodNotAllowed(["DELETE"]);
  const user = await requireUser(request, "suppliersWrite");
  const tagId = requireId(params.id);
  invariantResponse(await deleteTag({ organizationId: user.organizationId, userId: user.id, tagId }), 404, "Tag not found");
  return json({ data: { id: tagId } });
}
