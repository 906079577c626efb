import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/translations";
import { FilterSelect } from "~/components/ui/FilterSelect";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { Icon } from "~/components/ui/icons";
import { titleMeta } from "~/components/ui/meta";
import { TableScroll } from "~/components/ui/TableScroll";
import { useHydrated } from "~/components/ui/useHydrated";
import { DashboardChart, type ChartSpec } from "~/components/dashboard/DashboardChart";
import { bandBarClass, CHART_FILL } from "~/components/risk/colors";
import { requireUser } from "~/http/auth.server";
import { parseId, readQuery } from "~/http/parse.server";
import { notFound } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { isLanguage } from "~/i18n";
import { dashboard, dashboardQuery, followsAnySupplier, isOwnTag } from "~/models/overview/dashboard.server";
import { SNAPSHOT_BANDS, type SnapshotBand } from "~/models/overview/dashboard";
import { supplierListTags } from "~/models/suppliers/supplier-list.server";
import { formatDate, formatPercent } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["dashboard"] };

/** The bands in the order they are stacked and listed: the ones that need attention first. */
const BAND_ORDER: SnapshotBand[] = ["red", "yellow", "green", "unknown"];
const BAND_WORD = { green: "low", yellow: "medium", red: "high", unknown: "unknown" } as const satisfies Record<SnapshotBand, string>;
/** The history table's scroll box: a region named by the table's caption that takes focus, as TableScroll's does (WCAG 2.1.1). */
const HISTORY_SCROLL = { role: "region", "aria-labelledby": "history-caption", tabIndex: 0 } as const;

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

const flagValue = (value: boolean | null) => (value === true ? "yes" : value === false ? "no" : "");

