import { describe, expect, it } from "vitest";
import { formatDayList, parseDayList } from "~/models/tasks/reminder-days";

describe("parseDayList", () => {
  it("reads whole days with any separator, without duplicates, largest first", () => {
    expect(parseDayList("1, 7;3 7")).toEqual({ days: [7, 3, 1] });
    expect(parseDayList("0")).toEqual({ days: [0] });
    expect(parseDayList("60")).toEqual({ days: [60] });
  });

  it("an empty list means no reminders on that side", () => {
    expect(parseDayList("")).toEqual({ days: [] });
    expect(parseDayList(" , ")).toEqual({ days: [] });
  });

  it.each([
    ["1.5", "notWholeDays"],
    ["-1", "notWholeDays"],
    ["seven", "notWholeDays"],
    ["61", "outOfRange"],
    ["1000", "notWholeDays"],
    ["1 2 3 4 5 6 7 8 9 10 11", "tooMany"],
  ])("refuses %s (%s)", (text, problem) => {
    expect(parseDayList(text)).toEqual({ problem });
  });

  it("formats a list back as people type it", () => {
    expect(formatDayList([7, 3, 1])).toBe("7, 3, 1");
    expect(formatDayList([])).toBe("");
  });
});
