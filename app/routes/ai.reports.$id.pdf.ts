import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import { requireId } from "~/http/parse.server";
import { notFound } from "~/http/responses.server";
import { reportPdf } from "~/models/assistant/ai-reports.server";

/**
 * GET /ai/reports/{id}/pdf — a ready supplier report as a PDF attachment, rendered from its markdown, for the organisation
 * that owns it. Another organisation's report, an unknown id and a report not ready are the same 404; a malformed id a 400.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "assistantUse");
  const id = requireId(params.id);
  const pdf = await reportPdf({ organizationId: user.organizationId, id });
  if (!pdf) throw notFound("No ready report with this id.");
  return fileDownloadResponse(new Uint8Array(pdf.bytes), { fileName: pdf.fileName, contentType: "application/pdf", size: pdf.bytes.length });
}
