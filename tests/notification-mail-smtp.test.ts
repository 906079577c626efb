import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@server/db";
import type { JobContext } from "@server/jobs/types";
import { MailsFailed, notificationDigest, notificationImmediate } from "~/models/notifications/notification-mail-jobs.server";
import { readImmediateCursor, saveNotificationMailSettings } from "~/models/notifications/notification-mail.server";
import { company, follow, makeOrg } from "./helpers/fixtures";
import { loopbackSmtp, type LoopbackSmtp } from "./helpers/loopback";
import { createUser } from "./helpers/factory";

/**
 * The notification mails through SMTP (a loopback mail server that refuses one recipient): a failed send releases its
 * claim and fails the job's attempt, the retry sends only what is missing, and from the third attempt the run gives up on
 * the refused address and finishes — the immediate cursor held back until then (decision 025).
 */

let smtp: LoopbackSmtp;

const finished: unknown[] = [];
const ctx = (type: string, attempt: number): JobContext =>
  ({
    job: { id: attempt, type, organizationId: null, userId: null, payload: null, attempt },
    progress: async () => {},
    signal: new AbortController().signal,
    finish: async (write) => {
      const result = await db().transaction().execute(write);
      finished.push(result);
      return result;
    },
  }) as JobContext;
const to = (address: string) => smtp.received.filter((m) => m.to.includes(address));

let warn: ReturnType<typeof vi.spyOn>;
beforeAll(async () => {
  smtp = await loopbackSmtp((address) => address === "refused@smtp.test");
  // Read once by server/env.ts, on first use: set before anything in this file asks for it.
  process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
  process.env.APP_URL = "https://risk.example.test";
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});

  const org = await makeOrg("SMTP Customer", "customer");
  const supplier = await makeOrg("Smtp Supplier AS", "supplier", "955555555");
  const c = await company("955555555", "Smtp Supplier AS");
  await follow(org, supplier);
  for (const email of ["ok@smtp.test", "refused@smtp.test"]) {
    const userId = await createUser({ email, organizationId: org, accessLevel: 2, createdAt: "2025-01-01T00:00:00.000Z" });
    await saveNotificationMailSettings(userId, { digest: "daily", immediate: true });
  }
  await db()
    .insertInto("risk_notifications")
    .values({
      company_id: c,
      type: "announcement",
      date: new Date().toISOString().slice(0, 10),
      created_at: new Date(Date.now() - 3_600_000).toISOString(),
      risk_score: 70,
      relevance_score: 100,
      title: "Board change",
      source: null,
      url: null,
      description: null,
    })
    .execute();
});

afterAll(async () => {
  warn.mockRestore();
  await smtp.close();
});

describe("notification mails over SMTP with a refused address", () => {
  it("digest: the refused mail is released and retried, the delivered one never twice, and the third attempt finishes", async () => {
    await expect(notificationDigest(ctx("notifications.digest", 1))).rejects.toBeInstanceOf(MailsFailed);
    expect(to("ok@smtp.test")).toHaveLength(1);
    expect(to("ok@smtp.test")[0].data).toContain("Subject: 1 new risk notification about your suppliers");
    const rows = () => db().selectFrom("notification_mails as m").innerJoin("users as u", "u.id", "m.user_id").select(["u.email", "m.kind"]).execute();
    expect(await rows()).toEqual([{ email: "ok@smtp.test", kind: "digest" }]);

    await expect(notificationDigest(ctx("notifications.digest", 2))).rejects.toBeInstanceOf(MailsFailed);
    expect(to("ok@smtp.test")).toHaveLength(1);
    expect(finished).toEqual([]);

    await notificationDigest(ctx("notifications.digest", 3));
    expect(finished).toEqual([{ sent: 0, already: 1, empty: 0, failed: 1 }]);
    expect(to("ok@smtp.test")).toHaveLength(1);
    expect(warn.mock.calls.some((c) => String(c[0]).includes("failed"))).toBe(true);
  });

  it("immediate: the cursor waits for the retry, then moves on when the run gives up on the refused address", async () => {
    finished.length = 0;
    await notificationImmediate(ctx("notifications.immediate", 1)); // first run: places the cursor
    const start = (await readImmediateCursor())!;
    const c = await db().selectFrom("companies").select("id").where("org_number", "=", "955555555").executeTakeFirstOrThrow();
    const row = await db()
      .insertInto("risk_notifications")
      .values({
        company_id: c.id,
        type: "announcement",
        date: new Date().toISOString().slice(0, 10),
        created_at: new Date().toISOString(),
        risk_score: 90,
        relevance_score: 100,
        title: "Bankruptcy opened",
        source: null,
        url: null,
        description: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await expect(notificationImmediate(ctx("notifications.immediate", 1))).rejects.toBeInstanceOf(MailsFailed);
    expect(await readImmediateCursor()).toBe(start);
    await expect(notificationImmediate(ctx("notifications.immediate", 2))).rejects.toBeInstanceOf(MailsFailed);
    await notificationImmediate(ctx("notifications.immediate", 3));
    expect(await readImmediateCursor()).toBe(row.id);
    expect(to("ok@smtp.test").filter((m) => m.data.includes("Bankruptcy opened"))).toHaveLength(1);
    expect(to("refused@smtp.test")).toEqual([]);
  });
});
