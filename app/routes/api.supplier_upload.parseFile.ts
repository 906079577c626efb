import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import i18nServer from "~/i18n.server";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { filePreview } from "~/models/files/files.server";

/** A sheet index in the query: absent is the first sheet; otherwise a whole number ≥ 0 written plainly. */
function sheetParam(value: string | null): number | null {
  if (value === null || value === "") return 0;
  return /^(0|[1-9]\d{0,3})$/.test(value) ? Number(value) : null;
}

/**
 * GET /api/supplier_upload/parseFile?fileId=&sheet= (shared/spec/02-supplier-credit-connections.md §7) — the
 * preview rows of one of the user's own files: `{ fileId, fileName, kind,
 * sheets, sheet, rows }`, rows ≤ 16 as strings (a PDF: kind "pdf", no sheets
 * or rows — the preview frames it). 400 for a bad fileId or
 * sheet, 404 for a file that is not the user's (another organisation's, a
 * colleague's, a missing one — alike), 422 with the reason in the user's
 * language for a file the readers refuse (legacy .xls: save as .xlsx; zip
 * bomb; not a spreadsheet; too large; unreadable; empty), `code` naming it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "ownFiles");
  const url = new URL(request.url);
  const id = requireId(url.searchParams.get("fileId"), "fileId");
  const sheet = sheetParam(url.searchParams.get("sheet"));
  if (sheet === null) throw errorResponse(400, "sheet must be a whole number of at least 0");
  const preview = await filePreview({ organizationId: user.organizationId, userId: user.id, id, sheet });
  if ("reason" in preview) {
    if (preview.reason === "not-found") throw errorResponse(404, "No file with this id.");
    if (preview.reason === "no-sheet") throw errorResponse(400, `sheet must be less than ${preview.sheets}`);
    const t = await i18nServer.getFixedT(request);
    throw errorResponse(422, t(preview.messageKey), { extra: { code: preview.code } });
  }
  return json(preview, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action() {
  throw methodNotAllowed(["GET"]);
}
