import { fileNameFromContentDisposition } from "./content-disposition";
import { describe, expect, it } from "vitest";
import { CREDIT_COUNTRIES, isCreditCountry, isWithinReportWindow, monthlyTotals, osloMonth, reportLanguageOptions, reportWindowStart } from "./credit";

describe("reportLanguageOptions (spec 02 §4: NO only when offered, only EN when the lookup fails)", () => {
  it.each([
    ["NO and EN offered", ["NO", "EN"], ["NO", "EN"], "NO"],
    ["only NO in the list: EN is still offered", ["NO"], ["NO", "EN"], "NO"],
    ["lower-case and padded codes", [" no ", "en"], ["NO", "EN"], "NO"],
    ["EN only", ["EN"], ["EN"], "EN"],
    ["other languages only", ["DE", "FR"], ["EN"], "EN"],
    ["empty list", [], ["EN"], "EN"],
    ["lookup failed", null, ["EN"], "EN"],
    ["a code that merely contains NO", ["NOR", "NL"], ["EN"], "EN"],
  ] as const)("%s", (_case, languages, options, selected) => {
    expect(reportLanguageOptions(languages === null ? null : [...languages])).toEqual({ options, selected });
  });
});

describe("report window (spec 02 §9: the last 24 months, inclusive)", () => {
  const now = new Date("2026-03-15T10:00:00.000Z");
  it.each([
    ["ordered now", "2026-03-15T10:00:00.000Z", true],
    ["a year ago", "2025-03-15T10:00:00.000Z", true],
    ["exactly 24 months ago", "2024-03-15T10:00:00.000Z", true],
    ["24 months and one millisecond ago", "2024-03-15T09:59:59.999Z", false],
    ["24 months and one day ago", "2024-03-14T10:00:00.000Z", false],
    ["three years ago", "2023-03-15T10:00:00.000Z", false],
    ["not a date", "yesterday-ish", false],
  ] as const)("%s → %s", (_case, createdAt, inside) => {
    expect(isWithinReportWindow(createdAt, now)).toBe(inside);
  });

  it("accepts Date values", () => {
    expect(isWithinReportWindow(new Date("2024-03-15T10:00:00.000Z"), now)).toBe(true);
  });

  it.each([
    ["mid-month", "2026-03-15T10:00:00.000Z", "2024-03-15T10:00:00.000Z"],
    ["31 March: 31 March two years before", "2026-03-31T23:59:59.999Z", "2024-03-31T23:59:59.999Z"],
    ["29 Feb of a leap year → 28 Feb", "2028-02-29T12:00:00.000Z", "2026-02-28T12:00:00.000Z"],
    ["January crosses the year", "2026-01-10T00:00:00.000Z", "2024-01-10T00:00:00.000Z"],
  ] as const)("window start, %s", (_case, at, start) => {
    expect(reportWindowStart(new Date(at)).toISOString()).toBe(start);
  });
});

describe("monthlyTotals (billing months in Europe/Oslo time, newest first)", () => {
  it("an order at 23:30 UTC on the last day of a month belongs to the next month in Oslo", () => {
    // 31 Jan 23:30 UTC is 1 Feb 00:30 in Oslo (UTC+1); 30 Jun 22:30 UTC is 1 Jul 00:30 (UTC+2).
    expect(osloMonth("2026-01-31T23:30:00.000Z")).toBe("2026-02");
    expect(osloMonth("2026-06-30T22:30:00.000Z")).toBe("2026-07");
    expect(osloMonth("2026-06-30T21:30:00.000Z")).toBe("2026-06");
    expect(osloMonth("2025-12-31T23:30:00.000Z")).toBe("2026-01");
  });

  it.each([
    ["no orders", [], []],
    [
      "one month",
      [
        { createdAt: "2026-03-02T09:00:00.000Z", priceNok: 80 },
        { createdAt: "2026-03-20T09:00:00.000Z", priceNok: 80 },
      ],
      [{ month: "2026-03", count: 2, totalNok: 160 }],
    ],
    [
      "several months in any order, the last evening of January billed in February",
      [
        { createdAt: "2026-01-15T12:00:00.000Z", priceNok: 80 },
        { createdAt: "2026-01-31T23:30:00.000Z", priceNok: 80 },
        { createdAt: "2026-02-10T12:00:00.000Z", priceNok: 80 },
        { createdAt: "2025-12-31T22:59:59.000Z", priceNok: 80 },
        { createdAt: "2026-02-11T12:00:00.000Z", priceNok: 100 },
      ],
      [
        { month: "2026-02", count: 3, totalNok: 260 },
        { month: "2026-01", count: 1, totalNok: 80 },
        { month: "2025-12", count: 1, totalNok: 80 },
      ],
    ],
    [
      "years sort before months",
      [
        { createdAt: "2024-12-05T12:00:00.000Z", priceNok: 80 },
        { createdAt: "2025-01-05T12:00:00.000Z", priceNok: 80 },
        { createdAt: "2024-02-05T12:00:00.000Z", priceNok: 80 },
      ],
      [
        { month: "2025-01", count: 1, totalNok: 80 },
        { month: "2024-12", count: 1, totalNok: 80 },
        { month: "2024-02", count: 1, totalNok: 80 },
      ],
    ],
  ] as const)("%s", (_case, orders, totals) => {
    expect(monthlyTotals(orders)).toEqual(totals);
  });
});

describe("credit countries (spec 02 §9)", () => {
  it("has the 16 countries, Norway first", () => {
    expect(CREDIT_COUNTRIES.map((c) => c.code)).toEqual(["NO", "AT", "BE", "CA", "DK", "FR", "DE", "IE", "IT", "JP", "LU", "MX", "NL", "SE", "GB", "US"]);
  });
  it.each([
    ["NO", true],
    ["GB", true],
    ["no", false],
    ["UK", false],
    ["", false],
    [null, false],
  ])("isCreditCountry(%s) → %s", (code, ok) => {
    expect(isCreditCountry(code)).toBe(ok);
  });
});

describe("fileNameFromContentDisposition", () => {
  it.each([
    ["attachment; filename=\"report.pdf\"; filename*=UTF-8''Kredittrapport%20%C3%98st.pdf", "Kredittrapport Øst.pdf"],
    ['attachment; filename="report.pdf"', "report.pdf"],
    ["attachment; filename=plain.pdf", "plain.pdf"],
    ['attachment; filename="..\\\\..\\\\evil.pdf"', "evil.pdf"],
    ["attachment; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd", "passwd"],
    ["attachment; filename*=UTF-8''%E0%A4%A; filename=\"fallback.pdf\"", "fallback.pdf"],
    ["attachment", null],
    [null, null],
  ])("%s → %s", (header, name) => {
    expect(fileNameFromContentDisposition(header)).toBe(name);
  });
});
