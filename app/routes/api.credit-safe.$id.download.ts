import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import { requireId } from "~/http/parse.server";
import { notFound } from "~/http/responses.server";
import { openCreditReportPdf } from "~/models/credit/credit-reports.server";

/**
 * GET /api/credit-safe/{id}/download — the report PDF as an attachment under
 * its file name, for the organisation that ordered it. Another
 * organisation's report and an unknown id are the same 404, so report ids
 * cannot be probed; an id that is not a plain positive number is a 400.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  const id = requireId(params.id);
  const report = await openCreditReportPdf({ organizationId: user.organizationId, id });
  if (!report) throw notFound("No credit report with this id.");
  return fileDownloadResponse(report.stream, { fileName: report.fileName, contentType: "application/pdf", size: report.size });
}
