import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { customerOverview, respondentOverview } from "~/models/overview.server";
import { activeAnnouncements, createAnnouncement, listAnnouncements, withdrawAnnouncement } from "~/models/announcements.server";
import { makeOrg } from "./helpers/fixtures";

/**
 * Announcements (issue 16; decision 045): one for everyone reaches every organisation, one for an organisation only
 * its users; a withdrawn one is hidden; a mailed one goes to each active user of the audience, deactivated ones
 * skipped; each change is an `admin_action` in the security log.
 */

async function user(email: string, organizationId: number, deactivated = false): Promise<number> {
  const row = await db()
    .insertInto("users")
    .values({
      email,
      password_hash: "x",
      language: "en",
      is_admin: 0,
      organization_id: organizationId,
      access_level: 1,
      created_at: "2025-01-01T00:00:00.000Z",
      deactivated_at: deactivated ? "2025-02-01T00:00:00.000Z" : null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

describe("announcements", () => {
  it("reaches its audience, hides a withdrawn one, mails active users only and logs each action", async () => {
    const orgA = await makeOrg("Ann A", "customer");
    const orgB = await makeOrg("Ann B", "supplier");
    const adminId = await user("ann-admin@example.test", orgA);
    await user("ann-a1@example.test", orgA);
    await user("ann-a2@example.test", orgA, true);
    await user("ann-b1@example.test", orgB);
    const actor = { id: adminId, organizationId: orgA, source: null };

    const before = outbox().length;
    const forA = await createAnnouncement(actor, { organizationId: orgA, title: "For A only", body: "Hello A", mail: true });
    expect(forA).toEqual({ id: expect.any(Number), mailed: 2 });
    const mails = outbox().slice(before);
    expect(mails.some((f) => f.includes("ann-a1@example.test"))).toBe(true);
    expect(mails.some((f) => f.includes("ann-a2@example.test"))).toBe(false);
    expect(mails.some((f) => f.includes("ann-b1@example.test"))).toBe(false);

    await createAnnouncement(actor, { organizationId: null, title: "For all", body: "Hello all", mail: false });
    expect((await activeAnnouncements({ organizationId: orgA })).map((a) => a.title)).toEqual(["For all", "For A only"]);
    expect((await activeAnnouncements({ organizationId: orgB })).map((a) => a.title)).toEqual(["For all"]);
    expect((await customerOverview({ organizationId: orgA, userId: adminId, language: "en" })).announcements.map((a) => a.title)).toEqual([
      "For all",
      "For A only",
    ]);
    expect((await respondentOverview({ organizationId: orgB })).announcements.map((a) => a.title)).toEqual(["For all"]);
    expect(await createAnnouncement(actor, { organizationId: 999_999, title: "x", body: "y", mail: false })).toBeNull();

    expect(await withdrawAnnouncement(actor, forA!.id)).toBe(true);
    expect(await withdrawAnnouncement(actor, forA!.id)).toBe(false);
    expect((await activeAnnouncements({ organizationId: orgA })).map((a) => a.title)).toEqual(["For all"]);

    const list = await listAnnouncements({ page: null });
    expect(list.rows.map((r) => [r.title, r.organizationName, r.mailedAt != null, r.withdrawnAt != null])).toEqual([
      ["For all", null, false, false],
      ["For A only", "Ann A", true, true],
    ]);
    const events = await db().selectFrom("security_events").select("detail").where("kind", "=", "admin_action").where("actor_user_id", "=", adminId).execute();
    expect(events.map((e) => JSON.parse(e.detail ?? "{}").action).sort()).toEqual(["announcement_created", "announcement_created", "announcement_withdrawn"]);
  });
});
