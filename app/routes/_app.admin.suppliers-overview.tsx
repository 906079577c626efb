import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminHeader } from "~/components/admin/AdminHeader";
import { OverallRiskBadge } from "~/components/risk/OverallRiskBadge";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { Pagination } from "~/components/ui/Pagination";
import { TableScroll } from "~/components/ui/TableScroll";
import { requireUser } from "~/http/auth.server";
import { parseId } from "~/http/parse.server";
import { mostFollowedSuppliers } from "~/models/admin.server";
import { formatCountry, MISSING } from "~/models/format";
import { pageTitle } from "~/models/page-title.server";
import { riskBandColor } from "~/models/risk";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
/** "suppliers": the risk badge's words. */
export const handle = { i18n: ["admin", "suppliers"] };

const PATH = "/admin/suppliers-overview";

/**
 * /admin/suppliers-overview (the installation's operator): the suppliers most customer organisations follow, with the
 * overall risk stored on those customers' connections (highest and average), 25 a page. Never a customer's comments,
 * tags or other private data: the query reads only the connections' follow state and stored risk.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "admin");
  const list = await mostFollowedSuppliers({ page: parseId(new URL(request.url).searchParams.get("page")) });
  return json({ list, title: await pageTitle(request, "admin:suppliersOverview.title") });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

const badge = (score: number | null) => (score === null ? null : { score, band: riskBandColor(score) });

export default function AdminSuppliersOverviewScreen() {
  const { list } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("admin");
  return (
    <section aria-labelledby="admin-suppliers-title" className="mx-auto max-w-6xl">
      <AdminHeader id="admin-suppliers-title" title={t("suppliersOverview.title")} intro={t("suppliersOverview.intro")} current="suppliersOverview" />
      {list.rows.length === 0 ? (
        <p className="mt-6 rounded-box border border-dashed border-base-300 bg-base-100 p-6">{t("suppliersOverview.empty")}</p>
      ) : (
        <>
          <TableScroll className="mt-6 rounded-box border border-base-300 bg-base-100" labelledBy="admin-suppliers-title">
            <table className="table table-sm min-w-[48rem]" aria-label={t("suppliersOverview.listLabel")}>
              <thead>
                <tr>
                  <th scope="col">{t("suppliersOverview.columns.name")}</th>
                  <th scope="col">{t("suppliersOverview.columns.orgNumber")}</th>
                  <th scope="col">{t("suppliersOverview.columns.country")}</th>
                  <th scope="col" className="text-right">
                    {t("suppliersOverview.columns.followers")}
                  </th>
                  <th scope="col">{t("suppliersOverview.columns.highest")}</th>
                  <th scope="col">{t("suppliersOverview.columns.average")}</th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((row) => (
                  <tr key={row.organizationId}>
                    <th scope="row" className="break-words font-medium">
                      {row.name}
                    </th>
                    <td className="whitespace-nowrap tabular-nums">{row.orgNumber ?? MISSING}</td>
                    <td>{formatCountry(row.countryCode, i18n.language)}</td>
                    <td className="whitespace-nowrap text-right tabular-nums">{t("suppliersOverview.followers", { count: row.followers })}</td>
                    <td>
                      <OverallRiskBadge risk={badge(row.highestRisk)} />
                    </td>
                    <td>
                      <OverallRiskBadge risk={badge(row.averageRisk)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pagination
            page={list.page}
            pageCount={list.pageCount}
            pageSize={list.pageSize}
            shown={list.rows.length}
            total={list.total}
            href={(page) => (page > 1 ? `${PATH}?page=${page}` : PATH)}
          />
        </>
      )}
    </section>
  );
}
