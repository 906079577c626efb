import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { apiError } from "@server/http";
import { formatByteLimit, listFiles, parseUpload } from "~/models/files.server";
import { requireApiUser, requireOrganization } from "~/models/session.server";

/** GET /api/file-uploads — `{data: [{id, fileName, fileSize, mimeType}]}`: the user's own files, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const organizationId = requireOrganization(user);
  return json({ data: await listFiles({ organizationId, userId: user.id }) });
}

/**
 * POST /api/file-uploads — multipart with a `file` field → 201 `{data: file}`.
 * 400 without a file (or with an empty one), 413 above UPLOAD_MAX_BYTES. The
 * bytes stream to disk; nothing past the limit is kept.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") throw apiError(405, "Use POST to upload a file.");
  const user = await requireApiUser(request);
  const organizationId = requireOrganization(user);
  const upload = await parseUpload(request, { organizationId, userId: user.id });
  if (upload.ok) return json({ data: upload.file }, { status: 201 });
  if (upload.reason === "too_large") {
    const limit = formatByteLimit(upload.limitBytes);
    return apiError(413, `The file is larger than ${limit}. Upload a file of at most ${limit}.`, { limitBytes: upload.limitBytes });
  }
  return apiError(400, upload.reason === "empty" ? "The file is empty." : "Please select a file first.");
}
