import { describe, expect, it } from "vitest";
import {
  DEFAULT_LOOKBACK_DAYS,
  DEFAULT_MIN_RISK_SCORE_PANEL,
  DEFAULT_NOTIFICATION_TYPE,
  NOTIFICATION_PAGE_SIZE,
  nextOffset,
  showMoreVisible,
} from "~/models/notifications/notifications";
import { notificationQuerySchema } from "~/models/notifications/notification-query";
import { notificationRiskColor as riskBand } from "~/models/suppliers/risk";

describe("shared/spec/01-shell-chat-lei.md §9 constants", () => {
  it("page size 25, minimum risk score 50, lookback 30 days, type all", () => {
    expect([NOTIFICATION_PAGE_SIZE, DEFAULT_MIN_RISK_SCORE_PANEL, DEFAULT_LOOKBACK_DAYS, DEFAULT_NOTIFICATION_TYPE]).toEqual([25, 50, 30, "all"]);
    expect(notificationQuerySchema.parse({})).toEqual({ minRiskScore: 50, lookbackDays: 30, type: "all", limit: 25, offset: 0 });
  });
});

describe("Show more (shared/spec/01-shell-chat-lei.md §4)", () => {
  it("the offset advances by the number of items returned", () => {
    expect(nextOffset(0, 25)).toBe(25);
    expect(nextOffset(25, 25)).toBe(50);
    expect(nextOffset(50, 7)).toBe(57);
    expect(nextOffset(57, 0)).toBe(57);
  });

  it("shows while the loaded count is at least the offset and above zero", () => {
    expect(showMoreVisible(0, 0)).toBe(false);
    expect(showMoreVisible(25, 25)).toBe(true);
    expect(showMoreVisible(57, 57)).toBe(true);
    expect(showMoreVisible(24, 25)).toBe(false);
    expect(showMoreVisible(30, 25)).toBe(true);
  });

  it("walks a list of 57 as the panel does: 25, 50, 57, then an empty page leaves it as it is", () => {
    let offset = 0;
    let loaded = 0;
    for (const returned of [25, 25, 7, 0]) {
      loaded += returned;
      offset = nextOffset(offset, returned);
    }
    expect([loaded, offset, showMoreVisible(loaded, offset)]).toEqual([57, 57, true]);
  });
});

describe("risk colours (shared/spec/01-shell-chat-lei.md §9)", () => {
  it.each([
    [100, "red"],
    [80, "red"],
    [79, "orange"],
    [60, "orange"],
    [59, "yellow"],
    [40, "yellow"],
    [39, "lime"],
    [20, "lime"],
    [19, "green"],
    [0, "green"],
  ])("%i is %s", (score, band) => {
    expect(riskBand(score)).toBe(band);
  });
});
