import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import type { FilesPanelData } from "~/components/files/FilesPanel";
import { formatByteLimit, listFilesWithAttachments } from "~/models/files.server";
import { uploadMaxBytes } from "@server/storage";
import { getUser } from "~/models/session.server";

/**
 * GET /files/panel — the file uploads panel's data for its fetcher: the
 * user's files with their attachment counts and the size limit. A visitor
 * gets `signedIn: false` and the panel shows its login prompt.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const headers = { "Cache-Control": "private, no-store" };
  if (!user || user.organizationId == null) return json<FilesPanelData>({ signedIn: false, files: [], limit: formatByteLimit(uploadMaxBytes()) }, { headers });
  const files = await listFilesWithAttachments({ organizationId: user.organizationId, userId: user.id });
  return json<FilesPanelData>({ signedIn: true, files, limit: formatByteLimit(uploadMaxBytes()) }, { headers });
}
