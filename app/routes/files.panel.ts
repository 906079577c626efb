import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import type { FilesPanelData } from "~/components/files/FilesPanel";
import { getUser } from "~/http/auth.server";
import { can } from "~/models/accounts/permissions";
import { formatByteLimit, uploadMaxBytes } from "~/http/upload.server";
import { listFilesWithAttachments } from "~/models/files/files.server";
import { importsInProgress } from "~/models/files/supplier-imports.server";

/**
 * GET /files/panel — the file uploads panel's data for its fetcher: the
 * user's files with their attachment counts and the size limit. A visitor
 * (or an account without an organisation) gets `signedIn: false` and the
 * panel shows its login prompt.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const headers = { "Cache-Control": "private, no-store" };
  const limit = formatByteLimit(uploadMaxBytes());
  if (!user || user.organizationId == null || !can(user, "ownFiles")) return json<FilesPanelData>({ signedIn: false, files: [], limit }, { headers });
  const owner = { organizationId: user.organizationId, userId: user.id };
  // The files, and the user's supplier-list analyses not yet confirmed (the panel polls while one runs).
  const [files, imports] = await Promise.all([listFilesWithAttachments(owner), importsInProgress(owner)]);
  return json<FilesPanelData>({ signedIn: true, files, limit, imports }, { headers });
}
