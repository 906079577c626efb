/**
 * Europe/Oslo wall-clock time (pure: used by the job schedules in server/ and the billing months in credit.ts). The
 * time-zone formatter is asked once per call; callers that convert many instants cache by day (see `osloDateTime`).
 */

export const OSLO_TIME_ZONE = "Europe/Oslo";

const wallClock = new Intl.DateTimeFormat("en-GB", {
  timeZone: OSLO_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** What Oslo's clock shows at an instant (ms), month 1–12. */
export function osloParts(ms: number): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts: Record<string, number> = {};
  for (const part of wallClock.formatToParts(new Date(ms))) parts[part.type] = Number(part.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** How far Oslo's wall clock is ahead of UTC at an instant (ms): one hour in winter, two in summer (since 1980). */
export function osloOffsetMs(ms: number): number {
  const p = osloParts(ms);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant Oslo's clock shows this date and time (month 1–12; Date.UTC rolls an overflowing month or day over). A
 * time skipped by the spring change falls an hour later.
 */
export function osloInstant(year: number, month: number, day: number, hour: number, minute: number): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const first = wall - osloOffsetMs(wall);
  return wall - osloOffsetMs(first);
}

const dateFormat = new Intl.DateTimeFormat("sv-SE", { timeZone: OSLO_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });

/** 'YYYY-MM-DD' on Oslo's calendar (a download's file name, a date column a spreadsheet reads as a date). */
export function osloDate(at: Date | string): string {
  return dateFormat.format(typeof at === "string" ? new Date(at) : at);
}
