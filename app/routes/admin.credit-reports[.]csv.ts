import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import i18nServer from "~/i18n.server";
import { allCreditOrders } from "~/models/admin.server";
import { osloMonth } from "~/models/credit";

// Spreadsheet-friendly local time, as /credit_reports.csv: Excel reads 'YYYY-MM-DD HH:mm' as a date and time.
const osloDateTime = new Intl.DateTimeFormat("sv-SE", {
  timeZone: "Europe/Oslo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const osloDay = new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Oslo", year: "numeric", month: "2-digit", day: "2-digit" });

/**
 * GET /admin/credit-reports.csv (the installation's operator) — every credit-report order of every organisation, newest
 * first, with its organisation and billing month: the billing basis. The conventions of /credit_reports.csv: headers in
 * the user's language, UTF-8 with a byte order mark, formula-like cells escaped.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  const orders = await allCreditOrders();
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
      data: orders.map((o) => [
        osloDateTime.format(new Date(o.createdAt)),
        osloMonth(o.createdAt),
        o.organizationName,
        o.organizationId,
        o.companyName,
        o.regNo ?? "",
        o.countryCode,
        o.orderedBy ?? "",
        o.priceNok,
      ]),
    },
    { header: true, newline: "\r\n", escapeFormulae: true },
  );
  const response = fileDownloadResponse(`\uFEFF${csv}\r\n`, { fileName: `credit-billing-${osloDay.format(new Date())}.csv`, contentType: "text/csv" });
  // The byte order mark says UTF-8 to Excel; the header says it to everyone else.
  response.headers.set("Content-Type", "text/csv; charset=utf-8");
  return response;
}
