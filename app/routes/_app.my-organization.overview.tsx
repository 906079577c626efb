import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { uiLanguage } from "~/i18n";
import { supplierHref } from "~/components/supplier/OwnershipTree";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { TableScroll } from "~/components/ui/TableScroll";
import { requireUser } from "~/http/auth.server";
import { can } from "~/models/accounts/permissions";
import { formatCompactNok, formatMonth } from "~/models/shared/format";
import { organizationOverview } from "~/models/accounts/organization-overview.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["organization"] };

/**
 * /my-organization/overview (decision 041): the organisation's profile and counts for every member; the
 * link to its supplier screen for those who read registry data; the credit-report spending for those who see the
 * organisation's credit reports (suppliersRead).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "organizationRead");
  const overview = await organizationOverview({ organizationId: user.organizationId });
  if (!overview) throw new Response("Not Found", { status: 404 });
  const seesCredit = can(user, "suppliersRead");
  return json({
    overview: { ...overview, spending: seesCredit ? overview.spending : null },
    linksRegistry: can(user, "registryRead"),
    title: await pageTitle(request, "organization:overview.title"),
  });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function MyOrganizationOverview() {
  const { overview, linksRegistry } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("organization");
  const lng = uiLanguage(i18n.language);
  const customer = overview.kind === "customer";
  const figures: [string, number, string | null][] = [
    ["members", overview.members, "/my-organization/users"],
    ...(customer
      ? ([
          ["followedSuppliers", overview.followedSuppliers, linksRegistry ? "/suppliers" : null],
          ["openTasks", overview.openTasks, linksRegistry ? "/supplier_tasks" : null],
          ["openSurveys", overview.openSurveys, linksRegistry ? "/supplier_tasks" : null],
        ] as [string, number, string | null][])
      : []),
  ];
  const spendingTotal = overview.spending?.reduce((sum, m) => sum + m.totalNok, 0) ?? 0;
  return (
    <section aria-labelledby="org-overview-title" className="mx-auto max-w-5xl">
      <h1 id="org-overview-title" className="text-2xl font-semibold">
        {t("overview.title")}
      </h1>
      <section aria-labelledby="org-profile-heading" className="mt-6 rounded-box border border-base-300 bg-base-100 p-5">
        <h2 id="org-profile-heading" className="text-lg font-semibold">
          {overview.name}
        </h2>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-base-content/70">{t("overview.kind")}</dt>
          <dd>{t(`overview.kinds.${overview.kind}`)}</dd>
          <dt className="text-base-content/70">{t("overview.orgNumber")}</dt>
          <dd>
            {overview.orgNumber ? (
              linksRegistry ? (
                <Link to={supplierHref(overview.orgNumber)} className="link">
                  {overview.orgNumber}
                </Link>
              ) : (
                overview.orgNumber
              )
            ) : (
              <span className="text-base-content/70">{t("overview.noOrgNumber")}</span>
            )}
          </dd>
          <dt className="text-base-content/70">{t("overview.country")}</dt>
          <dd>{overview.countryCode}</dd>
        </dl>
      </section>
      <ul aria-label={t("overview.figuresLabel")} className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {figures.map(([key, value, href]) => (
          <li key={key} className="rounded-box border border-base-300 bg-base-100 p-4">
            <p className="text-sm text-base-content/70">{t(`overview.figures.${key}`)}</p>
            <p className="mt-1 text-2xl font-semibold">
              {href ? (
                <Link to={href} className="link link-hover" aria-label={`${t(`overview.figures.${key}`)}: ${value}`}>
                  {value}
                </Link>
              ) : (
                value
              )}
            </p>
          </li>
        ))}
      </ul>
      {overview.spending ? (
        <section aria-labelledby="org-spending-heading" className="mt-8">
          <h2 id="org-spending-heading" className="text-lg font-semibold">
            {t("overview.spending.heading")}
          </h2>
          <p className="mt-1 text-sm text-base-content/70">{t("overview.spending.lead", { total: formatCompactNok(spendingTotal, lng) })}</p>
          <TableScroll className="mt-2 max-w-xl rounded-box border border-base-300 bg-base-100" labelledBy="org-spending-heading">
            <table className="table table-sm">
              <thead>
                <tr>
                  <th scope="col">{t("overview.spending.month")}</th>
                  <th scope="col" className="text-right">
                    {t("overview.spending.reports")}
                  </th>
                  <th scope="col" className="text-right">
                    {t("overview.spending.amount")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {overview.spending.map((m) => (
                  <tr key={m.month}>
                    <th scope="row" className="font-normal">
                      {formatMonth(m.month, lng)}
                    </th>
                    <td className="text-right tabular-nums">{m.count}</td>
                    <td className="text-right tabular-nums">{formatCompactNok(m.totalNok, lng)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      ) : null}
    </section>
  );
}
