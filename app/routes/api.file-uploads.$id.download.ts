import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { storedFileDownload } from "~/http/download.server";
import { requireId } from "~/http/parse.server";
import { can } from "~/models/accounts/permissions";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { readableFile } from "~/models/files/files.server";

/**
 * GET /api/file-uploads/{id}/download — the bytes as an attachment named
 * after the (sanitised) original name, for the uploader and for members who
 * may see a connection or task the file belongs to (readableFile). Any other
 * file, a colleague's private one included, is a 404 like a missing one, so
 * ids cannot be probed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "ownFiles");
  const id = requireId(params.id);
  const file = await readableFile({
    organizationId: user.organizationId,
    userId: user.id,
    id,
    sees: { connections: can(user, "suppliersRead"), tasks: can(user, "registryRead") },
  });
  const download = file ? await storedFileDownload(file.storageKey, { fileName: file.fileName, contentType: file.mimeType }) : null;
  if (!download) throw errorResponse(404, "No file with this id.");
  return download;
}

export async function action() {
  throw methodNotAllowed(["GET"]);
}
