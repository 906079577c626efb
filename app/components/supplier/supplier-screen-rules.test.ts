import { describe, expect, it } from "vitest";
import { displayScore, utcDay, visibleItems, ANNOUNCEMENTS_SHOWN, INTELLIGENCE_COLLAPSED_ITEMS } from "./supplier-screen-rules";

describe("utcDay", () => {
  it("drops the time of day in UTC", () => {
    expect(utcDay(new Date("2024-03-05T23:59:59.999Z")).toISOString()).toBe("2024-03-05T00:00:00.000Z");
    expect(utcDay(new Date("2024-03-06T00:00:00.000Z")).toISOString()).toBe("2024-03-06T00:00:00.000Z");
  });
});

describe("displayScore", () => {
  it.each([
    [42.4, 42],
    [42.5, 43],
    [0, 0],
    [100, 100],
    [-3, 0],
    [130, 100],
    [null, null],
    [undefined, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
  ])("%s → %s", (input, expected) => {
    expect(displayScore(input)).toBe(expected);
  });
});

describe("visibleItems", () => {
  const five = [1, 2, 3, 4, 5];
  it("keeps the first entries and counts the rest", () => {
    expect(visibleItems(five, false, 2)).toEqual({ shown: [1, 2], hidden: 3 });
  });
  it("shows everything when expanded", () => {
    expect(visibleItems(five, true, 2)).toEqual({ shown: five, hidden: 0 });
  });
  it("shows a short list whole", () => {
    expect(visibleItems([1, 2], false, 2)).toEqual({ shown: [1, 2], hidden: 0 });
    expect(visibleItems([], false, 2)).toEqual({ shown: [], hidden: 0 });
  });
  it("uses the spec's limits: 5 announcements, 2 intelligence items", () => {
    expect(ANNOUNCEMENTS_SHOWN).toBe(5);
    expect(INTELLIGENCE_COLLAPSED_ITEMS).toBe(2);
    expect(visibleItems([1, 2, 3, 4, 5, 6], false, ANNOUNCEMENTS_SHOWN)).toEqual({ shown: [1, 2, 3, 4, 5], hidden: 1 });
  });
  it("does not hand back the input array", () => {
    const list = [1];
    expect(visibleItems(list, true, 2).shown).not.toBe(list);
  });
});
