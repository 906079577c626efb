import { fileNameFromContentDisposition } from "~/models/files/content-disposition";
import { describe, expect, it } from "vitest";
import {
  CREDIT_COUNTRIES,
  isCreditCountry,
  isWithinReportWindow,
  monthlyTotals,
  osloDateTime,
  osloMonth,
  osloMonthRange,
  parseBillingMonth,
  reportLanguageOptions,
  reportWindowStart,
} from "~/models/credit/credit";

describe("reportLanguageOptions (shared/spec/02-supplier-credit-connections.md §4: NO only when offered, only EN when the lookup fails)", () => {
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

describe("report window (shared/spec/02-supplier-credit-connections.md §9: the last 24 months, inclusive)", () => {
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

describe("credit countries (shared/spec/02-supplier-credit-connections.md §9)", () => {
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

describe("billing month ranges (Europe/Oslo months as UTC [start, end))", () => {
  it("accepts only a real 'YYYY-MM' from 1980 on", () => {
    expect(["2026-02", "1980-01", "9999-12"].map(parseBillingMonth)).toEqual(["2026-02", "1980-01", "9999-12"]);
    for (const bad of [null, undefined, "", "2026-13", "2026-00", "2026-2", "26-02", "2026-02-01", " 2026-02", "1979-12", "abcd-ef", "2026-02\n"]) {
      expect(parseBillingMonth(bad)).toBeNull();
    }
  });

  it.each([
    ["winter month: UTC+1 at both ends", "2026-01", "2025-12-31T23:00:00.000Z", "2026-01-31T23:00:00.000Z"],
    ["summer time begins (29 March 2026) inside the month", "2026-03", "2026-02-28T23:00:00.000Z", "2026-03-31T22:00:00.000Z"],
    ["summer month: UTC+2 at both ends", "2026-07", "2026-06-30T22:00:00.000Z", "2026-07-31T22:00:00.000Z"],
    ["summer time ends (25 October 2026) inside the month", "2026-10", "2026-09-30T22:00:00.000Z", "2026-10-31T23:00:00.000Z"],
    ["the year's end", "2026-12", "2026-11-30T23:00:00.000Z", "2026-12-31T23:00:00.000Z"],
    ["a leap February", "2028-02", "2028-01-31T23:00:00.000Z", "2028-02-29T23:00:00.000Z"],
    ["March 2024: summer time began on the 31st, the month's last day", "2024-03", "2024-02-29T23:00:00.000Z", "2024-03-31T22:00:00.000Z"],
  ])("%s", (_label, month, start, end) => {
    expect(osloMonthRange(month)).toEqual({ start, end });
  });

  it("every month 1990–2040 is exactly the instants osloMonth bills in it, and the months tile time", () => {
    let previousEnd: string | null = null;
    const wrong: string[] = [];
    for (let year = 1990; year <= 2040; year++) {
      for (let m = 1; m <= 12; m++) {
        const month = `${year}-${String(m).padStart(2, "0")}`;
        const { start, end } = osloMonthRange(month);
        if (previousEnd) expect(start).toBe(previousEnd);
        previousEnd = end;
        const before = new Date(Date.parse(start) - 1);
        const last = new Date(Date.parse(end) - 1);
        if (osloMonth(start) !== month || osloMonth(before) === month || osloMonth(last) !== month || osloMonth(end) === month) wrong.push(month);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("an order at 23:30 UTC on a month's last day falls in the next month's range", () => {
    const feb = osloMonthRange("2026-02");
    expect("2026-01-31T23:30:00.000Z" >= feb.start && "2026-01-31T23:30:00.000Z" < feb.end).toBe(true);
    const jan = osloMonthRange("2026-01");
    expect("2026-01-31T23:30:00.000Z" < jan.end).toBe(false);
    // A stored value without milliseconds compares the same way at the boundary.
    expect("2026-01-31T23:00:00Z" >= feb.start && "2026-01-31T22:59:59Z" < feb.start).toBe(true);
  });
});

describe("osloDateTime (the CSV's local time without a formatter call per row)", () => {
  const formatter = new Intl.DateTimeFormat("sv-SE", {
    timeZone: "Europe/Oslo",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });

  it("equals the Europe/Oslo formatter at every quarter hour of 2024–2027 and every hour of 1990–2040, and starts with osloMonth", () => {
    const wrong: string[] = [];
    const check = (ms: number) => {
      const iso = new Date(ms).toISOString();
      const text = osloDateTime(new Date(ms));
      const expected = formatter.format(new Date(ms));
      // A stored string (with milliseconds, and without) answers the same as the instant.
      const fromText = [osloDateTime(iso), osloDateTime(iso.replace(/\.\d{3}Z$/, "Z"))];
      if (text !== expected || fromText.some((t) => t !== expected) || text.slice(0, 7) !== osloMonth(new Date(ms))) wrong.push(iso);
    };
    for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2028, 0, 1); ms += 15 * 60_000) check(ms + 59_999);
    for (let ms = Date.UTC(1990, 0, 1); ms < Date.UTC(2041, 0, 1); ms += 3_600_000) check(ms);
    expect(wrong).toEqual([]);
  });

  it("a time that is not a stored UTC ISO string is read as an instant", () => {
    expect(["2026-01-31T23:30:00+01:00", "2026-01-31T23:30Z", new Date("2026-06-30T22:15:00.000Z")].map(osloDateTime)).toEqual([
      "2026-01-31 23:30",
      "2026-02-01 00:30",
      "2026-07-01 00:15",
    ]);
  });

  it("around the switches: the hour that repeats and the hour that is skipped", () => {
    expect(["2026-03-29T00:59:00.000Z", "2026-03-29T01:00:00.000Z", "2026-10-25T00:30:00.000Z", "2026-10-25T01:30:00.000Z"].map(osloDateTime)).toEqual([
      "2026-03-29 01:59",
      "2026-03-29 03:00",
      "2026-10-25 02:30",
      "2026-10-25 02:30",
    ]);
  });
});
