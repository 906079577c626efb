import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FilePreviewDialog, type FilePreviewData } from "~/components/files/FilePreview";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { safeRedirect } from "~/http/redirect.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { ANALYSABLE_KINDS, filePreview, PREVIEW_ROWS } from "~/models/files/files.server";

export const meta = titleMeta;

export const handle = { i18n: ["files"] };

/** `?sheet=`: absent is the first sheet; else a whole number ≥ 0 written plainly. */
function sheetParam(value: string | null): number | null {
  if (value === null || value === "") return 0;
  return /^(0|[1-9]\d{0,3})$/.test(value) ? Number(value) : null;
}

/**
 * /files/{fileId}/preview — the file preview modal as a page (shared/spec/02-supplier-credit-connections.md "File
 * preview modal"), for the user's own files only: anyone else's is a 404
 * like a missing one. `?sheet=` chooses the sheet; `?returnTo=` (a path of
 * this site, safeRedirect) is where closing goes, /files by default. A file
 * the readers refuse shows their message (status 422).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "ownFiles");
  const id = requireId(params.fileId, "fileId");
  const url = new URL(request.url);
  const sheet = sheetParam(url.searchParams.get("sheet"));
  if (sheet === null) throw errorResponse(400, "sheet must be a whole number of at least 0");
  const closeHref = safeRedirect(url.searchParams.get("returnTo"), "/files");
  const t = await i18nServer.getFixedT(request);
  const result = await filePreview({ organizationId: user.organizationId, userId: user.id, id, sheet });
  if ("reason" in result && result.reason === "not-found") throw errorResponse(404, t("files:notFound"));
  if ("reason" in result && result.reason === "no-sheet") throw errorResponse(400, `sheet must be less than ${result.sheets}`);
  const title = `${t("files:previewTitle")}: ${"fileName" in result ? result.fileName : ""} · ${t("common:appName")}`;
  const preview: FilePreviewData =
    "reason" in result
      ? {
          fileId: result.fileId,
          fileName: result.fileName,
          kind: result.kind,
          sheets: [],
          sheet: 0,
          rows: [],
          refused: t(result.messageKey),
          previewRows: PREVIEW_ROWS,
          analysable: ANALYSABLE_KINDS.includes(result.kind),
        }
      : { ...result, refused: null, previewRows: PREVIEW_ROWS, analysable: ANALYSABLE_KINDS.includes(result.kind) };
  return json({ preview, closeHref, title }, { status: preview.refused ? 422 : 200, headers: { "Cache-Control": "private, no-store" } });
}

export default function FilePreviewScreen() {
  const { preview, closeHref } = useLoaderData<typeof loader>();
  return <FilePreviewDialog preview={preview} closeHref={closeHref} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
