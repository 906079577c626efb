import { useEffect, useRef, type ReactNode } from "react";
import { useUplot } from "~/components/ui/useUplot";
import type uPlot from "uplot";

const HEIGHT = 260;

/** The bands' fills (shared/spec/02-supplier-credit-connections.md §9; the same Tailwind colours as the risk bars of the supplier screen), bottom to top. */

export type ChartSpec =
  | {
      kind: "stacked";
      /** The legend's name of the x value ("Day"). */
      xLabel: string;
      /** The page's language, for the dates on the axis and in the legend. */
      language: "en" | "no";
      /** Days (YYYY-MM-DD), oldest first. */
      days: string[];
      /** From the bottom of the stack up: each layer's label, colour and count per day (null: no snapshot that day). */
      layers: Array<{ label: string; color: string; values: Array<number | null> }>;
    }
  | {
      kind: "bars";
      /** The legend's name of a category ("Country"). */
      xLabel: string;
      /** Short axis labels (a country code, a section letter, a regime's short name) and their full names for the legend. */
      labels: string[];
      names: string[];
      label: string;
      values: number[];
    };

/**
 * A dashboard chart drawn by uPlot, loaded only in the browser inside the effect (as the supplier screen's StatementChart
 * does), so uPlot stays out of the page's initial scripts and the server never touches `window`. The figures are always
 * in `children`, a real table: open below the chart until the chart is drawn (and for good without JavaScript), then
 * folded into a "Show as table" disclosure that any user can open.
 */
export function DashboardChart({ spec, enabled, showTable, children }: { spec: ChartSpec; enabled: boolean; showTable: string; children: ReactNode }) {
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const signature = JSON.stringify(spec);
  const { containerRef, ready } = useUplot(enabled, signature, HEIGHT, (UPlot, { ink, grid, primary }) => {
    const data = spec;
    const yAxis: uPlot.Axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, size: 40 };
    let options: Omit<uPlot.Options, "width" | "height">;
    let series: uPlot.AlignedData;

    if (data.kind === "stacked") {
      const xs = data.days.map((d) => Date.parse(`${d}T12:00:00Z`) / 1000);
      // Cumulative sums drawn as bars from the top layer down, each over the ones below, so each band is its own slice.
      const sums: Array<Array<number | null>> = [];
      data.layers.forEach((layer, i) => sums.push(layer.values.map((v, k) => (v == null ? null : v + (i > 0 ? (sums[i - 1][k] ?? 0) : 0)))));
      const order = data.layers.map((_, i) => i).reverse();
      const bars = UPlot.paths.bars!({ size: [0.8, 24], gap: 1 });
      const HALF_DAY = 43_200;
      const locale = data.language === "no" ? "nb-NO" : "en-GB";
      const dayMonth = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
      const fullDate = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
      options = {
        cursor: { drag: { x: false, y: false } },
        scales: {
          // The days shown and half a day of room on either side, so one day alone is a bar in the middle (taken from the
          // data: uPlot widens a one-point time range by itself).
          x: { time: true, range: () => [xs[0] - HALF_DAY, xs[xs.length - 1] + HALF_DAY] },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          {
            stroke: ink,
            grid: { show: false },
            ticks: { stroke: grid },
            // At most eight labelled days, evenly spaced, always on a day that has a bar's place.
            splits: () => xs.filter((_, k) => k % Math.max(1, Math.ceil(xs.length / 8)) === 0),
            values: (_u, splits) => splits.map((v) => dayMonth.format(new Date(v * 1000))),
          },
          yAxis,
        ],
        series: [
          { label: data.xLabel, value: (_u, v) => (v == null ? "—" : fullDate.format(new Date(v * 1000))) },
          ...order.map(
            (i): uPlot.Series => ({
              label: data.layers[i].label,
              stroke: data.layers[i].color,
              fill: data.layers[i].color,
              width: 0,
              paths: bars,
              points: { show: false },
              // The legend shows the band's own count, not the running sum.
              value: (_u, _v, _s, idx) => (idx == null ? "—" : String(data.layers[i].values[idx] ?? "—")),
            }),
          ),
        ],
      };
      series = [xs, ...order.map((i) => sums[i])] as uPlot.AlignedData;
    } else {
      const xs = data.labels.map((_, i) => i);
      options = {
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          {
            stroke: ink,
            grid: { show: false },
            ticks: { stroke: grid },
            splits: () => xs,
            values: (_u, splits) => splits.map((i) => data.labels[i] ?? ""),
          },
          yAxis,
        ],
        series: [
          { label: data.xLabel, value: (_u, v) => (v == null ? "—" : (data.names[v] ?? "")) },
          {
            label: data.label,
            stroke: primary,
            fill: primary,
            width: 0,
            paths: UPlot.paths.bars!({ size: [0.7, 48] }),
            points: { show: false },
            value: (_u, v) => (v == null ? "—" : String(v)),
          },
        ],
      };
      series = [xs, data.values];
    }
    return { options, data: series };
  });

  // Once the chart is drawn, the table folds away (still one click or key press from anyone).
  useEffect(() => {
    if (ready && detailsRef.current) detailsRef.current.open = false;
  }, [ready]);

  return (
    <div>
      <div ref={containerRef} aria-hidden="true" data-chart-ready={ready || undefined} className="w-full min-w-0" />
      <details ref={detailsRef} open className="mt-2">
        <summary className="cursor-pointer text-sm link link-hover w-fit">{showTable}</summary>
        <div className="mt-2">{children}</div>
      </details>
    </div>
  );
}
