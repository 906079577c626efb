import { describe, expect, it } from "vitest";
import { monthlyTotals, osloMonth } from "~/models/credit/credit";

/**
 * osloMonth answers most instants from their UTC fields (Oslo is UTC+1 or UTC+2, so only a month's last two UTC hours
 * can fall in the next Oslo month, since 1980). The time-zone formatter it replaced is the reference here: the same month for every
 * hour of twelve years and for the minutes around every month's end.
 */
const reference = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Oslo", year: "numeric", month: "2-digit" });
function referenceMonth(at: Date): string {
  const parts = reference.formatToParts(at);
  return `${parts.find((p) => p.type === "year")!.value}-${parts.find((p) => p.type === "month")!.value}`;
}

const HOUR = 3_600_000;

describe("osloMonth", () => {
  it("gives the Europe/Oslo month of every hour from 2019 to 2030, as an ISO string and as a Date", () => {
    const mismatches: string[] = [];
    for (let t = Date.UTC(2019, 0, 1); t < Date.UTC(2031, 0, 1); t += HOUR) {
      for (const at of [new Date(t), new Date(t + 59 * 60_000 + 59_999)]) {
        const expected = referenceMonth(at);
        if (osloMonth(at.toISOString()) !== expected || osloMonth(at) !== expected) mismatches.push(at.toISOString());
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("moves the last hours of a month into the next one, by the offset of the season", () => {
    expect(osloMonth("2026-01-31T22:59:59.999Z")).toBe("2026-01");
    expect(osloMonth("2026-01-31T23:00:00.000Z")).toBe("2026-02");
    expect(osloMonth("2026-07-31T21:59:59.999Z")).toBe("2026-07");
    expect(osloMonth("2026-07-31T22:00:00.000Z")).toBe("2026-08");
    expect(osloMonth("2026-12-31T23:30:00.000Z")).toBe("2027-01");
    expect(osloMonth("2028-02-29T23:00:00.000Z")).toBe("2028-03");
    expect(osloMonth("2027-02-28T23:00:00.000Z")).toBe("2027-03");
    expect(osloMonth("2026-03-28T23:30:00.000Z")).toBe("2026-03");
  });

  it("agrees with the formatter for the last two hours of every month since 1900 and for strings with an offset", () => {
    const mismatches: string[] = [];
    for (let year = 1900; year <= 2100; year++) {
      for (let month = 0; month < 12; month++) {
        const end = Date.UTC(year, month + 1, 1);
        for (let t = end - 3 * HOUR; t < end + HOUR; t += 15 * 60_000) {
          const at = new Date(t);
          if (osloMonth(at) !== referenceMonth(at)) mismatches.push(at.toISOString());
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(osloMonth("2026-04-30T23:30:00+01:00")).toBe(referenceMonth(new Date("2026-04-30T23:30:00+01:00")));
    expect(osloMonth("2026-05-01T00:30:00+02:00")).toBe("2026-05");
    expect(osloMonth("2026-04-30T23:30:00+02:00")).toBe("2026-04");
  });

  it("refuses an invalid date as the formatter did", () => {
    expect(() => osloMonth("not a date")).toThrow(RangeError);
  });

  it("monthlyTotals groups by the Oslo month", () => {
    expect(
      monthlyTotals([
        { createdAt: "2026-01-31T22:30:00Z", priceNok: 80 },
        { createdAt: "2026-01-31T23:30:00Z", priceNok: 80 },
        { createdAt: "2026-02-15T12:00:00Z", priceNok: 80 },
      ]),
    ).toEqual([
      { month: "2026-02", count: 2, totalNok: 160 },
      { month: "2026-01", count: 1, totalNok: 80 },
    ]);
  });
});
