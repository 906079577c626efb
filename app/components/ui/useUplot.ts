import { useEffect, useRef, useState } from "react";
import type uPlot from "uplot";

/** The page theme's colours a chart draws with, and the container's width for the chart (at least 200 px). */
export interface ChartTheme {
  ink: string;
  grid: string;
  primary: string;
  width: () => number;
}

/**
 * A uPlot chart in a container: uPlot and its stylesheet are loaded in the browser only, inside the effect (so they
 * stay out of the page's initial scripts and the server never touches `window`), the chart follows the container's
 * width, and it is destroyed on change or unmount. `build` makes the options and data from uPlot and the theme; the
 * chart is redrawn when `enabled` or `signature` (a value key of everything `build` reads) changes. `ready` turns true
 * once drawn — until then, and when loading fails, the caller's table is what the user has.
 */
export function useUplot(
  enabled: boolean,
  signature: string,
  height: number,
  build: (UPlot: typeof uPlot, theme: ChartTheme) => { options: Omit<uPlot.Options, "width" | "height">; data: uPlot.AlignedData },
) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const buildRef = useRef(build);
  buildRef.current = build;

  useEffect(() => {
    const el = containerRef.current;
    if (!enabled || !el) return;
    let chart: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;

    (async () => {
      const [{ default: UPlot }] = await Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]);
      if (cancelled) return;
      const style = getComputedStyle(el);
      const theme: ChartTheme = {
        ink: style.getPropertyValue("--color-base-content").trim() || "#1f2937",
        grid: style.getPropertyValue("--color-base-300").trim() || "#e5e7eb",
        primary: style.getPropertyValue("--color-primary").trim() || "#15803d",
        width: () => Math.max(el.clientWidth, 200),
      };
      const { options, data } = buildRef.current(UPlot, theme);
      chart = new UPlot({ ...options, width: theme.width(), height }, data, el);
      setReady(true);
      observer = new ResizeObserver(() => chart?.setSize({ width: theme.width(), height }));
      observer.observe(el);
    })().catch(() => {
      // The caller's table stays in place: nothing is lost without the chart.
    });

    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
      setReady(false);
    };
  }, [enabled, signature, height]);

  return { containerRef, ready };
}
