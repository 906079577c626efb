import type { LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { contentDisposition, openFile, PDF_INLINE_HEADERS } from "@server/storage";
import { requireUser } from "~/http/auth.server";
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
  const stored = file?.contentKind === "pdf" ? await openFile(file.storageKey) : null;
  if (!file || !stored) throw errorResponse(404, "No PDF with this id.");
  return new Response(createReadableStreamFromReadable(stored.stream) as BodyInit, {
    headers: {
      ...PDF_INLINE_HEADERS,
      "Content-Disposition": contentDisposition(file.fileName, "inline"),
      "Content-Length": String(stored.size),
    },
  });
}

export async function action() {
  throw methodNotAllowed(["GET"]);
}
