import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminHeader } from "~/components/admin/AdminHeader";
import { AdminTable } from "~/components/admin/AdminList";
import { uiLanguage } from "~/components/supplier/main-helpers";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { parseId } from "~/http/parse.server";
import { pageWindow } from "~/models/admin";
import { allCreditOrders, billingByMonth } from "~/models/admin.server";
import { CREDIT_REPORT_PRICE_NOK } from "~/models/credit";
import { formatCompactNok, formatDate, formatMonth, MISSING } from "~/models/format";
import { pageTitle } from "~/models/page-title.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
export const handle = { i18n: ["admin"] };

const PATH = "/admin/credit-reports";

/**
 * /admin/credit-reports (the installation's operator): the billing basis — every credit-report order of every
 * organisation, per billing month (Europe/Oslo, as /credit_reports) and organisation with count and total, then the
 * orders themselves, 25 a page; a CSV export (/admin/credit-reports.csv). Server-rendered; plain links.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  const orders = await allCreditOrders();
  const window = pageWindow(orders.length, parseId(new URL(request.url).searchParams.get("page")));
  return json({
    months: billingByMonth(orders),
    orders: { ...window, total: orders.length, rows: orders.slice(window.offset, window.offset + window.pageSize) },
    title: await pageTitle(request, "admin:creditReports.title"),
  });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function AdminCreditReportsScreen() {
  const { months, orders } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("admin");
  const lng = uiLanguage(i18n.language);
  return (
    <section aria-labelledby="admin-credit-title" className="mx-auto max-w-6xl">
      <AdminHeader
        id="admin-credit-title"
        title={t("creditReports.title")}
        intro={t("creditReports.intro", { price: formatCompactNok(CREDIT_REPORT_PRICE_NOK, lng) })}
        current="creditReports"
      >
        {orders.total > 0 ? (
          // A plain link: the CSV is a download, not a screen for client-side routing.
          <a href="/admin/credit-reports.csv" download className="btn btn-outline btn-sm">
            {t("creditReports.exportCsv")}
          </a>
        ) : null}
      </AdminHeader>
      {orders.total === 0 ? (
        <p className="mt-6 rounded-box border border-dashed border-base-300 bg-base-100 p-6">{t("creditReports.empty")}</p>
      ) : (
        <>
          <div className="mt-6 grid gap-4 lg:grid-cols-2">
            {months.map((month) => {
              const headingId = `billing-${month.month}`;
              return (
                <section key={month.month} aria-labelledby={headingId} className="rounded-box border border-base-300 bg-base-100">
                  <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-base-300 px-4 py-3">
                    <h2 id={headingId} className="text-base font-semibold">
                      {formatMonth(month.month, lng)}
                    </h2>
                    <p className="text-sm font-semibold tabular-nums">
                      {t("creditReports.monthSummary", { count: month.count, total: formatCompactNok(month.totalNok, lng) })}
                    </p>
                  </div>
                  <table className="table table-sm">
                    <thead>
                      <tr>
                        <th scope="col">{t("creditReports.columns.organization")}</th>
                        <th scope="col" className="text-right">
                          {t("creditReports.columns.count")}
                        </th>
                        <th scope="col" className="text-right">
                          {t("creditReports.columns.total")}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {month.organizations.map((org) => (
                        <tr key={org.organizationId}>
                          <th scope="row" className="break-words font-medium">
                            {org.organizationName}
                          </th>
                          <td className="text-right tabular-nums">{org.count}</td>
                          <td className="whitespace-nowrap text-right tabular-nums">{formatCompactNok(org.totalNok, lng)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </section>
              );
            })}
          </div>
          <section aria-labelledby="admin-credit-orders" className="mt-8">
            <h2 id="admin-credit-orders" className="text-lg font-semibold">
              {t("creditReports.ordersHeading")}
            </h2>
            <AdminTable
              list={orders}
              labelledBy="admin-credit-orders"
              className="mt-3"
              tableClassName="min-w-[52rem]"
              columns={(["date", "organization", "company", "regNo", "orderedBy", "price"] as const).map((c) => ({
                label: t(`creditReports.ordersColumns.${c}`),
                className: c === "price" ? "text-right" : undefined,
              }))}
              row={(order) => (
                <tr key={order.id}>
                  <td className="whitespace-nowrap">{formatDate(order.createdAt, lng)}</td>
                  <td className="break-words">{order.organizationName}</td>
                  <th scope="row" className="break-words font-medium">
                    {order.companyName}
                  </th>
                  <td className="whitespace-nowrap tabular-nums">{order.regNo ?? MISSING}</td>
                  <td className="break-all">{order.orderedBy ?? t("creditReports.unknownUser")}</td>
                  <td className="whitespace-nowrap text-right tabular-nums">{formatCompactNok(order.priceNok, lng)}</td>
                </tr>
              )}
              pageHref={(page) => (page > 1 ? `${PATH}?page=${page}` : PATH)}
            />
          </section>
        </>
      )}
    </section>
  );
}
