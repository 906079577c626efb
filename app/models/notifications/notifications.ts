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

/** The panel's filters and how many it has loaded, as typed in the URL (empty: not given). */
export interface NotificationPanelQuery {
  minRiskScore: string;
  lookbackDays: string;
  type: string;
  offset: string;
}

/** A page's URL parameters without the panel's: the page the panel closes to. */
export function withoutPanelParams(search: string): URLSearchParams {
  const params = new URLSearchParams(search);
  for (const key of NOTIFICATIONS_PANEL_PARAMS) params.delete(key);
  return params;
}

/**
 * "Show more" without JavaScript: the page with the panel open on the same filters (only those given) and the
 * number loaded so far.
 */
export function panelMoreParams(page: URLSearchParams, filters: { minRiskScore: string; lookbackDays: string; type: string } | null, offset: number) {
  const params = new URLSearchParams(page);
  params.set("panel", "notifications");
  if (filters) {
    if (filters.minRiskScore) params.set("nMin", filters.minRiskScore);
    if (filters.lookbackDays) params.set("nDays", filters.lookbackDays);
    if (filters.type !== "all") params.set("nType", filters.type);
  }
  params.set("nOffset", String(offset));
  return params;
}

/** The panel's query from a page's URL parameters: `nMin`, `nDays`, `nType`, `nOffset`. */
export function readPanelQuery(params: URLSearchParams): NotificationPanelQuery {
  return {
    minRiskScore: params.get("nMin") ?? "",
    lookbackDays: params.get("nDays") ?? "",
    type: params.get("nType") ?? "",
    offset: params.get("nOffset") ?? "",
  };
}

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

/**
 * A notification's source as a link: only a web address is linked (the address comes from outside), named by its
 * source or else its host.
 */
export function sourceLink(content: { source: string | null; url: string | null }): { href: string; name: string } | null {
  if (!content.url || !/^https?:\/\//i.test(content.url)) return null;
  return { href: content.url, name: content.source ?? new URL(content.url).hostname };
}
