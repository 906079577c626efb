import { useEffect, useRef, useState, type ReactNode } from "react";
import type uPlot from "uplot";
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
  const containerRef = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  // A value key, so a parent re-render with equal points does not redraw.
  const signature = JSON.stringify(points);

  useEffect(() => {
    const el = containerRef.current;
    if (!enabled || !el) return;
    const series: RowPoint[] = JSON.parse(signature);
    let chart: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;

    (async () => {
      const [{ default: UPlot }] = await Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]);
      if (cancelled) return;
      const style = getComputedStyle(el);
      const line = style.getPropertyValue("--color-primary").trim() || "#15803d";
      const ink = style.getPropertyValue("--color-base-content").trim() || "#1f2937";
      const grid = style.getPropertyValue("--color-base-300").trim() || "#e5e7eb";
      const years = series.map((p) => p.year);
      const newest = series[series.length - 1] ?? { year: null, value: null };
      const width = () => Math.max(el.clientWidth, 200);

      const options: uPlot.Options = {
        width: width(),
        height: HEIGHT,
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
      chart = new UPlot(options, [years, series.map((p) => p.value)], el);
      setReady(true);
      observer = new ResizeObserver(() => chart?.setSize({ width: width(), height: HEIGHT }));
      observer.observe(el);
    })().catch(() => {
      // The figures table stays in place: nothing is lost without the chart.
    });

    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
      setReady(false);
    };
  }, [enabled, signature, label, yearLabel, format]);

  return (
    <div>
      <div ref={containerRef} aria-hidden="true" data-chart-ready={ready || undefined} className="w-full min-w-0" />
      <div className={ready ? "sr-only" : ""}>{children}</div>
    </div>
  );
}
