import type { NotificationFilters } from "~/models/notifications/notification-list.server";
import { notificationPageQuerySchema, type NotificationPageQuery } from "~/models/notifications/notification-query";

/** The filters as they are typed in the URL (shown back in the form even when one is wrong). */
export const FILTER_KEYS = ["minRiskScore", "lookbackDays", "type", "supplier", "tag", "read", "status"] as const;

export function filtersOf(query: NotificationPageQuery): NotificationFilters {
  return {
    minRiskScore: query.minRiskScore,
    lookbackDays: query.lookbackDays,
    type: query.type,
    supplier: query.supplier,
    tagId: query.tag,
    read: query.read,
    status: query.status,
  };
}

/** The list's query from its URL: the filters as typed (`raw`) and as read (`parsed`). */
export function parsePageQuery(url: URL) {
  const raw = Object.fromEntries(FILTER_KEYS.map((key) => [key, url.searchParams.get(key) ?? ""]));
  const parsed = notificationPageQuerySchema.safeParse({ ...raw, page: url.searchParams.get("page") ?? "" });
  return { raw, parsed };
}
