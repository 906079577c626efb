import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { storedPdfInline } from "~/http/download.server";
import { requireId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { ownFileForReading } from "~/models/files/files.server";

/**
 * GET /files/{fileId}/inline — one of the user's own files that its bytes
 * show to be a PDF (sniffed at upload, never the browser's claim), inline,
 * for the preview's frame. `application/pdf` whatever the upload claimed,
 * `nosniff`, and a policy without scripts that only this origin may frame
 * (server/security.ts). Anything else — another kind of file, anyone else's
 * file, a missing one — is a 404: the raw upload is never served inline.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "ownFiles");
  const id = requireId(params.fileId, "fileId");
  const file = await ownFileForReading({ organizationId: user.organizationId, userId: user.id, id });
  const inline = file?.contentKind === "pdf" ? await storedPdfInline(file.storageKey, file.fileName) : null;
  if (!inline) throw errorResponse(404, "No PDF with this id.");
  return inline;
}

export async function action() {
  throw methodNotAllowed(["GET"]);
}
