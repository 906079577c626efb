import type { OverallRiskReason } from "~/models/suppliers/overall-risk";
import type { RespondentListItem } from "~/models/tasks/respondent.server";
import type { RiskBand } from "~/models/suppliers/risk";
import type { StatusFilter } from "~/models/tasks/task-states";

/**
 * The overview's constants and shapes (decision 037), shared by its loader (overview.server.ts) and its screen.
 * Pure: safe for the browser.
 */

/** How many of each list the overview shows; every list links to the full one. */
export const OVERVIEW_LIMITS = { highestRisk: 10, notifications: 5, tasks: 10, dueDiligence: 10, activity: 10, ownWork: 10 } as const;
/** Notifications of at least this risk, in this many days (the panel's defaults, shared/spec/01-shell-chat-lei.md §9). */
export const OVERVIEW_NOTIFICATION_MIN_RISK = 50;
export const OVERVIEW_NOTIFICATION_DAYS = 30;
/** "Due soon": an open item due within this many days from today. */
export const DUE_SOON_DAYS = 14;

export type BandKey = RiskBand | "unknown";

/** The bands as the overview lists them: the ones that need attention first. */
export const OVERVIEW_BANDS: BandKey[] = ["red", "yellow", "green", "unknown"];
/** The /suppliers filter of each band (decision 036); "not assessed" has none, so it links to the list sorted by risk. */
export const OVERVIEW_BAND_HREF: Record<BandKey, string> = {
  red: "/suppliers?risk=high&sort=risk&dir=desc",
  yellow: "/suppliers?risk=medium&sort=risk&dir=desc",
  green: "/suppliers?risk=low&sort=risk&dir=desc",
  unknown: "/suppliers?sort=risk&dir=asc",
};

export interface OverviewSupplier {
  connectionId: number;
  supplier: { id: number; name: string; orgNumber: string | null };
  risk: { score: number; band: RiskBand } | null;
  /** The stored reasons (decision 036), most decisive first. */
  reasons: OverallRiskReason[];
}

export interface OverviewTask {
  id: number;
  kind: "task" | "survey";
  title: string;
  dueDate: string;
  shownStatus: StatusFilter;
  supplier: { id: number; name: string; orgNumber: string | null };
}

/** The connection audit actions the overview words; any other is "changed". */
export const ACTIVITY_ACTIONS = [
  "created",
  "imported",
  "deleted",
  "contact_email",
  "tag_added",
  "tag_created",
  "tag_removed",
  "comment_added",
  "comment_deleted",
  "file_attached",
  "file_detached",
] as const;

export interface OverviewActivity {
  id: number;
  action: string;
  /** What the change was about, for the words: a tag's title, a file's name, a flag's new value. */
  detail: { title?: string; fileName?: string; to?: boolean };
  at: string;
  who: string | null;
  supplier: { id: number; name: string; orgNumber: string | null };
}

/** The words of one activity row: the action, with a flag's direction ("is_priority_on"). */
export function activityKey(a: Pick<OverviewActivity, "action" | "detail">): string {
  if (a.action === "is_priority" || a.action === "is_due_diligence") return `${a.action}_${a.detail.to ? "on" : "off"}`;
  return (ACTIVITY_ACTIONS as readonly string[]).includes(a.action) ? a.action : "other";
}

export interface CustomerOverview {
  kind: "customer";
  total: number;
  bands: Record<BandKey, number>;
  highestRisk: OverviewSupplier[];
  notifications: import("~/models/notifications/notification-list.server").NotificationListItem[];
  tasks: { overdue: number; dueSoon: number; items: OverviewTask[] };
  dueDiligence: { total: number; items: OverviewSupplier[] };
  activity: OverviewActivity[];
  creditReports: { month: string; count: number; costNok: number };
  ownWork: RespondentListItem[];
  announcements: import("~/models/notifications/announcements.server").ActiveAnnouncement[];
}

export interface RespondentOverview {
  kind: "respondent";
  announcements: import("~/models/notifications/announcements.server").ActiveAnnouncement[];
  ownWork: RespondentListItem[];
  open: number;
  overdue: number;
}
