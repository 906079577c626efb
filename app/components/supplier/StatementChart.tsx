import type { ReactNode } from "react";
import type uPlot from "uplot";
import { useUplot } from "~/components/ui/useUplot";
import type { RowPoint } from "./statement-rows";

const HEIGHT = 280;
/** Below this many pixels per year the x axis labels every other year. */
const MIN_PX_PER_YEAR = 44;

/**
 * The line chart of one statements row across the years (oldest → newest).
 * uPlot and its stylesheet are bundled by Vite and loaded only in the browser,
 * inside the effect, so the server never touches `window`. Until the chart is
 * drawn (and when JavaScript is off, or loading fails) `children` — the figures
 * as a table — are shown; once drawn the table is kept for screen readers only.
 */
export function StatementChart({
  points,
  label,
  yearLabel,
  format,
  enabled,
  children,
}: {
  points: RowPoint[];
  label: string;
  yearLabel: string;
  format: (value: number | null | undefined) => string;
  /** False during server rendering and hydration; the chart starts after. */
  enabled: boolean;
  children: ReactNode;
}) {
  // A value key, so a parent re-render with equal points does not redraw.
  const signature = JSON.stringify([points, label, yearLabel, format(1234567)]);
  const { containerRef, ready } = useUplot(enabled, signature, HEIGHT, (_UPlot, { ink, grid, primary: line }) => {
    const series = points;
    const years = series.map((p) => p.year);
    const newest = series[series.length - 1] ?? { year: null, value: null };
    const options: Omit<uPlot.Options, "width" | "height"> = {
      cursor: { drag: { x: false, y: false } },
      scales: {
        // Years are categories on a number line, not timestamps.
        x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
      },
      axes: [
        {
          stroke: ink,
          grid: { show: false },
          ticks: { stroke: grid },
          splits: (u) => {
            const step = Math.max(1, Math.ceil((years.length * MIN_PX_PER_YEAR) / Math.max(u.bbox.width / devicePixelRatio, 1)));
            return years.filter((_, i) => (years.length - 1 - i) % step === 0);
          },
          values: (_u, splits) => splits.map((v) => String(v)),
        },
        {
          stroke: ink,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid },
          values: (_u, splits) => splits.map((v) => format(v)),
          // Room for the longest tick label ('−12 345 678') at 12px.
          size: (_u, values) => (values?.length ? Math.max(...values.map((v) => v.length)) * 7 + 20 : 50),
        },
      ],
      series: [
        // Away from the plot (idx null) the legend shows the newest year instead of dashes.
        { label: yearLabel, value: (_u, v, _s, idx) => String((idx == null ? newest.year : v) ?? "—") },
        {
          label,
          stroke: line,
          width: 2,
          spanGaps: false,
          points: { show: true, size: 7, fill: line },
          value: (_u, v, _s, idx) => format(idx == null ? newest.value : v),
        },
      ],
    };
    return { options, data: [years, series.map((p) => p.value)] };
  });

  return (
    <div>
      <div ref={containerRef} aria-hidden="true" data-chart-ready={ready || undefined} className="w-full min-w-0" />
      <div className={ready ? "sr-only" : ""}>{children}</div>
    </div>
  );
}
