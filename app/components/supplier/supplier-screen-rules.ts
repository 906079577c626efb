import type { FigureField } from "~/models/registry/financials";

/**
 * The supplier screen's section constants and display rules (header, overview, risk, geography, intelligence,
 * announcements). No React, so they are unit-tested.
 */

/** Announcements shown before "Show all" (shared/spec/02-supplier-credit-connections.md §9). */
export const ANNOUNCEMENTS_SHOWN = 5;
/** Items per list of the collapsed supplier intelligence (shared/spec/02-supplier-credit-connections.md §9). */
export const INTELLIGENCE_COLLAPSED_ITEMS = 2;
/** How long the organisation id's 'copied' confirmation stays (shared/spec/02-supplier-credit-connections.md §9). */
export const COPIED_CONFIRMATION_MS = 500;

/** The key figures of the financial summary, in the order they are shown. */
export const SUMMARY_FIELDS: readonly FigureField[] = [
  "operating_income",
  "operating_profit",
  "ebitda",
  "net_income",
  "total_assets",
  "equity",
  "cash_and_deposits",
];

/**
 * The calendar day (UTC midnight) of `now`. The 2-year announcement window
 * works by UTC day, so the server's render and the browser's hydration agree
 * unless the page is rendered across midnight UTC.
 */
export function utcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** A 0–100 score rounded for display; null for a missing or non-finite value. */
export function displayScore(value: number | null | undefined): number | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  return Math.round(Math.min(100, Math.max(0, value)));
}

/** Locale keys of the three risk bands, so the band is written as well as coloured. */
export const BAND_LABEL_KEY = { green: "band.low", yellow: "band.medium", red: "band.high" } as const;

/** The first `limit` entries unless expanded, and how many are left out. */
export function visibleItems<T>(list: readonly T[], expanded: boolean, limit: number): { shown: T[]; hidden: number } {
  if (expanded || list.length <= limit) return { shown: [...list], hidden: 0 };
  return { shown: list.slice(0, limit), hidden: list.length - limit };
}
