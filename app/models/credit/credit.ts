/**
 * Credit report constants and rules (shared/spec/02-supplier-credit-connections.md §4, §9), shared by the server
 * and the browser.
 */
import { osloInstant, osloOffsetMs } from "~/models/shared/oslo-time";

export const CREDIT_REPORT_PRICE_NOK = 80;
export const CREDIT_REPORT_WINDOW_MONTHS = 24;
export const CREDIT_SEARCH_DEBOUNCE_MS = 1000;
export const DEFAULT_CREDIT_COUNTRY = "NO";

/** The fixed country list of the order dialog, in the spec's order. */
export const CREDIT_COUNTRIES = [
  { code: "NO", name: "Norway" },
  { code: "AT", name: "Austria" },
  { code: "BE", name: "Belgium" },
  { code: "CA", name: "Canada" },
  { code: "DK", name: "Denmark" },
  { code: "FR", name: "France" },
  { code: "DE", name: "Germany" },
  { code: "IE", name: "Ireland" },
  { code: "IT", name: "Italy" },
  { code: "JP", name: "Japan" },
  { code: "LU", name: "Luxembourg" },
  { code: "MX", name: "Mexico" },
  { code: "NL", name: "Netherlands" },
  { code: "SE", name: "Sweden" },
  { code: "GB", name: "United Kingdom" },
  { code: "US", name: "United States" },
] as const;

export type CreditCountryCode = (typeof CREDIT_COUNTRIES)[number]["code"];

export function isCreditCountry(code: unknown): code is CreditCountryCode {
  return typeof code === "string" && CREDIT_COUNTRIES.some((c) => c.code === code);
}

/** The report languages in the order the selector lists them. */
export const REPORT_LANGUAGES = ["NO", "EN"] as const;
export type ReportLanguageCode = (typeof REPORT_LANGUAGES)[number];

export function isReportLanguage(code: unknown): code is ReportLanguageCode {
  return code === "NO" || code === "EN";
}

/**
 * The report language choice (shared/spec/02-supplier-credit-connections.md §4). English is always offered: it is
 * what every provider country can deliver, and the only safe answer when the
 * lookup failed (`null`). Norwegian only when the country's list has it, and
 * then it is the default.
 */
export function reportLanguageOptions(languages: readonly string[] | null): { options: ReportLanguageCode[]; selected: ReportLanguageCode } {
  // Providers write codes in either case and sometimes pad them.
  const offersNorwegian = (languages ?? []).some((code) => typeof code === "string" && code.trim().toUpperCase() === "NO");
  return offersNorwegian ? { options: ["NO", "EN"], selected: "NO" } : { options: ["EN"], selected: "EN" };
}

function toInstant(value: string | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/**
 * The first instant still inside the report window: `now` moved back
 * CREDIT_REPORT_WINDOW_MONTHS calendar months (UTC), the day clamped to the
 * month's length (29 Feb → 28 Feb two years before when that is no leap year).
 */
export function reportWindowStart(now: Date, months: number = CREDIT_REPORT_WINDOW_MONTHS): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(year, month, Math.min(now.getUTCDate(), lastDay), now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds(), now.getUTCMilliseconds()),
  );
}

/** Whether a report counts as one of the last 24 months' (shared/spec/02-supplier-credit-connections.md §9); exactly 24 months ago still does. */
export function isWithinReportWindow(createdAt: string | Date, now: Date): boolean {
  const created = toInstant(createdAt).getTime();
  return Number.isFinite(created) && created >= reportWindowStart(now).getTime();
}

// Billing months follow the customer's calendar, not UTC: an order at 23:30 UTC
// on 31 January is a February order in Oslo and is billed with February's.
const osloMonthParts = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Oslo", year: "numeric", month: "2-digit" });

/**
 * 'YYYY-MM' of an instant in Europe/Oslo time. Oslo is UTC+1 or UTC+2 (since 1980; 1945 and 1947 had UTC+3), so its month differs from the UTC
 * month only in the last two hours of a month's last UTC day; every other instant is answered from its UTC fields,
 * without the time-zone formatter (≈ 2 µs a call: 30 000 orders of the billing page spent 50 ms in it).
 */
export function osloMonth(createdAt: string | Date): string {
  const instant = toInstant(createdAt);
  const year = instant.getUTCFullYear();
  if ((instant.getUTCHours() < 22 || instant.getUTCDate() < 28) && year >= 1980 && year <= 9999) {
    return `${year}-${String(instant.getUTCMonth() + 1).padStart(2, "0")}`;
  }
  return osloMonthByFormatter(instant);
}

