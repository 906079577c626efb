/**
 * The reminder settings as people type them (decision 035): a list of whole days such as "7, 3, 1". Pure, so
 * that the settings page and its tests share the rule.
 */

/** A reminder at most two months before or after the due date. */
export const MAX_REMINDER_DAY = 60;
/** At most this many reminders on each side of the due date. */
export const MAX_REMINDER_STEPS = 10;

export type DayListProblem = "notWholeDays" | "outOfRange" | "tooMany";

/**
 * Reads "7, 3, 1" (commas, semicolons or spaces between; empty means none) into distinct whole days, largest first; or
 * the problem: not whole days, outside 0–60, more than ten.
 */
export function parseDayList(text: string): { days: number[] } | { problem: DayListProblem } {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.some((p) => !/^\d{1,3}$/.test(p))) return { problem: "notWholeDays" };
  const days = [...new Set(parts.map(Number))];
  if (days.some((d) => d > MAX_REMINDER_DAY)) return { problem: "outOfRange" };
  if (days.length > MAX_REMINDER_STEPS) return { problem: "tooMany" };
  return { days: days.sort((a, b) => b - a) };
}

/** The list as the page shows it: "7, 3, 1". */
export function formatDayList(days: readonly number[]): string {
  return days.join(", ");
}
