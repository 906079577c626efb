import type { ReactNode } from "react";
import { DashboardChart, type ChartSpec } from "~/components/dashboard/DashboardChart";
import { CHART_FILL } from "~/components/risk/colors";
import { TableScroll } from "~/components/ui/TableScroll";
import { useHydrated } from "~/components/ui/useHydrated";
import { SNAPSHOT_BANDS, type BandHistory, type SnapshotBand } from "~/models/overview/dashboard";
import { formatDate } from "~/models/shared/format";
import { useTranslation } from "~/translations";
import { BAND_ORDER, BAND_WORD } from "./dashboard-view";

/** The history table's scroll box: a region named by the table's caption that takes focus, as TableScroll's does (WCAG 2.1.1). */
const HISTORY_SCROLL = { role: "region", "aria-labelledby": "history-caption", tabIndex: 0 } as const;

/** A band's name in the user's language. */
export function useBandLabel() {
  const { t } = useTranslation("dashboard");
  return (band: SnapshotBand) => t(`bands.${BAND_WORD[band]}`);
}

/** The bands day by day: a stacked chart (once hydrated) over the table of the days a snapshot was taken. */
export function BandsHistoryCard({ history, csv }: { history: BandHistory; csv: string }) {
  const { t, i18n } = useTranslation("dashboard");
  const lng = i18n.language === "no" ? "no" : "en";
  const hydrated = useHydrated();
  const bandLabel = useBandLabel();
  const taken = history.days.filter((d) => d.counts != null);
  const bandsSpec: ChartSpec = {
    kind: "stacked",
    xLabel: t("history.day"),
    language: lng,
    days: history.days.map((d) => d.day),
    layers: BAND_ORDER.map((band) => ({ label: bandLabel(band), color: CHART_FILL[band], values: history.days.map((d) => d.counts?.[band] ?? null) })),
  };
  return (
    <Card
      id="bands"
      title={t("history.title")}
      intro={t("history.intro")}
      csv={csv}
      csvLabel={t("downloadCsvOf", { chart: t("history.title") })}
      csvText={t("downloadCsv")}
    >
      <p className="text-sm text-base-content/70" data-testid="history-since">
        {history.since ? t("history.since", { date: formatDate(history.since, lng) }) : t("history.none")}
      </p>
      {taken.length > 0 ? (
        <DashboardChart spec={bandsSpec} enabled={hydrated} showTable={t("showTable")}>
          {/* Up to 90 rows: the box scrolls (both ways) with its header row pinned, and takes focus so the keyboard can scroll it. */}
          <div {...HISTORY_SCROLL} className="max-h-96 overflow-auto rounded-box border border-base-300 focus-visible:outline-2 focus-visible:outline-primary">
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
  );
}

/**
 * A section of counts per category: a bar chart (uPlot, once hydrated) over its table, the table being the figures
 * without JavaScript and for screen readers; nothing when there are no rows.
 */
export function BarsCard({
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

export function Card({
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
export function Bar({ value, total, className, label }: { value: number; total: number; className: string; label: string }) {
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
