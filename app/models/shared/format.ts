import type { Language } from "~/i18n";

/**
 * The one place dates, numbers and currency are turned into text (docs/architecture.md).
 * Used by loaders and components alike, so the server-rendered HTML and the
 * hydrated page agree character for character.
 *
 * Locale choice: numbers take the UI language ('en' | 'no') as is. ICU resolves
 * 'no' to Norwegian Bokmål, which groups thousands with a no-break space
 * (U+00A0) and writes minus as U+2212; 'en' groups with a comma. Dates, months
 * and country names go through `INTL_LOCALE`: en-GB ('12 Sept 2026') and nb-NO
 * ('12. sep. 2026', 'mars', 'juni' unabbreviated as ICU writes them). Output is
 * whatever Intl gives — tests pin the exact characters, and Node's ICU and the
 * browser's agree (a hydration mismatch would fail the e2e tests).
 */

/** Shown for every missing value (shared/spec/01-shell-chat-lei.md §9 "a dash"; shared/spec/02-supplier-credit-connections.md asks for an em dash in the statements). */
export const MISSING = "—";

type Num = number | null | undefined;

function isNum(value: Num): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

// Intl formatter construction is the expensive part; tables format hundreds of cells.
const cache = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = locale + JSON.stringify(options);
  let nf = cache.get(key);
  if (!nf) {
    nf = new Intl.NumberFormat(locale, options);
    cache.set(key, nf);
  }
  return nf;
}

/** A figure already in NOK thousands, rounded to a whole number: 12345.6 → '12,346' (en), '12 346' (no). */
export function formatThousands(value: Num, locale: Language = "en"): string {
  if (!isNum(value)) return MISSING;
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/**
 * French number formatting of the full statements (shared/spec/02-supplier-credit-connections.md §2): fr-FR groups with
 * a narrow no-break space (U+202F) and uses a decimal comma; missing values show
 * an em dash. `options` may change the fraction digits (Intl default: up to 3).
 */
export function formatFrenchNumber(value: Num, options: Intl.NumberFormatOptions = {}): string {
  if (!isNum(value)) return MISSING;
  return numberFormat("fr-FR", options).format(value);
}

/** A value already in percent (12.34 means 12.34 %) with exactly 1 decimal. */
export function formatPercent(value: Num, locale: Language = "en"): string {
  if (!isNum(value)) return MISSING;
  return numberFormat(locale, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value / 100);
}

/**
 * Ownership in percent with exactly 2 decimals (shareholders, company shares,
 * ownership tree). The tree carries a 0..1 ownershipFraction: pass fraction × 100.
 */
export function formatOwnership(value: Num, locale: Language = "en"): string {
  if (!isNum(value)) return MISSING;
  return numberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value / 100);
}

/** Whole NOK (not thousands) in compact notation without decimals: 'NOK 12K', '12k kr'. */
export function formatCompactNok(value: Num, locale: Language = "en"): string {
  if (!isNum(value)) return MISSING;
  return numberFormat(locale, {
    style: "currency",
    currency: "NOK",
    notation: "compact",
    maximumFractionDigits: 0,
  }).format(value);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The product's users are in Norway; a fixed zone also keeps server and browser output identical. */
export const DISPLAY_TIME_ZONE = "Europe/Oslo";

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** The Intl locale of each UI language: en-GB dates for English (shared/spec/02-supplier-credit-connections.md §9), Norwegian Bokmål for Norwegian. */
export const INTL_LOCALE: Record<Language, string> = { en: "en-GB", no: "nb-NO" };

/** i18next's current language (any string) as the Intl locale: 'no' is Norwegian, anything else English (the fallback, shared/spec/01-shell-chat-lei.md §1). */
function intlLocale(language: string | undefined): string {
  return language === "no" ? INTL_LOCALE.no : INTL_LOCALE.en;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = locale + JSON.stringify(options);
  let df = dateFormats.get(key);
  if (!df) {
    df = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, df);
  }
  return df;
}

/**
 * Day, short month, year — the en-GB pattern of shared/spec/02-supplier-credit-connections.md §9 — in the UI
 * language: '12 Sept 2026' (en-GB), '12. sep. 2026' (nb-NO). A bare YYYY-MM-DD
 * is a calendar date and is shown as that day in any zone; timestamps are
 * shown in `timeZone`. `locale` is the UI language (i18next's `i18n.language`).
 */
export function formatDate(value: string | number | Date | null | undefined, locale: Language | string = "en", timeZone: string = DISPLAY_TIME_ZONE): string {
  if (value === null || value === undefined || value === "") return MISSING;
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return MISSING;
  const zone = typeof value === "string" && DATE_ONLY.test(value) ? "UTC" : timeZone;
  return dateFormat(intlLocale(locale), { day: "numeric", month: "short", year: "numeric", timeZone: zone }).format(date);
}

