import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { methodNotAllowed, refusalResponse } from "~/http/responses.server";
import { isRefusal } from "~/models/shared/refusal";
import { deleteTag } from "~/models/suppliers/tags.server";

/** DELETE /api/organization-tags/{id}: removes the tag and all its links (another organisation's id is a 404). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") throw methodNotAllowed(["DELETE"]);
  const user = await requireUser(request, "suppliersWrite");
  const tagId = requireId(params.id);
  try {
    await deleteTag({ organizationId: user.organizationId, userId: user.id, tagId });
  } catch (error) {
    if (isRefusal(error)) throw refusalResponse(error);
    throw error;
  }
  return json({ data: { id: tagId } });
}
