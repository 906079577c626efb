import type { LoaderFunctionArgs, SerializeFrom } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { CreditReportDownload } from "~/components/supplier/CreditReportsSection";
import { uiLanguage } from "~/i18n";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { CREDIT_REPORT_PRICE_NOK, isCreditCountry, monthlyTotals, osloMonth } from "~/models/credit/credit";
import { organizationCreditReports } from "~/models/credit/credit-reports.server";
import { formatCompactNok, formatDate, formatMonth, MISSING } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { TableScroll } from "~/components/ui/TableScroll";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["credit", "creditReports", "supplier"] };

/**
 * /credit_reports: every credit report the session's organisation ordered,
 * newest first, grouped by billing month (Europe/Oslo) with the month's count
 * and total in NOK, and a CSV export. Server-rendered; downloads are plain
 * links, so the page needs no JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  const orders = await organizationCreditReports({ organizationId: user.organizationId });
  return json({ orders, months: monthlyTotals(orders), title: await pageTitle(request, "creditReports:title") });
}

type Order = SerializeFrom<typeof loader>["orders"][number];

export default function CreditReportsScreen() {
  const { orders, months } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("creditReports");
  const lng = uiLanguage(i18n.language);
  const byMonth = new Map<string, Order[]>();
  for (const order of orders) {
    const month = osloMonth(order.createdAt);
    byMonth.set(month, [...(byMonth.get(month) ?? []), order]);
  }
  return (
    <section aria-labelledby="credit-reports-title" className="mx-auto max-w-6xl">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id="credit-reports-title" className="text-2xl font-semibold">
            {t("title")}
          </h1>
          <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("intro", { price: formatCompactNok(CREDIT_REPORT_PRICE_NOK, lng) })}</p>
        </div>
        {orders.length > 0 ? (
          // A plain link: the CSV is a download, not a screen for client-side routing.
          <a href="/credit_reports.csv" download className="btn btn-outline btn-sm" title={t("exportCsvHint")}>
            {t("exportCsv")}
          </a>
        ) : null}
      </div>

      {orders.length === 0 ? (
        <div className="mt-6 rounded-box border border-dashed border-base-300 bg-base-100 p-8">
          <p className="font-medium">{t("empty")}</p>
          <p className="mt-2 text-sm text-base-content/70">{t("emptyHint")}</p>
        </div>
      ) : (
        <div className="mt-6 flex flex-col gap-6" aria-label={t("monthsLabel")} role="group">
          {months.map((month) => {
            const headingId = `month-${month.month}`;
            return (
              <section key={month.month} aria-labelledby={headingId} className="rounded-box border border-base-300 bg-base-100">
                <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-base-300 px-4 py-3">
                  <h2 id={headingId} className="text-base font-semibold">
                    {formatMonth(month.month, lng)}
                  </h2>
                  <p className="text-sm">
                    <span className="text-base-content/70">{t("monthCount", { count: month.count })}</span>
                    <span aria-hidden="true" className="mx-2 text-base-content/40">
                      ·
                    </span>
                    <span className="font-semibold tabular-nums">{t("monthTotal", { total: formatCompactNok(month.totalNok, lng) })}</span>
                  </p>
                </div>
                <TableScroll>
                  {/* Fixed widths line the columns up from one month's table to the next (the company gets the rest, at least 12rem); narrow screens scroll
                      sideways (browsers ignore min-width on a fixed-layout table itself, hence the wrapper). */}
                  <div className="min-w-[70rem]">
                    <table className="table table-sm table-fixed">
                      <colgroup>
                        <col className="w-28" />
                        <col />
                        <col className="w-32" />
                        <col className="w-36" />
                        <col className="w-28" />
                        <col className="w-56" />
                        <col className="w-24" />
                        <col className="w-28" />
                      </colgroup>
                      <thead>
                        <tr>
                          <th scope="col">{t("columns.date")}</th>
                          <th scope="col">{t("columns.company")}</th>
                          <th scope="col">{t("columns.regNo")}</th>
                          <th scope="col">{t("columns.country")}</th>
                          <th scope="col">{t("columns.language")}</th>
                          <th scope="col">{t("columns.orderedBy")}</th>
                          <th scope="col" className="text-right">
                            {t("columns.price")}
                          </th>
                          <th scope="col">
                            <span className="sr-only">{t("columns.file")}</span>
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {(byMonth.get(month.month) ?? []).map((order) => (
                          <tr key={order.id} className="hover:bg-base-200">
                            <td className="whitespace-nowrap">{formatDate(order.createdAt, lng)}</td>
                            <th scope="row" className="break-words font-medium">
                              {order.companyName}
                            </th>
                            <td className="whitespace-nowrap tabular-nums">{order.regNo ?? MISSING}</td>
                            <td className="whitespace-nowrap">
                              {isCreditCountry(order.countryCode) ? t(`countries.${order.countryCode}`) : order.countryCode}
                            </td>
                            <td>{t(`languages.${order.language}`)}</td>
                            <td className="break-all">{order.user.email ?? t("unknownUser")}</td>
                            <td className="whitespace-nowrap text-right tabular-nums">{formatCompactNok(order.priceNok, lng)}</td>
                            <td className="text-right">
                              <CreditReportDownload id={order.id} fileName={order.fileName} className="link link-primary whitespace-nowrap" />
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </TableScroll>
              </section>
            );
          })}
        </div>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
