import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { startWorker, type Worker } from "@server/jobs";
import { outbox } from "@server/mail";
import { customerOverview, respondentOverview } from "~/models/overview/overview.server";
import {
  ANNOUNCEMENT_MAIL_JOB,
  activeAnnouncements,
  announcementMailJob,
  createAnnouncement,
  listAnnouncements,
  withdrawAnnouncement,
} from "~/models/notifications/announcements.server";
import { makeOrg } from "./helpers/fixtures";
import { until } from "./helpers/until";
import { createUser } from "./helpers/factory";

/**
 * Announcements (decision 045): one for everyone reaches every organisation, one for an organisation only
 * its users; a withdrawn one is hidden; a mailed one is mailed by a job to each active user of the audience,
 * deactivated ones skipped, nobody twice when the job runs again; each change is an `admin_action` in the security log.
 */

let worker: Worker;
beforeAll(() => {
  worker = startWorker({ db: db(), handlers: { [ANNOUNCEMENT_MAIL_JOB]: announcementMailJob }, pollMs: 20, log: () => {} });
});
afterAll(async () => worker.stop());

const mailed = (id: number) =>
  until(
    () => db().selectFrom("admin_announcements").select(["mailed_at", "mailed_count", "mail_failed_count"]).where("id", "=", id).executeTakeFirstOrThrow(),
    (row) => row.mailed_at != null,
  );

async function user(email: string, organizationId: number, deactivated = false): Promise<number> {
  return createUser({
    email,
    organizationId,
    createdAt: "2025-01-01T00:00:00.000Z",
    deactivatedAt: deactivated ? "2025-02-01T00:00:00.000Z" : null,
  });
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
    expect(forA).toEqual({ id: expect.any(Number), mailQueued: true });
    expect(await mailed(forA!.id)).toMatchObject({ mailed_count: 2, mail_failed_count: 0 });
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

  it("mails nobody twice when the job runs again, and stops mailing a withdrawn announcement", async () => {
    const org = await makeOrg("Ann C", "customer");
    const adminId = await user("ann-c-admin@example.test", org);
    const ids = [adminId];
    for (let i = 1; i <= 4; i++) ids.push(await user(`ann-c${i}@example.test`, org));
    const actor = { id: adminId, organizationId: org, source: null };

    // A job that stopped after the first two users: the cursor says so; run again, it mails only the others.
    const created = await createAnnouncement(actor, { organizationId: org, title: "Resumed", body: "Once each", mail: false });
    await db()
      .updateTable("admin_announcements")
      .set({ mail_queued_at: new Date().toISOString(), mail_cursor: ids[1], mailed_count: 2 })
      .where("id", "=", created!.id)
      .execute();
    const before = outbox().length;
    await db()
      .insertInto("jobs")
      .values({
        type: ANNOUNCEMENT_MAIL_JOB,
        organization_id: org,
        user_id: adminId,
        payload: JSON.stringify({ announcementId: created!.id }),
        max_attempts: 5,
        run_at: new Date().toISOString(),
        created_at: new Date().toISOString(),
      })
      .execute();
    expect(await mailed(created!.id)).toMatchObject({ mailed_count: 5 });
    const mails = outbox().slice(before);
    expect(mails.filter((f) => f.includes("Once each"))).toHaveLength(3);
    for (const email of ["ann-c-admin@example.test", "ann-c1@example.test"]) expect(mails.some((f) => f.includes(email))).toBe(false);

    // Withdrawn before its job ran (the worker is stopped meanwhile): nothing is mailed.
    await worker.stop();
    const withdrawn = await createAnnouncement(actor, { organizationId: org, title: "Withdrawn early", body: "Never mailed", mail: true });
    await withdrawAnnouncement(actor, withdrawn!.id);
    worker = startWorker({ db: db(), handlers: { [ANNOUNCEMENT_MAIL_JOB]: announcementMailJob }, pollMs: 20, log: () => {} });
    expect(await mailed(withdrawn!.id)).toMatchObject({ mailed_count: 0 });
    expect(outbox().some((f) => f.includes("Never mailed"))).toBe(false);
  });
});
