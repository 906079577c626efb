import type { LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { openReportPdf } from "@server/credit-files";
import { apiError } from "@server/http";
import { contentDisposition } from "@server/storage";
import { creditReportFile } from "~/models/credit-reports.server";
import { requireAnalystApiUser, requireOrganization } from "~/models/session.server";

/**
 * GET /api/credit-safe/{id}/download — the report PDF as an attachment under
 * its file name, for the organisation that ordered it. Another
 * organisation's report, an unknown id and a malformed id are all the same
 * 404, so report ids cannot be probed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const organizationId = requireOrganization(await requireAnalystApiUser(request));
  const id = /^[1-9]\d{0,15}$/.test(params.id ?? "") ? Number(params.id) : null;
  const report = id ? await creditReportFile({ organizationId, id }) : null;
  const stored = report ? await openReportPdf(report.storageKey) : null;
  if (!report || !stored) throw apiError(404, "No credit report with this id.");
  return new Response(createReadableStreamFromReadable(stored.stream), {
    status: 200,
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(stored.size),
      "Content-Disposition": contentDisposition(report.fileName),
      "X-Content-Type-Options": "nosniff",
      // Credit information about a company: never kept by shared caches.
      "Cache-Control": "private, no-store",
    },
  });
}
