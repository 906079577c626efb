import { describe, expect, it } from "vitest";
import { ANNOUNCEMENT_SHOWN_DAYS, announcementStatus } from "~/models/notifications/announcements";

describe("announcementStatus", () => {
  const at = new Date("2026-11-24T12:00:00.000Z");
  const daysAgo = (days: number) => new Date(at.getTime() - days * 86_400_000).toISOString();

  it("is shown up to and including the last day, expired after", () => {
    expect(announcementStatus({ createdAt: daysAgo(0), withdrawnAt: null }, at)).toBe("shown");
    expect(announcementStatus({ createdAt: daysAgo(ANNOUNCEMENT_SHOWN_DAYS), withdrawnAt: null }, at)).toBe("shown");
    expect(announcementStatus({ createdAt: new Date(Date.parse(daysAgo(ANNOUNCEMENT_SHOWN_DAYS)) - 1).toISOString(), withdrawnAt: null }, at)).toBe("expired");
  });

  it("is withdrawn once withdrawn, whatever its age", () => {
    expect(announcementStatus({ createdAt: daysAgo(1), withdrawnAt: daysAgo(0) }, at)).toBe("withdrawn");
    expect(announcementStatus({ createdAt: daysAgo(90), withdrawnAt: daysAgo(80) }, at)).toBe("withdrawn");
  });
});
