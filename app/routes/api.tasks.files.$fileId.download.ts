import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import { requireId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { openCustomerTaskFile } from "~/models/tasks/tasks-for-supplier.server";

/**
 * GET /api/tasks/files/{fileId}/download — a task's template file or a
 * submitted response's file, for the organisation that sent the task (the
 * supplier screen's task modal: registryRead, like the screen). Any other
 * file is a 404, so file ids cannot be probed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organizationId } = await requireUser(request, "registryRead");
  const fileId = requireId(params.fileId, "fileId");
  const opened = await openCustomerTaskFile({ organizationId, fileId });
  if (!opened) throw errorResponse(404, "No file with this id.");
  const { file, stored } = opened;
  return fileDownloadResponse(stored.stream, { fileName: file.fileName, contentType: file.mimeType, size: stored.size });
}

export async function action() {
  throw methodNotAllowed(["GET"]);
}
