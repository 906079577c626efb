import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { allCreditOrders } from "~/models/admin/admin.server";
import { osloDateTime, osloMonthRange, parseBillingMonth } from "~/models/credit/credit";
import { osloDate } from "~/models/shared/oslo-time";

/**
 * GET /admin/credit-reports.csv (the installation's operator) — every credit-report order of every organisation, newest
 * first, with its organisation and billing month: the billing basis; `?month=YYYY-MM` one billing month's (Europe/Oslo),
 * a value that is no month → 400 (decision 048). The conventions of /credit_reports.csv: headers in the user's
 * language, UTF-8 with a byte order mark, formula-like cells escaped; local time as 'YYYY-MM-DD HH:mm', which Excel
 * reads as a date and time.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  const asked = new URL(request.url).searchParams.get("month");
  const month = parseBillingMonth(asked);
  if (asked !== null && !month) throw errorResponse(400, "month must be a billing month, YYYY-MM");
  const orders = await allCreditOrders(month ? osloMonthRange(month) : null);
  const t = await i18nServer.getFixedT(request, "admin");
  const csv = Papa.unparse(
    {
      fields: [
        t("creditReports.csv.date"),
        t("creditReports.csv.month"),
        t("creditReports.csv.organization"),
        t("creditReports.csv.organizationId"),
        t("creditReports.csv.company"),
        t("creditReports.csv.regNo"),
        t("creditReports.csv.country"),
        t("creditReports.csv.orderedBy"),
        t("creditReports.csv.priceNok"),
      ],
      data: orders.map((o) => {
        const local = osloDateTime(o.createdAt);
        return [local, local.slice(0, 7), o.organizationName, o.organizationId, o.companyName, o.regNo ?? "", o.countryCode, o.orderedBy ?? "", o.priceNok];
      }),
    },
    { header: true, newline: "\r\n", escapeFormulae: true },
  );
  const response = fileDownloadResponse(`\uFEFF${csv}\r\n`, { fileName: `credit-billing-${month ?? osloDate(new Date())}.csv`, contentType: "text/csv" });
  // The byte order mark says UTF-8 to Excel; the header says it to everyone else.
  response.headers.set("Content-Type", "text/csv; charset=utf-8");
  return response;
}
