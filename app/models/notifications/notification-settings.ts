import { z } from "zod";

/**
 * A user's notification e-mails (decision 025): the digest (off, daily or weekly) and the immediate mail for
 * high-risk notifications. The form's schema, shared by the server and the browser, and the calendar rules of the
 * digest's periods. Pure.
 */

export const DIGEST_FREQUENCIES = ["off", "daily", "weekly"] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

export interface NotificationMailSettings {
  digest: DigestFrequency;
  immediate: boolean;
}

/** What a user gets before saving anything (the table's defaults): a weekly digest and the immediate mail. */
export const DEFAULT_MAIL_SETTINGS: NotificationMailSettings = { digest: "weekly", immediate: true };

/** The immediate mail: notifications from this risk score (shared/spec/01-shell-chat-lei.md §9's red band). */
export const IMMEDIATE_MIN_RISK_SCORE = 80;

/** The digest lists at most this many notifications, then "and N more". */
export const DIGEST_MAX_ITEMS = 20;

/** The digest's and the schedule's clock: the users are in Norway (decision 016). */
export const MAIL_TIME_ZONE = "Europe/Oslo";

type T = (key: string) => string;

/**
 * The rest of a user's mail settings (decision 040), for every user: reminders of tasks and of surveys sent to
 * the user's own address, and the language of their mails (null: the account's language).
 */
export interface MailPreferences {
  taskReminders: boolean;
  surveyReminders: boolean;
  mailLanguage: MailLanguage | null;
}
export const MAIL_LANGUAGES = ["en", "no"] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];
export const DEFAULT_MAIL_PREFERENCES: MailPreferences = { taskReminders: true, surveyReminders: true, mailLanguage: null };

/** The settings one unsubscribe link can turn off: exactly one each. */
export const UNSUBSCRIBE_SETTINGS = ["digest", "immediate", "taskReminders", "surveyReminders"] as const;
export type UnsubscribeSetting = (typeof UNSUBSCRIBE_SETTINGS)[number];

const checkbox = (t: T, key: string) =>
  z
    .boolean({ error: t(`account:emailSettings.errors.${key}`) })
    .optional()
    .transform((v) => v ?? false);

const preferences = (t: T) => ({
  taskReminders: checkbox(t, "reminders"),
  surveyReminders: checkbox(t, "reminders"),
  mailLanguage: z.enum(MAIL_LANGUAGES, { error: t("account:emailSettings.errors.language") }).optional(),
});

/** The form at /account/email-settings. A checkbox sends "on" when ticked and nothing when not. */
export const emailSettingsSchema = (t: T) =>
  z.object({
    digest: z.enum(DIGEST_FREQUENCIES, { error: t("account:emailSettings.errors.digest") }),
    immediate: checkbox(t, "immediate"),
    ...preferences(t),
  });

/** The same form for a user whom notification mails do not concern: reminders and language only. */
export const mailPreferencesSchema = (t: T) => z.object(preferences(t));

const osloFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: MAIL_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  weekday: "short",
});
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The calendar day on Oslo's clock at an instant: 'YYYY-MM-DD' and the ISO weekday (1 Monday … 7 Sunday). */
export function osloDay(at: Date): { date: string; weekday: number } {
  const parts = Object.fromEntries(osloFormat.formatToParts(at).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, weekday: WEEKDAYS.indexOf(parts.weekday) + 1 };
}

/** The ISO 8601 week of a calendar day: '2026-W48' (the week's Thursday decides its year). */
export function isoWeek(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  const weekday = day.getUTCDay() || 7;
  const thursday = new Date(day.getTime() + (4 - weekday) * 86_400_000);
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.floor((thursday.getTime() - yearStart) / 86_400_000 / 7) + 1;
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/**
 * The digest period a run at `at` sends for, or null when this frequency sends nothing then: daily users every day
 * (key '2026-11-24'), weekly users on Mondays, Oslo time (key '2026-W48'). One digest per user and key, ever.
 */
export function digestPeriod(frequency: DigestFrequency, at: Date): string | null {
  if (frequency === "off") return null;
  const { date, weekday } = osloDay(at);
  if (frequency === "daily") return date;
  return weekday === 1 ? isoWeek(date) : null;
}

const DAY_MS = 86_400_000;

/**
 * Where a digest's notifications start: those created since the user's previous digest, reaching back at most two
 * periods (a missed run is covered, a digest switched back on after months does not dig up old news); without a
 * previous digest, one period.
 */
export function digestSince(frequency: Exclude<DigestFrequency, "off">, at: Date, previousSentAt: string | null): string {
  const period = (frequency === "daily" ? 1 : 7) * DAY_MS;
  const floor = new Date(at.getTime() - 2 * period).toISOString();
  if (previousSentAt) return previousSentAt > floor ? previousSentAt : floor;
  return new Date(at.getTime() - period).toISOString();
}
