import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminHeader } from "~/components/admin/AdminHeader";
import { AdminTable } from "~/components/admin/AdminList";
import { uiLanguage } from "~/i18n";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { parseId } from "~/http/parse.server";
import { billingByOrganization, billingMonths, creditOrdersPage } from "~/models/admin/admin.server";
import { CREDIT_REPORT_PRICE_NOK, osloMonthRange, parseBillingMonth } from "~/models/credit/credit";
import { formatCompactNok, formatDate, formatMonth, formatThousands, MISSING } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
export const handle = { i18n: ["admin"] };

const PATH = "/admin/credit-reports";

/**
 * /admin/credit-reports?month=YYYY-MM (the installation's operator; decision 048): the billing basis one billing month
 * (Europe/Oslo, as /credit_reports) at a time — the list of months with their count and total, the chosen month's
 * count and total per organisation, and its orders 25 a page; every figure counted in SQL. Without `month` (or with one
 * that is no month) the newest month that has orders. CSV exports of the month and of everything
 * (/admin/credit-reports.csv). Server-rendered; plain links.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  const params = new URL(request.url).searchParams;
  const months = await billingMonths();
  const asked = params.get("month");
  const month = parseBillingMonth(asked) ?? months[0]?.month ?? null;
  const title = await pageTitle(request, "admin:creditReports.title");
  const badMonth = asked !== null && parseBillingMonth(asked) === null;
  if (!month) return json({ months, badMonth, chosen: null, title });
  const range = osloMonthRange(month);
  const [organizations, orders] = await Promise.all([billingByOrganization(range), creditOrdersPage(range, parseId(params.get("page")))]);
  return json({
    months,
    badMonth,
    chosen: { ...(months.find((m) => m.month === month) ?? { month, count: 0, totalNok: 0 }), organizations, orders },
    title,
  });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function AdminCreditReportsScreen() {
  const { months, badMonth, chosen } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("admin");
  const lng = uiLanguage(i18n.language);
  const monthHref = (month: string) => `${PATH}?month=${month}`;
  // Billing amounts exactly (NOK 1 440, not the compact NOK 1K).
  const nok = (amount: number) => t("creditReports.amount", { amount: formatThousands(amount, lng) });
  return (
    <section aria-labelledby="admin-credit-title" className="mx-auto max-w-6xl">
      <AdminHeader
        id="admin-credit-title"
        title={t("creditReports.title")}
        intro={t("creditReports.intro", { price: formatCompactNok(CREDIT_REPORT_PRICE_NOK, lng) })}
        current="creditReports"
      >
        {months.length > 0 ? (
          // Plain links: the CSV is a download, not a screen for client-side routing.
          <div className="flex flex-wrap gap-2">
            {chosen && chosen.count > 0 ? (
              <a href={`/admin/credit-reports.csv?month=${chosen.month}`} download className="btn btn-outline btn-sm">
                {t("creditReports.exportMonthCsv", { month: formatMonth(chosen.month, lng) })}
              </a>
            ) : null}
            <a href="/admin/credit-reports.csv" download className="btn btn-ghost btn-sm">
              {t("creditReports.exportAllCsv")}
            </a>
          </div>
        ) : null}
      </AdminHeader>
      {badMonth ? (
        <p role="status" className="mt-4 rounded-box border border-warning bg-warning/10 p-3 text-sm">
          {t("creditReports.badMonth")}
        </p>
      ) : null}
      {months.length === 0 || !chosen ? (
        <p className="mt-6 rounded-box border border-dashed border-base-300 bg-base-100 p-6">{t("creditReports.empty")}</p>
      ) : (
        <>
          <nav aria-labelledby="admin-credit-months" className="mt-6">
            <h2 id="admin-credit-months" className="text-lg font-semibold">
              {t("creditReports.monthsHeading")}
            </h2>
            <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
              {months.map((month) => {
                const current = month.month === chosen.month;
                return (
                  <li key={month.month}>
                    <a
                      href={monthHref(month.month)}
                      aria-current={current ? "page" : undefined}
                      className={`block rounded-box border px-3 py-2 text-sm hover:border-primary focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary ${
                        current ? "border-primary bg-primary/10 font-semibold" : "border-base-300 bg-base-100"
                      }`}
                    >
                      <span className="block">{formatMonth(month.month, lng)}</span>
                      <span className="block tabular-nums text-base-content/80">
                        {t("creditReports.monthSummary", { count: month.count, total: nok(month.totalNok) })}
                      </span>
                    </a>
                  </li>
                );
              })}
            </ul>
          </nav>
          <section aria-labelledby="admin-credit-month" className="mt-8 rounded-box border border-base-300 bg-base-100">
            <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-base-300 px-4 py-3">
              <h2 id="admin-credit-month" className="text-lg font-semibold">
                {formatMonth(chosen.month, lng)}
              </h2>
              <p className="text-sm font-semibold tabular-nums">{t("creditReports.monthSummary", { count: chosen.count, total: nok(chosen.totalNok) })}</p>
            </div>
            {chosen.organizations.length === 0 ? (
              <p className="p-4">{t("creditReports.emptyMonth", { month: formatMonth(chosen.month, lng) })}</p>
            ) : (
              <table className="table table-sm" aria-labelledby="admin-credit-month">
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
                  {chosen.organizations.map((org) => (
                    <tr key={org.organizationId}>
                      <th scope="row" className="break-words font-medium">
                        {org.organizationName}
                      </th>
                      <td className="text-right tabular-nums">{org.count}</td>
                      <td className="whitespace-nowrap text-right tabular-nums">{nok(org.totalNok)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">{t("creditReports.monthSum")}</th>
                    <td className="text-right tabular-nums">{chosen.count}</td>
                    <td className="whitespace-nowrap text-right tabular-nums">{nok(chosen.totalNok)}</td>
                  </tr>
                </tfoot>
              </table>
            )}
          </section>
          {chosen.orders.total > 0 ? (
            <section aria-labelledby="admin-credit-orders" className="mt-8">
              <h2 id="admin-credit-orders" className="text-lg font-semibold">
                {t("creditReports.ordersHeading", { month: formatMonth(chosen.month, lng) })}
              </h2>
              <AdminTable
                list={chosen.orders}
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
                    <td className="whitespace-nowrap text-right tabular-nums">{nok(order.priceNok)}</td>
                  </tr>
                )}
                pageHref={(page) => (page > 1 ? `${monthHref(chosen.month)}&page=${page}` : monthHref(chosen.month))}
              />
            </section>
          ) : null}
        </>
      )}
    </section>
  );
}
