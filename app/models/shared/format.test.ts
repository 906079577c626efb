import { describe, expect, it } from "vitest";
import {
  MISSING,
  formatAddress,
  formatCompactNok,
  formatCountry,
  formatDate,
  formatMonth,
  formatFrenchNumber,
  formatOwnership,
  formatPercent,
  formatDateTime,
  formatRelativeTime,
  formatThousands,
  padPostalCode,
  type AddressParts,
} from "~/models/shared/format";

// The exact characters Intl (ICU) writes; spelled out so a test failure shows which one changed.
const NBSP = "\u00a0"; // no-break space: Norwegian grouping, before '%' and 'kr'
const NNBSP = "\u202f"; // narrow no-break space: fr-FR grouping
const MINUS = "\u2212"; // Norwegian minus sign

describe("MISSING", () => {
  it("is an em dash", () => {
    expect(MISSING).toBe("—");
  });
});

describe("formatThousands (whole thousands, UI locale)", () => {
  it.each([
    [12345.6, "en", "12,346"],
    [12345.6, "no", `12${NBSP}346`],
    [-12345.4, "en", "-12,345"],
    [-12345.4, "no", `${MINUS}12${NBSP}345`],
    [999.5, "en", "1,000"],
    [1234567, "no", `1${NBSP}234${NBSP}567`],
    [0, "en", "0"],
    [null, "en", "—"],
    [undefined, "no", "—"],
    [Number.NaN, "en", "—"],
  ] as const)("%s (%s) → %j", (value, locale, expected) => {
    expect(formatThousands(value, locale)).toBe(expected);
  });
});

describe("formatFrenchNumber (fr-FR, em dash when missing)", () => {
  it.each([
    [1234567.891, `1${NNBSP}234${NNBSP}567,891`],
    [-1234.5, `-1${NNBSP}234,5`],
    [1000000, `1${NNBSP}000${NNBSP}000`],
    [1234, `1${NNBSP}234`],
    [0.5, "0,5"],
    [0, "0"],
    [null, "—"],
    [undefined, "—"],
    [Number.NaN, "—"],
  ] as const)("%s → %j", (value, expected) => {
    expect(formatFrenchNumber(value)).toBe(expected);
  });

  it("takes Intl options for the fraction digits", () => {
    expect(formatFrenchNumber(1234567.891, { maximumFractionDigits: 0 })).toBe(`1${NNBSP}234${NNBSP}568`);
    expect(formatFrenchNumber(12.5, { minimumFractionDigits: 1, maximumFractionDigits: 1 })).toBe("12,5");
  });
});

describe("formatPercent (value in percent, 1 decimal)", () => {
  it.each([
    [12.345, "en", "12.3%"],
    [12.345, "no", `12,3${NBSP}%`],
    [-4.06, "en", "-4.1%"],
    [-4.06, "no", `${MINUS}4,1${NBSP}%`],
    [0, "en", "0.0%"],
    [100, "en", "100.0%"],
    [null, "en", "—"],
    [Number.NaN, "no", "—"],
  ] as const)("%s (%s) → %j", (value, locale, expected) => {
    expect(formatPercent(value, locale)).toBe(expected);
  });
});

describe("formatOwnership (percent, 2 decimals)", () => {
  it.each([
    [45.5, "en", "45.50%"],
    [45.5, "no", `45,50${NBSP}%`],
    [100, "en", "100.00%"],
    [33.33333, "en", "33.33%"],
    [0.004, "en", "0.00%"],
    // ownership tree: ownershipFraction 0.5125 × 100
    [0.5125 * 100, "en", "51.25%"],
    [null, "en", "—"],
  ] as const)("%s (%s) → %j", (value, locale, expected) => {
    expect(formatOwnership(value, locale)).toBe(expected);
  });
});

describe("formatCompactNok (currency NOK, compact, no decimals)", () => {
  it.each([
    [0, "en", `NOK${NBSP}0`],
    [950, "en", `NOK${NBSP}950`],
    [12345, "en", `NOK${NBSP}12K`],
    [1234567, "en", `NOK${NBSP}1M`],
    [2500000000, "en", `NOK${NBSP}3B`],
    [-45000000, "en", `-NOK${NBSP}45M`],
    [950, "no", `950${NBSP}kr`],
    [12345, "no", `12k${NBSP}kr`],
    [1234567, "no", `1${NBSP}mill.${NBSP}kr`],
    [2500000000, "no", `3${NBSP}mrd.${NBSP}kr`],
    [-45000000, "no", `${MINUS}45${NBSP}mill.${NBSP}kr`],
    [null, "en", "—"],
  ] as const)("%s (%s) → %j", (value, locale, expected) => {
    expect(formatCompactNok(value, locale)).toBe(expected);
  });
});

