import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { deleteFile } from "~/models/files/files.server";

/**
 * DELETE /api/file-uploads/{id} — deletes one of the user's own files,
 * detaching it from every connection first (each detachment is in the
 * connection's audit trail). `{data: {id}}`; 404 for any other file.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") throw methodNotAllowed(["DELETE"]);
  const user = await requireUser(request, "ownFiles");
  const id = requireId(params.id);
  if (!(await deleteFile({ organizationId: user.organizationId, userId: user.id, id }))) throw errorResponse(404, "No file with this id.");
  return json({ data: { id } });
}

/** GET has nothing here: the bytes are at /api/file-uploads/{id}/download. */
export async function loader() {
  throw methodNotAllowed(["DELETE"]);
}