/** The same through the time-zone formatter: the month's last two UTC hours (and what the rule above does not cover). */
function osloMonthByFormatter(createdAt: string | Date): string {
  const parts = osloMonthParts.formatToParts(toInstant(createdAt));
  const year = parts.find((p) => p.type === "year")?.value ?? "0000";
  const month = parts.find((p) => p.type === "month")?.value ?? "00";
  return `${year}-${month}`;
}

/** A billing month as the URL gives it ('YYYY-MM', 1980–9999, the years `osloMonth` answers from UTC fields), else null. */
export function parseBillingMonth(value: string | null | undefined): string | null {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(value ?? "");
  return match && Number(match[1]) >= 1980 ? value! : null;
}

/** The instant (ms) of 00:00 in Oslo on the first day of a month (monthIndex 0–11, may overflow into the next year). */
function osloMonthStartMs(year: number, monthIndex: number): number {
  return osloInstant(year, monthIndex + 1, 1, 0, 0);
}

/**
 * The UTC range [start, end) of a billing month ('YYYY-MM', checked by parseBillingMonth): from 00:00 on its first day in
 * Oslo to 00:00 on the next month's first day, as ISO strings comparable with the stored `created_at`
 * (March 2026: 2026-02-28T23:00:00.000Z to 2026-03-31T22:00:00.000Z — summer time began on the 29th).
 */
export function osloMonthRange(month: string): { start: string; end: string } {
  const year = Number(month.slice(0, 4));
  const monthIndex = Number(month.slice(5, 7)) - 1;
  return { start: new Date(osloMonthStartMs(year, monthIndex)).toISOString(), end: new Date(osloMonthStartMs(year, monthIndex + 1)).toISOString() };
}

const DAY_MS = 86_400_000;
/** UTC day ('YYYY-MM-DD') → Oslo's offset for the whole day (ms), or null for a day on which it changes (the DST switches). */
const dayOffsets = new Map<string, number | null>();

function dayOffset(day: string, dayStartMs: number): number | null {
  let offset = dayOffsets.get(day);
  if (offset === undefined) {
    const first = osloOffsetMs(dayStartMs);
    offset = first === osloOffsetMs(dayStartMs + DAY_MS - 1000) ? first : null;
    if (dayOffsets.size > 20_000) dayOffsets.clear();
    dayOffsets.set(day, offset);
  }
  return offset;
}

/** A stored UTC ISO time ('YYYY-MM-DDTHH:mm…Z'), whose fields can be read as text. */
const UTC_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;

/**
 * 'YYYY-MM-DD HH:mm' in Oslo time (as the sv-SE formatter writes it; its first seven characters are `osloMonth`). The
 * offset is looked up once per UTC day instead of asking the time-zone formatter for every order (the CSV's 30 000
 * rows), and a stored ISO string whose Oslo time is on the same date is rewritten as text, without a Date.
 */
export function osloDateTime(createdAt: string | Date): string {
  if (typeof createdAt === "string" && UTC_ISO.test(createdAt)) {
    const day = createdAt.slice(0, 10);
    const offset = dayOffset(day, Date.parse(`${day}T00:00:00.000Z`));
    const hour = Number(createdAt.slice(11, 13)) + (offset ?? 0) / 3_600_000;
    if (offset !== null && offset % 3_600_000 === 0 && hour >= 0 && hour < 24) {
      return `${day} ${hour < 10 ? "0" : ""}${hour}${createdAt.slice(13, 16)}`;
    }
  }
  const ms = toInstant(createdAt).getTime();
  const dayStart = Math.floor(ms / DAY_MS) * DAY_MS;
  const offset = dayOffset(new Date(dayStart).toISOString().slice(0, 10), dayStart);
  const iso = new Date(ms + (offset ?? osloOffsetMs(ms))).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

export interface MonthlyTotal {
  /** 'YYYY-MM' in Europe/Oslo time. */
  month: string;
  count: number;
  totalNok: number;
}

/** Orders per billing month with their sum in whole NOK, newest month first. */
export function monthlyTotals(orders: ReadonlyArray<{ createdAt: string | Date; priceNok: number }>): MonthlyTotal[] {
  const byMonth = new Map<string, MonthlyTotal>();
  for (const order of orders) {
    const month = osloMonth(order.createdAt);
    const total = byMonth.get(month) ?? { month, count: 0, totalNok: 0 };
    total.count += 1;
    total.totalNok += order.priceNok;
    byMonth.set(month, total);
  }
  return [...byMonth.values()].sort((a, b) => (a.month < b.month ? 1 : a.month > b.month ? -1 : 0));
}

export const DEFAULT_REPORT_FILE_NAME = "credit-report.pdf";

/** The confirm form's intent (POST /credit/order); the action refuses any other with a 400. */
export const CREDIT_ORDER_INTENT = "order";