describe("formatDate (en-GB day short-month year)", () => {
  it.each<[string | number | Date | null | undefined, string | undefined, string]>([
    ["2024-03-05", undefined, "5 Mar 2024"],
    ["2024-12-31", undefined, "31 Dec 2024"],
    // CLDR's en-GB abbreviation for September has four letters
    ["2024-09-05", undefined, "5 Sept 2024"],
    // bare dates are calendar dates: never shifted by the zone
    ["2024-03-05", "America/Los_Angeles", "5 Mar 2024"],
    ["2024-03-05", "Pacific/Kiritimati", "5 Mar 2024"],
    // timestamps are shown in Norwegian time by default (UTC+1 in March)
    ["2024-03-05T23:30:00Z", undefined, "6 Mar 2024"],
    ["2024-03-05T23:30:00Z", "UTC", "5 Mar 2024"],
    [new Date("2024-03-05T10:00:00Z"), undefined, "5 Mar 2024"],
    [Date.UTC(2024, 2, 5, 10), undefined, "5 Mar 2024"],
    [null, undefined, "—"],
    [undefined, undefined, "—"],
    ["", undefined, "—"],
    ["not a date", undefined, "—"],
  ])("%s in %s → %j", (value, zone, expected) => {
    expect(formatDate(value, "en", zone)).toBe(expected);
  });
});

describe("formatDate in the UI language (day, short month, year)", () => {
  it.each<[string | number | Date | null | undefined, string, string]>([
    ["2026-09-12", "12 Sept 2026", "12. sep. 2026"],
    // ICU writes the short months of four letters or fewer in full, without a point
    ["2024-03-05", "5 Mar 2024", "5. mars 2024"],
    ["2024-05-03", "3 May 2024", "3. mai 2024"],
    ["2024-06-30", "30 Jun 2024", "30. juni 2024"],
    ["2024-12-31", "31 Dec 2024", "31. des. 2024"],
    ["2024-10-01", "1 Oct 2024", "1. okt. 2024"],
    // a timestamp late in the evening UTC is already the next day in Oslo
    ["2024-03-05T23:30:00Z", "6 Mar 2024", "6. mars 2024"],
    [null, "—", "—"],
    [undefined, "—", "—"],
    ["", "—", "—"],
    ["not a date", "—", "—"],
  ])("%s → %j / %j", (value, en, no) => {
    expect(formatDate(value, "en")).toBe(en);
    expect(formatDate(value, "no")).toBe(no);
  });

  it("English is the default", () => {
    expect(formatDate("2026-09-12")).toBe("12 Sept 2026");
  });
});

describe("formatMonth ('YYYY-MM' in words)", () => {
  it.each([
    ["2026-03", "March 2026", "mars 2026"],
    ["2025-12", "December 2025", "desember 2025"],
    ["2026-05", "May 2026", "mai 2026"],
    ["garbage", "garbage", "garbage"],
  ])("%s → %j / %j", (month, en, no) => {
    expect(formatMonth(month, "en")).toBe(en);
    expect(formatMonth(month, "no")).toBe(no);
  });
});

describe("formatCountry (ISO code → name in the UI language)", () => {
  it.each<[string | null | undefined, string, string]>([
    ["NO", "Norway", "Norge"],
    ["se", "Sweden", "Sverige"],
    ["GB", "United Kingdom", "Storbritannia"],
    ["DE", "Germany", "Tyskland"],
    ["US", "United States", "USA"],
    [null, "—", "—"],
    ["", "—", "—"],
    ["Atlantis", "Atlantis", "Atlantis"],
  ])("%s → %j / %j", (code, en, no) => {
    expect(formatCountry(code, "en")).toBe(en);
    expect(formatCountry(code, "no")).toBe(no);
  });
});

describe("formatDateTime (the tooltip beside a relative time)", () => {
  it.each([
    ["2026-09-12T12:05:00Z", "12 Sept 2026, 14:05", "12. sep. 2026, 14:05"],
    ["2026-01-05T23:30:00Z", "6 Jan 2026, 00:30", "6. jan. 2026, 00:30"],
  ])("%s → %j / %j (Oslo time)", (value, en, no) => {
    expect(formatDateTime(value, "en")).toBe(en);
    expect(formatDateTime(value, "no")).toBe(no);
  });

  it("shows a dash for missing or invalid input", () => {
    expect(formatDateTime(null)).toBe("—");
    expect(formatDateTime("garbage")).toBe("—");
  });
});

