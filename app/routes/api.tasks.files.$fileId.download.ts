import type { LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { apiError, idParam } from "@server/http";
import { contentDisposition, openFile, safeContentType } from "@server/storage";
import { canCustomerDownloadTaskFile, taskFile } from "~/models/tasks.server";
import { requireAnalystApiUser, requireOrganization } from "~/models/session.server";

/**
 * GET /api/tasks/files/{fileId}/download — a task's template file or a
 * submitted response's file, for the organisation that sent the task. Any
 * other file is a 404, so file ids cannot be probed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const organizationId = requireOrganization(await requireAnalystApiUser(request));
  const fileId = idParam(params.fileId, "fileId");
  const file = (await canCustomerDownloadTaskFile({ organizationId, fileId })) ? await taskFile(fileId) : undefined;
  const stored = file ? await openFile(file.storage_key) : null;
  if (!file || !stored) throw apiError(404, "No file with this id.");
  return new Response(createReadableStreamFromReadable(stored.stream), {
    status: 200,
    headers: {
      "Content-Type": safeContentType(file.mime_type),
      "Content-Length": String(stored.size),
      "Content-Disposition": contentDisposition(file.file_name),
      "X-Content-Type-Options": "nosniff",
      // Supplier documents: never kept by shared caches.
      "Cache-Control": "private, no-store",
    },
  });
}
