import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { apiError, idParam } from "@server/http";
import { deleteFile } from "~/models/files.server";
import { requireApiUser, requireOrganization } from "~/models/session.server";

/**
 * DELETE /api/file-uploads/{id} — deletes one of the user's own files,
 * detaching it from every connection first (each detachment is in the
 * connection's audit trail). `{data: {id}}`; 404 for any other file.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") throw apiError(405, "Use DELETE to delete a file.");
  const user = await requireApiUser(request);
  const organizationId = requireOrganization(user);
  const id = idParam(params.id);
  if (!(await deleteFile({ organizationId, userId: user.id, id }))) throw apiError(404, "No file with this id.");
  return json({ data: { id } });
}

export async function loader() {
  throw apiError(405, "Use DELETE to delete a file, or GET /api/file-uploads/{id}/download.");
}
