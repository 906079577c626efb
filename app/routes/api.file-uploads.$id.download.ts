import type { LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { apiError, idParam } from "@server/http";
import { contentDisposition, openFile, safeContentType } from "@server/storage";
import { fileForDownload } from "~/models/files.server";
import { requireApiUser, requireOrganization } from "~/models/session.server";

/**
 * GET /api/file-uploads/{id}/download — the bytes as an attachment named
 * after the (sanitised) original name. A file of another organisation is a
 * 404 like a missing one, so ids cannot be probed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const organizationId = requireOrganization(user);
  const id = idParam(params.id);
  const file = await fileForDownload({ organizationId, userId: user.id, id });
  const stored = file ? await openFile(file.storageKey) : null;
  if (!file || !stored) throw apiError(404, "No file with this id.");
  return new Response(createReadableStreamFromReadable(stored.stream), {
    status: 200,
    headers: {
      "Content-Type": safeContentType(file.mimeType),
      "Content-Length": String(stored.size),
      "Content-Disposition": contentDisposition(file.fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