/**
 * A moment with its time of day, for a tooltip beside a relative time: the date as `formatDate` writes it and
 * hours:minutes in `timeZone` — '12 Sept 2026, 14:05' (en-GB), '12. sep. 2026, 14:05' (nb-NO).
 */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  locale: Language | string = "en",
  timeZone: string = DISPLAY_TIME_ZONE,
): string {
  if (value === null || value === undefined || value === "") return MISSING;
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return MISSING;
  return dateFormat(intlLocale(locale), {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(date);
}

/** A 'YYYY-MM' month in words: 'March 2026' (en-GB), 'mars 2026' (nb-NO); anything else is returned as it came. */
export function formatMonth(month: string, locale: Language | string = "en"): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  return dateFormat(intlLocale(locale), { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)),
  );
}

/**
 * A country's name from its ISO 3166-1 alpha-2 code in the UI language
 * ('SE' → 'Sweden' / 'Sverige'); a missing code gives the dash, an unknown one
 * is shown as it came.
 */
export function formatCountry(code: string | null | undefined, locale: Language | string = "en"): string {
  const iso = code?.trim().toUpperCase();
  if (!iso) return MISSING;
  if (!/^[A-Z]{2}$/.test(iso)) return code!.trim();
  try {
    return new Intl.DisplayNames([intlLocale(locale)], { type: "region", fallback: "code" }).of(iso) ?? iso;
  } catch {
    return iso;
  }
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Largest unit first; months and years are averages, exact enough for "3 months ago". */
const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * DAY],
  ["month", 30 * DAY],
  ["week", 7 * DAY],
  ["day", DAY],
  ["hour", HOUR],
  ["minute", MINUTE],
  ["second", SECOND],
];

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
function relativeFormat(locale: string, numeric: "auto" | "always"): Intl.RelativeTimeFormat {
  const key = `${locale}:${numeric}`;
  let rtf = relativeFormats.get(key);
  if (!rtf) {
    rtf = new Intl.RelativeTimeFormat(locale, { numeric });
    relativeFormats.set(key, rtf);
  }
  return rtf;
}

/**
 * Relative time of `value` seen from `now` (shared/spec/01-shell-chat-lei.md §9), through `Intl.RelativeTimeFormat` in the UI language
 * (en-GB / nb-NO, as the dates): '3 hours ago' / 'for 3 timer siden', 'in 2 days' / 'om 2 døgn'. The largest
 * unit among seconds … years that fits at least once, truncated toward zero ('59 seconds ago', never '60
 * seconds ago').
 *
 * `numeric: "always"` except for the zero second: units are elapsed durations, not calendar days, so the
 * words 'auto' would bring ('yesterday', 'last week', 'last year') could be wrong — 40 hours ago may be two
 * calendar days back, and 1 month of 30 days is not 'last month' on the 31st. Under a second reads 'now' /
 * 'nå' rather than '0 seconds ago'.
 *
 * `now` is a parameter, never read from the clock here: the server renders with its time of the request and
 * sends it to the browser (the loader's `now`), so the hydrated page says the same thing as the HTML.
 * Missing or invalid input gives the dash.
 */
export function formatRelativeTime(value: string | number | Date | null | undefined, now: Date | string, locale: Language | string = "en"): string {
  if (value === null || value === undefined || value === "") return MISSING;
  const date = toDate(value);
  const from = toDate(now);
  if (Number.isNaN(date.getTime()) || Number.isNaN(from.getTime())) return MISSING;
  const diff = date.getTime() - from.getTime();
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === "second") {
      // 'auto' only names 0 among seconds ('now'); `+ 0` turns -0 into 0 so it applies.
      return relativeFormat(intlLocale(locale), unit === "second" ? "auto" : "always").format(Math.trunc(diff / ms) + 0, unit);
    }
  }
  return MISSING;
}

/** Norwegian postal codes are 4 digits; the registry sometimes stores them as numbers (155 → '0155'). */
export function padPostalCode(code: string | number | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  if (typeof code === "number" && !Number.isFinite(code)) return null;
  const text = String(code).trim();
  return text === "" ? null : text.padStart(4, "0");
}

export interface AddressParts {
  street_address?: string | null;
  street_postal_code?: string | number | null;
  street_postal_area?: string | null;
}

/**
 * 'Street 1, 0155 OSLO' when street, postal code and postal area are all present;
 * otherwise null, and the caller shows 'Address information incomplete' (shared/spec/02-supplier-credit-connections.md §2).
 */
export function formatAddress(parts: AddressParts): string | null {
  const street = parts.street_address?.trim();
  const code = padPostalCode(parts.street_postal_code);
  const area = parts.street_postal_area?.trim();
  if (!street || !code || !area) return null;
  return `${street}, ${code} ${area}`;
}
