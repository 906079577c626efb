import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminHeader } from "~/components/admin/AdminHeader";
import { AdminTable } from "~/components/admin/AdminList";
import { OverallRiskBadge } from "~/components/risk/OverallRiskBadge";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { parseId } from "~/http/parse.server";
import { mostFollowedSuppliers } from "~/models/admin/admin.server";
import { formatCountry, MISSING } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { riskBandColor } from "~/models/suppliers/risk";
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
      <AdminTable
        list={list}
        empty={t("suppliersOverview.empty")}
        label={t("suppliersOverview.listLabel")}
        labelledBy="admin-suppliers-title"
        className="mt-6"
        tableClassName="min-w-[48rem]"
        columns={(["name", "orgNumber", "country", "followers", "highest", "average"] as const).map((c) => ({
          label: t(`suppliersOverview.columns.${c}`),
          className: c === "followers" ? "text-right" : undefined,
        }))}
        row={(row) => (
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
        )}
        pageHref={(page) => (page > 1 ? `${PATH}?page=${page}` : PATH)}
      />
    </section>
  );
}
