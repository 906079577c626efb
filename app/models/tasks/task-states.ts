/**
 * The life of a task or survey sent to a supplier (decision 031; shared/spec/02-supplier-credit-connections.md §4 Task states: submitted versus not
 * submitted). Pure: the lists, the supplier screen, the respondent pages, the reminder job and the server's transitions
 * share these rules.
 *
 *   sent ──open──▶ opened ──save──▶ draft ──submit──▶ submitted ──accept──▶ accepted
 *     │               │               │                   └──return──▶ returned ──save/submit──▶ draft / submitted
 *     └──────────── cancel (customer, until accepted) ──────────────▶ cancelled
 *
 * "Overdue" is not stored: it is an open item whose due date has passed (Oslo calendar day).
 */

export const SUPPLIER_TASK_STATUSES = ["sent", "opened", "draft", "submitted", "accepted", "returned", "cancelled"] as const;
export type TaskStatus = (typeof SUPPLIER_TASK_STATUSES)[number];

/** What the respondent still has to do something about. */
export const OPEN_STATUSES: readonly TaskStatus[] = ["sent", "opened", "draft", "returned"];

/** The statuses a list can filter on: the stored ones and "overdue". */
export const STATUS_FILTERS = [...SUPPLIER_TASK_STATUSES, "overdue"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export type TaskAction = "open" | "save" | "submit" | "accept" | "return" | "remind" | "cancel";

export function isOpen(status: TaskStatus): boolean {
  return OPEN_STATUSES.includes(status);
}

/** The Oslo calendar date (YYYY-MM-DD) of a moment: due dates are calendar days where the customer is. */
export { osloDate } from "~/models/shared/oslo-time";

/** Whole days from `from` to `to` (YYYY-MM-DD each); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export function isOverdue(item: { status: TaskStatus; dueDate: string | null }, today: string): boolean {
  return isOpen(item.status) && item.dueDate !== null && item.dueDate < today;
}

/** The status a list shows: overdue wins over the open states. */
export function displayStatus(item: { status: TaskStatus; dueDate: string | null }, today: string): StatusFilter {
  return isOverdue(item, today) ? "overdue" : item.status;
}

/** Who acts: the customer that sent it, or the supplier's respondent (a user or a link). */
export type Actor = "customer" | "respondent";

const ALLOWED: Record<TaskAction, { actor: Actor; from: readonly TaskStatus[] }> = {
  open: { actor: "respondent", from: ["sent"] },
  save: { actor: "respondent", from: ["sent", "opened", "draft", "returned"] },
  submit: { actor: "respondent", from: ["sent", "opened", "draft", "returned"] },
  accept: { actor: "customer", from: ["submitted"] },
  return: { actor: "customer", from: ["submitted"] },
  remind: { actor: "customer", from: ["sent", "opened", "draft", "returned"] },
  cancel: { actor: "customer", from: ["sent", "opened", "draft", "submitted", "returned"] },
};

export function canDo(action: TaskAction, actor: Actor, status: TaskStatus): boolean {
  const rule = ALLOWED[action];
  return rule.actor === actor && rule.from.includes(status);
}

/** The status after an action (the caller has checked `canDo`); remind changes nothing. */
export function nextStatus(action: TaskAction, status: TaskStatus): TaskStatus {
  switch (action) {
    case "open":
      return "opened";
    case "save":
      return "draft";
    case "submit":
      return "submitted";
    case "accept":
      return "accepted";
    case "return":
      return "returned";
    case "cancel":
      return "cancelled";
    case "remind":
      return status;
  }
}

/** Whether the respondent may change the answer: only while open (a submitted answer reopens only when returned). */
export function isEditableByRespondent(status: TaskStatus): boolean {
  return isOpen(status);
}

export interface ReminderSettings {
  enabled: boolean;
  /** Days before the due date, e.g. [7, 3, 1]. */
  daysBefore: number[];
  /** Days after the due date, e.g. [1]. */
  daysAfter: number[];
}

export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = { enabled: true, daysBefore: [7, 3, 1], daysAfter: [1] };

/**
 * The reminder step due for an open item today, or null: 'before:N' on the day N days before the due date, 'overdue:N'
 * N days after it. A step already sent is never due again; when the job missed a day (the server was down), the most
 * recent step that has come and not been sent is due, once — older missed steps are skipped rather than sent in a burst.
 */
export function reminderStepDue(
  item: { status: TaskStatus; dueDate: string | null; sentOn: string },
  today: string,
  settings: ReminderSettings,
  alreadySent: ReadonlySet<string>,
): string | null {
  if (!settings.enabled || !isOpen(item.status) || item.dueDate === null) return null;
  // Days relative to the due date: -7 is a week before it, 1 the day after.
  const todayRel = daysBetween(item.dueDate, today);
  const sentRel = daysBetween(item.dueDate, item.sentOn);
  const steps = [...settings.daysBefore.map((n) => ({ step: `before:${n}`, rel: -n })), ...settings.daysAfter.map((n) => ({ step: `overdue:${n}`, rel: n }))]
    // Its day has come, and (for a step before the due date) came after the item was sent: a task sent two days before
    // its due date gets no seven-day reminder.
    .filter((s) => s.rel <= todayRel && (s.rel > 0 || s.rel > sentRel))
    .sort((a, b) => b.rel - a.rel);
  const latest = steps[0];
  if (!latest || alreadySent.has(latest.step)) return null;
  return latest.step;
}
