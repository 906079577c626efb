import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { bandBarClass } from "~/components/risk/colors";
import { requireUser } from "~/http/auth.server";
import { parseId, readQuery } from "~/http/parse.server";
import { notFound } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { isLanguage } from "~/i18n";
import { dashboard, followsAnySupplier, isOwnTag } from "~/models/overview/dashboard.server";
import { dashboardQuery } from "~/models/overview/dashboard";
import { supplierListTags } from "~/models/suppliers/supplier-list.server";
import { formatPercent } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { DashboardFilters } from "./dashboard-filters";
import { Bar, BandsHistoryCard, BarsCard, Card, useBandLabel } from "./dashboard-sections";
import { BAND_ORDER, dashboardCsvHref } from "./dashboard-view";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["dashboard"] };

/**
 * /dashboard: the portfolio's risk at a glance (decision 038). One loader; the filters are one GET form (tag,
 * priority, due diligence) that every section honours, and each section's data is also a CSV (/dashboard.csv?chart=…).
 * Each chart has its figures in a real table, the whole page without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  const { tag, priority, dueDiligence } = readQuery(request, dashboardQuery);
  const tagId = parseId(tag);
  // Another organisation's tag (or none at all) is not a filter of this one.
  if (tagId != null && !(await isOwnTag(user.organizationId, tagId))) throw notFound("No such tag in your organization.");
  const locale = await i18nServer.getLocale(request);
  const filters = { organizationId: user.organizationId, tagId, priority, dueDiligence, language: isLanguage(locale) ? locale : ("en" as const) };
  const [any, data, tags, title] = await Promise.all([
    followsAnySupplier(user.organizationId),
    dashboard(filters),
    supplierListTags({ organizationId: user.organizationId }),
    pageTitle(request, "dashboard:title"),
  ]);
  return json({ any, data, tags, title, query: { tagId, priority, dueDiligence } });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function DashboardScreen() {
  const { any, data, tags, query } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("dashboard");
  const lng = i18n.language === "no" ? "no" : "en";
  const [params] = useSearchParams();
  const filtered = query.tagId != null || query.priority != null || query.dueDiligence != null;
  const search = params.toString();
  const csvHref = (chart: string) => dashboardCsvHref(params, chart);
  const percent = (count: number, total: number) => formatPercent(total > 0 ? (count * 100) / total : 0, lng);
  const bandLabel = useBandLabel();

  const header = (
    <div>
      <h1 id="dashboard-title" className="text-2xl font-semibold">
        {t("title")}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("intro")}</p>
    </div>
  );

  if (!any) {
    return (
      <section aria-labelledby="dashboard-title" className="mx-auto max-w-6xl">
        {header}
        <div className="mt-5 rounded-box border border-dashed border-base-300 bg-base-100 p-8">
          <p className="font-medium">{t("empty")}</p>
          <p className="mt-2 text-sm text-base-content/70">{t("emptyHint")}</p>
          <Link to="/suppliers" className="btn btn-primary btn-sm mt-4">
            {t("emptyLink")}
          </Link>
        </div>
      </section>
    );
  }

  const countryName = (c: { code: string | null; name: string | null }) => (c.code == null ? t("countries.other") : (c.name ?? c.code));
  const industryName = (section: string | null) => (section == null ? t("industries.unknown") : t(`industries.${section}`));
  const regimes = [
    ["arp", data.regimes.arp],
    ["transparencyAct", data.regimes.transparencyAct],
    ["csrd", data.regimes.csrd],
  ] as const;

  return (
    <section aria-labelledby="dashboard-title" className="mx-auto max-w-6xl">
      {header}

      <DashboardFilters search={search} filtered={filtered} tags={tags} query={query} />

      <p role="status" className="mt-3 text-sm text-base-content/70" data-testid="dashboard-total">
        {filtered ? t("countFiltered", { count: data.total }) : t("count", { count: data.total })}
      </p>
      {data.total === 0 ? <p className="mt-1 text-sm">{t("noResults")}</p> : null}

      <div className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Card id="today" title={t("today.title")}>
          <table className="table table-sm">
            <caption className="sr-only">{t("today.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("today.level")}</th>
                <th scope="col" className="text-right">
                  {t("suppliersColumn")}
                </th>
                <th scope="col" className="w-1/2">
                  <span className="sr-only">{t("shareColumn")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {BAND_ORDER.map((band) => (
                <tr key={band} data-band={band}>
                  <th scope="row" className="font-normal">
                    {bandLabel(band)}
                  </th>
                  <td className="text-right tabular-nums">{data.today[band]}</td>
                  <td>
                    <Bar value={data.today[band]} total={data.total} className={bandBarClass(band)} label={percent(data.today[band], data.total)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>

        <Card
          id="due-diligence"
          title={t("dd.title")}
          csv={csvHref("due-diligence")}
          csvLabel={t("downloadCsvOf", { chart: t("dd.title") })}
          csvText={t("downloadCsv")}
        >
          <p className="text-sm" data-testid="dd-summary">
            {t("dd.summary", {
              count: data.dueDiligence.count,
              total: data.dueDiligence.total,
              percent: percent(data.dueDiligence.count, data.dueDiligence.total),
            })}
          </p>
          <div className="mt-3">
            <Bar
              value={data.dueDiligence.count}
              total={data.dueDiligence.total}
              className="bg-info"
              label={percent(data.dueDiligence.count, data.dueDiligence.total)}
            />
          </div>
        </Card>
      </div>

      <BandsHistoryCard history={data.history} csv={csvHref("bands")} />

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <BarsCard
          id="countries"
          title={t("countries.title")}
          intro={t("countries.intro")}
          csv={csvHref("countries")}
          xLabel={t("countries.country")}
          columns={[t("countries.country"), t("countries.riskScore"), t("suppliersColumn")]}
          numeric={[false, true, true]}
          caption={t("countries.caption")}
          rows={data.countries.map((c) => ({
            key: c.code ?? "other",
            attributes: { "data-country": c.code ?? "other" },
            short: c.code ?? "…",
            name: countryName(c),
            count: c.count,
            cells: [countryName(c), c.riskScore ?? (c.code == null ? "" : t("countries.unknownRisk")), c.count],
          }))}
        />

        <BarsCard
          id="industries"
          title={t("industries.title")}
          intro={t("industries.intro")}
          csv={csvHref("industries")}
          xLabel={t("industries.industry")}
          columns={[t("industries.section"), t("industries.industry"), t("suppliersColumn")]}
          numeric={[false, false, true]}
          rowHeader={1}
          caption={t("industries.caption")}
          rows={data.industries.map((r) => ({
            key: r.section ?? "unknown",
            attributes: { "data-section": r.section ?? "unknown" },
            short: r.section ?? "?",
            name: industryName(r.section),
            count: r.count,
            cells: [r.section ?? "", industryName(r.section), r.count],
          }))}
        />
      </div>

      <BarsCard
        id="regimes"
        title={t("regimes.title")}
        intro={t("regimes.intro")}
        csv={csvHref("regimes")}
        xLabel={t("regimes.regime")}
        columns={[t("regimes.regime"), t("suppliersColumn"), t("shareColumn")]}
        numeric={[false, true, true]}
        caption={t("regimes.caption")}
        rows={regimes.map(([key, count]) => ({
          key,
          attributes: { "data-regime": key },
          short: t(`regimes.${key}`),
          name: t(`regimes.${key}`),
          count,
          cells: [t(`regimes.${key}`), count, percent(count, data.total)],
        }))}
      >
        {data.total > data.regimes.assessed ? (
          <p className="mt-2 text-sm text-base-content/70">{t("regimes.notAssessed", { count: data.total - data.regimes.assessed })}</p>
        ) : null}
      </BarsCard>
    </section>
  );
}
