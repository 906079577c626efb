import { describe, expect, it } from "vitest";
import { osloDate, osloInstant, osloOffsetMs, osloParts } from "~/models/shared/oslo-time";

describe("Oslo wall-clock time", () => {
  it("is one hour ahead of UTC in winter and two in summer, changing at 01:00 UTC", () => {
    expect(osloOffsetMs(Date.parse("2026-01-15T12:00:00Z"))).toBe(3_600_000);
    expect(osloOffsetMs(Date.parse("2026-07-15T12:00:00Z"))).toBe(7_200_000);
    expect(osloOffsetMs(Date.parse("2026-03-29T00:59:59Z"))).toBe(3_600_000);
    expect(osloOffsetMs(Date.parse("2026-03-29T01:00:00Z"))).toBe(7_200_000);
  });

  it("reads the clock and finds the instant it shows a time, a skipped spring time an hour later", () => {
    expect(osloParts(Date.parse("2026-12-31T23:30:00Z"))).toEqual({ year: 2027, month: 1, day: 1, hour: 0, minute: 30, second: 0 });
    expect(new Date(osloInstant(2027, 1, 1, 0, 30)).toISOString()).toBe("2026-12-31T23:30:00.000Z");
    expect(new Date(osloInstant(2026, 7, 1, 0, 0)).toISOString()).toBe("2026-06-30T22:00:00.000Z");
    expect(new Date(osloInstant(2026, 13, 1, 0, 0)).toISOString()).toBe("2026-12-31T23:00:00.000Z");
    expect(new Date(osloInstant(2026, 3, 29, 2, 30)).toISOString()).toBe("2026-03-29T01:30:00.000Z");
  });

  it("gives the Oslo calendar date of a moment", () => {
    expect(osloDate(new Date("2026-11-23T23:30:00Z"))).toBe("2026-11-24");
    expect(osloDate("2026-06-30T21:59:00Z")).toBe("2026-06-30");
  });
});
