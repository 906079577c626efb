import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { methodNotAllowed, refusalResponse } from "~/http/responses.server";
import { CONNECTION_REFUSALS, deleteComment } from "~/models/suppliers/connections.server";
import { isRefusalOf } from "~/models/shared/refusal";

/** DELETE /api/organization-connections/comments/{id}: by the comment's author or an administrator only (else 403). */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") throw methodNotAllowed(["DELETE"]);
  const user = await requireUser(request, "suppliersWrite");
  const commentId = requireId(params.id);
  try {
    await deleteComment({ organizationId: user.organizationId, user, commentId });
  } catch (error) {
    if (isRefusalOf(error, CONNECTION_REFUSALS)) throw refusalResponse(error);
    throw error;
  }
  return json({ data: { id: commentId } });
}
