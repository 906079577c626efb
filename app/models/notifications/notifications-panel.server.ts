import { listNotifications, type NotificationListItem, type NotificationViewer } from "~/models/notifications/notification-list.server";
import {
  NOTIFICATION_OFFSET_MAX,
  NOTIFICATION_PAGE_SIZE,
  nextOffset,
  showMoreVisible,
  type NotificationPanelQuery,
  type NotificationTypeFilter,
} from "~/models/notifications/notifications";
import { notificationQuerySchema } from "~/models/notifications/notification-query";

/**
 * The notifications slide-over as the server renders it from the URL (shared/spec/01-shell-chat-lei.md §2.4, §4), the whole panel
 * without JavaScript: `?panel=notifications` open, `nMin`, `nDays`, `nType` its filters (empty: the spec's defaults),
 * `nOffset` how many are loaded so far — "Show more" is a link that renders the longer list. With JavaScript the panel
 * opens in place and asks `GET /api/notifications` itself (components/notifications/NotificationsPanel.tsx). The shell
 * reads the parameters (`readPanelQuery` in notifications.ts) and hands them here with the viewer.
 */
/** One notification as the panel and the page show it. */
export type PanelNotification = Pick<NotificationListItem, "id" | "type" | "date" | "risk_score" | "relevance_score" | "organization" | "content">;

export interface NotificationsPanelData {
  /** The filters as typed (for the form), and the field a bad value is in. */
  filters: { minRiskScore: string; lookbackDays: string; type: NotificationTypeFilter };
  error: { field: "minRiskScore" | "lookbackDays" | "type"; message: string } | null;
  items: PanelNotification[];
  /** Spec 01 §4: advanced by the number of items each load returned. */
  offset: number;
  showMore: boolean;
  /** False for a user whose access does not cover notifications (the panel says so). */
  allowed: boolean;
}

export function toPanelNotification(n: NotificationListItem): PanelNotification {
  return {
    id: n.id,
    type: n.type,
    date: n.date,
    risk_score: n.risk_score,
    relevance_score: n.relevance_score,
    organization: n.organization,
    content: n.content,
  };
}

export async function loadNotificationsPanel(raw: NotificationPanelQuery, viewer: NotificationViewer): Promise<NotificationsPanelData> {
  const parsed = notificationQuerySchema.safeParse(raw);
  const typeShown = (["all", "announcement", "search"] as const).find((t) => t === raw.type) ?? "all";
  const filters = { minRiskScore: raw.minRiskScore, lookbackDays: raw.lookbackDays, type: typeShown };
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    // A bad offset (a hand-made link) is simply the first page; a bad filter is said next to its field.
    if (field === "offset") return loadNotificationsPanel({ ...raw, offset: "" }, viewer);
    return {
      filters,
      error: { field: field === "lookbackDays" || field === "type" ? field : "minRiskScore", message: issue?.message ?? "invalid" },
      items: [],
      offset: 0,
      showMore: false,
      allowed: true,
    };
  }
  const { offset: loadedBefore, limit: _limit, ...query } = parsed.data;
  const shown = Math.min(loadedBefore, NOTIFICATION_OFFSET_MAX);
  // The longer list: what was loaded before and the next page, in one query.
  const items = await listNotifications(viewer, query, {
    limit: shown + NOTIFICATION_PAGE_SIZE,
    offset: 0,
  });
  const returned = Math.max(0, items.length - shown);
  const offset = nextOffset(Math.min(shown, items.length), returned);
  return { filters, error: null, items: items.map(toPanelNotification), offset, showMore: showMoreVisible(items.length, offset), allowed: true };
}
