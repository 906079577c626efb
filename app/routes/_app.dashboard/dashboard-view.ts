import type { SnapshotBand } from "~/models/overview/dashboard";

/** What /dashboard draws from its data, pure: the bands' order and words, the filters as typed, the CSV links. */

/** The bands in the order they are stacked and listed: the ones that need attention first. */
export const BAND_ORDER: SnapshotBand[] = ["red", "yellow", "green", "unknown"];
export const BAND_WORD = { green: "low", yellow: "medium", red: "high", unknown: "unknown" } as const satisfies Record<SnapshotBand, string>;

/** The search parameters the dashboard's filters are kept in (the CSV links carry them over). */
export const DASHBOARD_FILTER_PARAMS = ["tag", "priority", "dd"] as const;

/** A yes/no/any filter as its select's value. */
export const flagValue = (value: boolean | null) => (value === true ? "yes" : value === false ? "no" : "");

/** The CSV of one chart with the page's filters. */
export function dashboardCsvHref(params: URLSearchParams, chart: string): string {
  const next = new URLSearchParams([...params].filter(([key]) => (DASHBOARD_FILTER_PARAMS as readonly string[]).includes(key)));
  next.set("chart", chart);
  return `/dashboard.csv?${next}`;
}