describe("formatRelativeTime (largest whole unit, truncated)", () => {
  const now = new Date("2024-06-01T12:00:00Z");
  const s = 1000;
  const min = 60 * s;
  const h = 60 * min;
  const d = 24 * h;
  const at = (offset: number) => new Date(now.getTime() + offset);

  it.each([
    [0, "now", "nå"],
    [-999, "now", "nå"],
    [-1 * s, "1 second ago", "for 1 sekund siden"],
    [-59 * s, "59 seconds ago", "for 59 sekunder siden"],
    [-59.9 * s, "59 seconds ago", "for 59 sekunder siden"],
    [-60 * s, "1 minute ago", "for 1 minutt siden"],
    [-(59 * min + 59 * s), "59 minutes ago", "for 59 minutter siden"],
    [-60 * min, "1 hour ago", "for 1 time siden"],
    [-(23 * h + 59 * min), "23 hours ago", "for 23 timer siden"],
    [-24 * h, "1 day ago", "for 1 døgn siden"],
    [-(6 * d + 23 * h), "6 days ago", "for 6 døgn siden"],
    [-7 * d, "1 week ago", "for 1 uke siden"],
    [-29 * d, "4 weeks ago", "for 4 uker siden"],
    [-30 * d, "1 month ago", "for 1 måned siden"],
    [-364 * d, "12 months ago", "for 12 måneder siden"],
    [-365 * d, "1 year ago", "for 1 år siden"],
    [-3 * 365 * d, "3 years ago", "for 3 år siden"],
    [2 * h, "in 2 hours", "om 2 timer"],
    [45 * d, "in 1 month", "om 1 måned"],
  ])("%d ms → %j / %j", (offset, en, no) => {
    expect(formatRelativeTime(at(offset), now, "en")).toBe(en);
    expect(formatRelativeTime(at(offset), now, "no")).toBe(no);
  });

  it.each([
    [1 * s, "in 1 second", "om 1 sekund"],
    [59 * s, "in 59 seconds", "om 59 sekunder"],
    [60 * s, "in 1 minute", "om 1 minutt"],
    [60 * min, "in 1 hour", "om 1 time"],
    [24 * h, "in 1 day", "om 1 døgn"],
    [7 * d, "in 1 week", "om 1 uke"],
    [30 * d, "in 1 month", "om 1 måned"],
    [365 * d, "in 1 year", "om 1 år"],
    [2 * 365 * d, "in 2 years", "om 2 år"],
  ])("future: %d ms → %j / %j", (offset, en, no) => {
    expect(formatRelativeTime(at(offset), now, "en")).toBe(en);
    expect(formatRelativeTime(at(offset), now, "no")).toBe(no);
  });

  it("takes i18next's language as it comes: 'no' is Norwegian, anything else English (en-GB)", () => {
    expect(formatRelativeTime(at(-3 * h), now, "no")).toBe("for 3 timer siden");
    expect(formatRelativeTime(at(-3 * h), now, "en-GB")).toBe("3 hours ago");
    expect(formatRelativeTime(at(-3 * h), now, "de")).toBe("3 hours ago");
    expect(formatRelativeTime(at(-3 * h), now)).toBe("3 hours ago");
  });

  it("accepts ISO strings (the value and the loader's `now`) and shows a dash for missing or invalid input", () => {
    expect(formatRelativeTime("2024-05-31T12:00:00Z", now)).toBe("1 day ago");
    expect(formatRelativeTime("2024-05-31T12:00:00Z", "2024-06-01T12:00:00.000Z", "no")).toBe("for 1 døgn siden");
    expect(formatRelativeTime(null, now)).toBe("—");
    expect(formatRelativeTime(undefined, now)).toBe("—");
    expect(formatRelativeTime("", now)).toBe("—");
    expect(formatRelativeTime("garbage", now)).toBe("—");
    expect(formatRelativeTime(new Date(Number.NaN), now)).toBe("—");
    expect(formatRelativeTime(at(-h), "not a date")).toBe("—");
  });
});

describe("padPostalCode (4 digits)", () => {
  it.each([
    [155, "0155"],
    ["155", "0155"],
    [" 155 ", "0155"],
    ["0150", "0150"],
    [5003, "5003"],
    [1, "0001"],
    ["", null],
    ["   ", null],
    [null, null],
    [undefined, null],
    [Number.NaN, null],
  ] as const)("%j → %j", (code, expected) => {
    expect(padPostalCode(code)).toBe(expected);
  });
});

describe("formatAddress (all three parts or null → 'Address information incomplete')", () => {
  const full = { street_address: "Storgata 1", street_postal_code: 155, street_postal_area: "OSLO" };
  it.each<[string, AddressParts, string | null]>([
    ["all present, numeric code padded", full, "Storgata 1, 0155 OSLO"],
    ["text code", { ...full, street_postal_code: "5003", street_postal_area: "BERGEN" }, "Storgata 1, 5003 BERGEN"],
    ["no street", { ...full, street_address: null }, null],
    ["blank street", { ...full, street_address: "  " }, null],
    ["no postal code", { ...full, street_postal_code: undefined }, null],
    ["empty postal code", { ...full, street_postal_code: "" }, null],
    ["no postal area", { ...full, street_postal_area: null }, null],
    ["nothing", {}, null],
  ])("%s", (_name, parts, expected) => {
    expect(formatAddress(parts)).toBe(expected);
  });
});
