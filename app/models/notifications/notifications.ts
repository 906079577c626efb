/**
 * Notification rules shared by the server and the browser (shared/spec/01-shell-chat-lei.md §2.4, §4, §5, §9). Pure.
 */

/** Spec 01 §9: page size 25; defaults minimum risk score 50, lookback 30 days, type all. */
export const NOTIFICATION_PAGE_SIZE = 25;
export const DEFAULT_MIN_RISK_SCORE_PANEL = 50;
export const DEFAULT_LOOKBACK_DAYS = 30;
export const DEFAULT_NOTIFICATION_TYPE = "all";
/** The most one call may ask for, and the furthest it may page (the API answers 400 beyond). */
export const NOTIFICATION_LIMIT_MAX = 100;
export const NOTIFICATION_OFFSET_MAX = 10_000;
/** The longest lookback: ten years of history is more than any list needs. */
export const LOOKBACK_DAYS_MAX = 3650;
/** A dismissal's reason: required, at most this long. */
export const DISMISS_REASON_MAX = 500;

/** The notifications panel's URL parameters (models/notifications/notifications-panel.server.ts): open, filters, how many are loaded. */
export const NOTIFICATIONS_PANEL_PARAMS = ["panel", "nMin", "nDays", "nType", "nOffset"] as const;

export const NOTIFICATION_TYPES = ["all", "announcement", "search"] as const;
export type NotificationTypeFilter = (typeof NOTIFICATION_TYPES)[number];
export const READ_FILTERS = ["all", "read", "unread"] as const;
export type NotificationReadFilter = (typeof READ_FILTERS)[number];
export const STATUS_FILTERS = ["active", "dismissed"] as const;
export type NotificationStatusFilter = (typeof STATUS_FILTERS)[number];

/**
 * Spec 01 §4, "Show more": the offset advances by the number of items returned, and the button shows while the loaded
 * count is at least the offset and above zero.
 */
export function nextOffset(offset: number, returned: number): number {
  return offset + returned;
}

export function showMoreVisible(loadedCount: number, offset: number): boolean {
  return loadedCount >= offset && loadedCount > 0;
}

/** Spec 01 §9 risk colours: from 80 red, from 60 orange, from 40 yellow, from 20 lime, lower green. */
export type RiskBand = "red" | "orange" | "yellow" | "lime" | "green";
export function riskBand(score: number): RiskBand {
  if (score >= 80) return "red";
  if (score >= 60) return "orange";
  if (score >= 40) return "yellow";
  if (score >= 20) return "lime";
  return "green";
}

/** Classes of a risk score's badge per band (the text stays dark enough on each: axe contrast). */
export const RISK_BAND_CLASSES: Record<RiskBand, string> = {
  red: "bg-red-600 text-white",
  orange: "bg-orange-500 text-black",
  yellow: "bg-yellow-300 text-black",
  lime: "bg-lime-300 text-black",
  green: "bg-green-700 text-white",
};