export default function DashboardScreen() {
  const { any, data, tags, query } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("dashboard");
  const lng = i18n.language === "no" ? "no" : "en";
  const hydrated = useHydrated();
  const [params] = useSearchParams();
  const filtered = query.tagId != null || query.priority != null || query.dueDiligence != null;
  const search = params.toString();
  const flagOptions: Array<[string, string]> = [
    ["", t("any")],
    ["yes", t("yes")],
    ["no", t("no")],
  ];
  const csvHref = (chart: string) => {
    const next = new URLSearchParams([...params].filter(([key]) => ["tag", "priority", "dd"].includes(key)));
    next.set("chart", chart);
    return `/dashboard.csv?${next}`;
  };
  const percent = (count: number, total: number) => formatPercent(total > 0 ? (count * 100) / total : 0, lng);
  const bandLabel = (band: SnapshotBand) => t(`bands.${BAND_WORD[band]}`);

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

  const history = data.history;
  const taken = history.days.filter((d) => d.counts != null);
  const bandsSpec: ChartSpec = {
    kind: "stacked",
    xLabel: t("history.day"),
    language: lng,
    days: history.days.map((d) => d.day),
    layers: BAND_ORDER.map((band) => ({ label: bandLabel(band), color: CHART_FILL[band], values: history.days.map((d) => d.counts?.[band] ?? null) })),
  };
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

      <Form
        // A new URL (a filter applied, or cleared by the link) renders the selects afresh with its values.
        key={search}
        method="get"
        action="/dashboard"
        aria-label={t("filtersLabel")}
        preventScrollReset
        className="mt-5 grid grid-cols-1 gap-3 rounded-box border border-base-300 bg-base-100 p-3 sm:grid-cols-2 lg:grid-cols-[repeat(3,minmax(0,1fr))_auto] lg:items-end"
      >
        <FilterSelect
          name="tag"
          label={t("tag")}
          value={query.tagId != null ? String(query.tagId) : ""}
          options={[["", t("allTags")], ...tags.map((tag): [string, string] => [String(tag.id), tag.title])]}
        />
        <FilterSelect name="priority" label={t("priority")} value={flagValue(query.priority)} options={flagOptions} />
        <FilterSelect name="dd" label={t("dueDiligence")} value={flagValue(query.dueDiligence)} options={flagOptions} />
        <div className="flex items-center gap-2 sm:col-span-2 lg:col-span-1">
          <button type="submit" className="btn btn-primary btn-sm">
            <Icon name="search" className="size-4" />
            {t("filter")}
          </button>
          {filtered ? (
            <Link to="/dashboard" className="link link-hover text-sm whitespace-nowrap">
              {t("clearFilters")}
            </Link>
          ) : null}
        </div>
      </Form>

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

      <Card
        id="bands"
        title={t("history.title")}
        intro={t("history.intro")}
        csv={csvHref("bands")}
        csvLabel={t("downloadCsvOf", { chart: t("history.title") })}
        csvText={t("downloadCsv")}
      >
        <p className="text-sm text-base-content/70" data-testid="history-since">
          {history.since ? t("history.since", { date: formatDate(history.since, lng) }) : t("history.none")}
        </p>
        {taken.length > 0 ? (
          <DashboardChart spec={bandsSpec} enabled={hydrated} showTable={t("showTable")}>
            {/* Up to 90 rows: the box scrolls (both ways) with its header row pinned, and takes focus so the keyboard can scroll it. */}
            <div
              {...HISTORY_SCROLL}
              className="max-h-96 overflow-auto rounded-box border border-base-300 focus-visible:outline-2 focus-visible:outline-primary"
            >
              <table className="table table-sm table-pin-rows">
                <caption id="history-caption" className="sr-only">
                  {t("history.caption")}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{t("history.day")}</th>
                    {BAND_ORDER.map((band) => (
                      <th key={band} scope="col" className="text-right">
                        {bandLabel(band)}
                      </th>
                    ))}
                    <th scope="col" className="text-right">
                      {t("history.total")}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...taken].reverse().map(({ day, counts }) => (
                    <tr key={day} data-day={day}>
                      <th scope="row" className="font-normal whitespace-nowrap">
                        {formatDate(day, lng)}
                      </th>
                      {BAND_ORDER.map((band) => (
                        <td key={band} className="text-right tabular-nums">
                          {counts![band]}
                        </td>
                      ))}
                      <td className="text-right tabular-nums">{SNAPSHOT_BANDS.reduce((n, band) => n + counts![band], 0)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </DashboardChart>
        ) : null}
      </Card>

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

/**
 * A section of counts per category: a bar chart (uPlot, once hydrated) over its table, the table being the figures
 * without JavaScript and for screen readers; nothing when there are no rows.
 */
function BarsCard({
  id,
  title,
  intro,
  csv,
  xLabel,
  columns,
  numeric,
  rowHeader = 0,
  caption,
  rows,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  csv: string;
  /** The legend's name of a category. */
  xLabel: string;
  columns: string[];
  /** Which columns are right-aligned figures. */
  numeric: boolean[];
  /** The column that names the row (a row header). */
  rowHeader?: number;
  caption: string;
  /** Per category: its axis label (short), its full name and count for the chart, and the table's cells. */
  rows: Array<{ key: string; attributes: Record<string, string>; short: string; name: string; count: number; cells: ReactNode[] }>;
  children?: ReactNode;
}) {
  const { t } = useTranslation("dashboard");
  const hydrated = useHydrated();
  return (
    <Card id={id} title={title} intro={intro} csv={csv} csvLabel={t("downloadCsvOf", { chart: title })} csvText={t("downloadCsv")}>
      {rows.length > 0 ? (
        <DashboardChart
          enabled={hydrated}
          showTable={t("showTable")}
          spec={{
            kind: "bars",
            xLabel,
            labels: rows.map((r) => r.short),
            names: rows.map((r) => r.name),
            label: t("suppliersColumn"),
            values: rows.map((r) => r.count),
          }}
        >
          <TableScroll className="rounded-box border border-base-300" labelledBy={`${id}-caption`}>
            <table className="table table-sm">
              <caption id={`${id}-caption`} className="sr-only">
                {caption}
              </caption>
              <thead>
                <tr>
                  {columns.map((column, k) => (
                    <th key={column} scope="col" className={numeric[k] ? "text-right" : undefined}>
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.key} {...row.attributes}>
                    {row.cells.map((cell, k) =>
                      k === rowHeader ? (
                        <th key={k} scope="row" className="font-normal">
                          {cell}
                        </th>
                      ) : (
                        <td key={k} className={numeric[k] ? "text-right tabular-nums" : undefined}>
                          {cell}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </DashboardChart>
      ) : null}
      {children}
    </Card>
  );
}

function Card({
  id,
  title,
  intro,
  csv,
  csvLabel,
  csvText,
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  csv?: string;
  csvLabel?: string;
  csvText?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} id={id} className="mt-4 min-w-0 rounded-box border border-base-300 bg-base-100 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-lg font-semibold">
            {title}
          </h2>
          {intro ? <p className="mt-1 text-sm text-base-content/70">{intro}</p> : null}
        </div>
        {csv ? (
          // A plain link: the CSV is a download, not a screen for client-side routing.
          <a href={csv} download className="btn btn-outline btn-xs" aria-label={csvLabel} title={csvLabel}>
            {csvText}
          </a>
        ) : null}
      </div>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** A CSS bar of `value` out of `total`, with its percentage written beside it (not the bar's length alone). */
function Bar({ value, total, className, label }: { value: number; total: number; className: string; label: string }) {
  const width = total > 0 ? Math.round((value * 1000) / total) / 10 : 0;
  return (
    <div className="flex items-center gap-2">
      <div className="h-3 min-w-0 flex-1 overflow-hidden rounded-full bg-base-200" aria-hidden="true">
        <div className={`h-full ${className}`} style={{ width: `${width}%` }} />
      </div>
      <span className="w-14 shrink-0 text-right text-xs tabular-nums">{label}</span>
    </div>
  );
}
