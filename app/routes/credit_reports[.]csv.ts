import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import i18nServer from "~/i18n.server";
import { osloDateTime, osloMonth } from "~/models/credit/credit";
import { organizationCreditReports } from "~/models/credit/credit-reports.server";
import { osloDate } from "~/models/shared/oslo-time";

/**
 * GET /credit_reports.csv — the organisation's credit report orders as CSV,
 * newest first, headers in the user's language. UTF-8 with a byte order
 * mark so that Excel shows æ, ø and å; cells that start like a formula are
 * escaped (papaparse `escapeFormulae`), since company names come from outside.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  const orders = await organizationCreditReports({ organizationId: user.organizationId });
  const t = await i18nServer.getFixedT(request, "creditReports");
  const csv = Papa.unparse(
    {
      fields: [
        t("csv.date"),
        t("csv.month"),
        t("csv.company"),
        t("csv.regNo"),
        t("csv.country"),
        t("csv.language"),
        t("csv.orderedBy"),
        t("csv.priceNok"),
        t("csv.fileName"),
      ],
      data: orders.map((o) => [
        // Spreadsheet-friendly local time: Excel reads 'YYYY-MM-DD HH:mm' as a date and time.
        osloDateTime(o.createdAt),
        osloMonth(o.createdAt),
        o.companyName,
        o.regNo ?? "",
        o.countryCode,
        o.language,
        o.user.email ?? "",
        o.priceNok,
        o.fileName,
      ]),
    },
    { header: true, newline: "\r\n", escapeFormulae: true },
  );
  const response = fileDownloadResponse(`\uFEFF${csv}\r\n`, { fileName: `credit-reports-${osloDate(new Date())}.csv`, contentType: "text/csv" });
  // The byte order mark says UTF-8 to Excel; the header says it to everyone else.
  response.headers.set("Content-Type", "text/csv; charset=utf-8");
  return response;
}
