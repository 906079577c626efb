import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { formatByteLimit, readUpload, uploadMaxBytes } from "~/http/upload.server";
import { deleteFile, listFiles, storeUpload } from "~/models/files/files.server";

/** GET /api/file-uploads — `{data: [{id, fileName, fileSize, mimeType}]}`: the user's own files, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "ownFiles");
  return json({ data: await listFiles({ organizationId: user.organizationId, userId: user.id }) });
}

/**
 * POST /api/file-uploads — multipart with a `file` field → 201 `{data: file}`.
 * 415 for another content type, 400 without a file (or with an empty one),
 * 413 above UPLOAD_MAX_BYTES. The bytes stream to disk; nothing past the
 * limit is kept.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["GET", "POST"]);
  const user = await requireUser(request, "ownFiles");
  const owner = { organizationId: user.organizationId, userId: user.id };
  const upload = await readUpload(request, {
    maxBytes: uploadMaxBytes(),
    store: (file) => storeUpload({ ...owner, ...file }),
    discard: (file) => deleteFile({ ...owner, id: file.id }),
  });
  if (upload.file) return json({ data: upload.file }, { status: 201 });
  if (upload.refused === "too_large") {
    const limit = formatByteLimit(upload.limitBytes);
    throw errorResponse(413, `The file is larger than ${limit}. Upload a file of at most ${limit}.`, { extra: { limitBytes: upload.limitBytes } });
  }
  throw errorResponse(400, upload.refused === "empty" ? "The file is empty." : "Please select a file first.");
}
