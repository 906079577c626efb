import type { RiskColor } from "~/models/suppliers/risk";

/**
 * The one palette of risk colours in the UI: every score, band and level of the app (the supplier screen's scores,
 * the overall risk, notifications, the overview's and the dashboard's bands) is drawn from here, so a colour means
 * the same everywhere. The models decide the colour's name (`RiskColor`: the spec's bands); only this module turns a
 * name into Tailwind classes. Badges are light fills with dark text (AA contrast; daisyUI has no lime or orange, so
 * all colours use the Tailwind palette), bars and chart fills the full colour.
 */
const BADGE: Record<RiskColor, string> = {
  green: "border-green-300 bg-green-100 text-green-900",
  lime: "border-lime-300 bg-lime-100 text-lime-900",
  yellow: "border-yellow-300 bg-yellow-100 text-yellow-900",
  orange: "border-orange-300 bg-orange-100 text-orange-900",
  red: "border-red-300 bg-red-100 text-red-900",
  neutral: "border-base-300 bg-base-200 text-base-content",
};

const BAR: Record<RiskColor, string> = {
  green: "bg-green-500",
  lime: "bg-lime-500",
  yellow: "bg-yellow-400",
  orange: "bg-orange-500",
  red: "bg-red-500",
  neutral: "bg-base-300",
};

/** The same colours as `BAR` for canvas charts, which take no classes (Tailwind's green-500, yellow-400, red-500, gray-300). */
export const CHART_FILL = { red: "#ef4444", yellow: "#facc15", green: "#22c55e", unknown: "#d1d5db" } as const;

export function badgeClass(color: RiskColor): string {
  return `badge border ${BADGE[color]}`;
}

export function barClass(color: RiskColor): string {
  return BAR[color];
}

/** A band that may not be assessed yet ("unknown"): its bar class. */
export function bandBarClass(band: "red" | "yellow" | "green" | "unknown"): string {
  return BAR[band === "unknown" ? "neutral" : band];
}
