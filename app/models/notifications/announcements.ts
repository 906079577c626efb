/** Announcements (decision 045): what users see and for how long; shared by the server model and the admin screen. */

export const ANNOUNCEMENT_TITLE_MAX = 200;
export const ANNOUNCEMENT_BODY_MAX = 2000;

/** Users see an announcement for this many days after it was published. */
export const ANNOUNCEMENT_SHOWN_DAYS = 30;

export type AnnouncementStatus = "shown" | "withdrawn" | "expired";

/** Whether users still see an announcement at `at`: withdrawn, older than ANNOUNCEMENT_SHOWN_DAYS, or shown. */
export function announcementStatus(row: { createdAt: string; withdrawnAt: string | null }, at: Date): AnnouncementStatus {
  if (row.withdrawnAt) return "withdrawn";
  return Date.parse(row.createdAt) < at.getTime() - ANNOUNCEMENT_SHOWN_DAYS * 86_400_000 ? "expired" : "shown";
}
