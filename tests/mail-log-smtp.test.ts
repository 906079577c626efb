import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { env } from "@server/env";
import { purgeMailLog, sendMail } from "@server/mail";
import { sendPasswordReset } from "~/models/accounts/auth-mail.server";
import { failedMails, resendAllFailedMails, resendFailedMail } from "~/models/admin/mail-log.server";
import { loopbackSmtp, type LoopbackSmtp } from "./helpers/loopback";

/**
 * The mail log over SMTP (decision 044): a loopback mail server that refuses one address while `refusing` is set. A
 * refused mail still throws to the caller and is in the log with its error (no password of the SMTP address); sending it
 * again from the log marks it sent, or counts the attempt; the purge removes rows older than MAIL_LOG_DAYS.
 */

let refusing = true;
let smtp: LoopbackSmtp;
const received = () => smtp.received;

const log = () => db().selectFrom("mail_log").selectAll().orderBy("id").execute();

beforeAll(async () => {
  smtp = await loopbackSmtp((address) => refusing && address === "refused@smtp.test");
  // The environment is read once, and an imported module has read it already: the SMTP address goes into that copy.
  Object.assign(env(), { SMTP_URL: `smtp://mailer:S3cret-pw@127.0.0.1:${smtp.port}` });
});

afterAll(async () => {
  await smtp.close();
});

describe("the mail log", () => {
  it("a sent mail's one-time links are in the delivered mail and not in the log (text and headers)", async () => {
    await sendMail({
      to: "links@smtp.test",
      subject: "Links",
      text: "Reset: https://app.test/reset-password?token=AbC-123_x\nTask: https://app.test/tasks/7/public?token=Zz9&lang=no\nUnlock: https://app.test/login?unlock=U1u1",
      headers: { "List-Unsubscribe": "<https://app.test/account/unsubscribe?token=Uns-1>" },
      kind: "test",
    });
    const delivered = received().find((m) => m.to.includes("links@smtp.test"))!;
    for (const secret of ["AbC-123_x", "Zz9", "U1u1", "Uns-1"]) expect(delivered.data).toContain(secret);
    const row = (await log()).find((r) => r.to_address === "links@smtp.test")!;
    for (const secret of ["AbC-123_x", "Zz9", "U1u1", "Uns-1"]) expect(`${row.body} ${row.headers}`).not.toContain(secret);
    expect(row.body).toContain("/tasks/7/public?token=[removed]&lang=no");
    await db().deleteFrom("mail_log").execute();
  });

  it("logs a sent mail with its body and kind", async () => {
    await sendMail({ to: "ok@smtp.test", subject: "Hello", text: "Body with a link", kind: "test" });
    expect(received().filter((m) => m.to.includes("ok@smtp.test"))).toHaveLength(1);
    const rows = await log();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      to_address: "ok@smtp.test",
      subject: "Hello",
      kind: "test",
      body: "Body with a link",
      status: "sent",
      attempts: 1,
      error: null,
    });
    expect(rows[0].sent_at).not.toBeNull();
  });

  it("a refused mail still throws to the caller (the auth mail) and is in the log as failed, without the SMTP password", async () => {
    await expect(sendPasswordReset("https://app.test", { email: "refused@smtp.test", token: "tok123", language: "en" })).rejects.toThrow();
    const failed = (await log()).filter((r) => r.status === "failed");
    expect(failed).toHaveLength(1);
    expect(failed[0].to_address).toBe("refused@smtp.test");
    // Kept sealed until it is sent: the database holds no working link.
    expect(failed[0].body).not.toContain("tok123");
    expect(failed[0].body).toMatch(/^sealed:/);
    expect(failed[0].error).toBeTruthy();
    expect(failed[0].error).not.toContain("S3cret-pw");
    const page = await failedMails(1);
    expect(page.total).toBe(1);
    expect(page.rows.map((r) => r.to_address)).toEqual(["refused@smtp.test"]);
  });

  it("sending again while still refused counts the attempt; once accepted it is marked sent and delivered with the same body", async () => {
    const [row] = (await failedMails(1)).rows;
    expect(await resendFailedMail(row.id)).toBe("failed");
    let stored = await db().selectFrom("mail_log").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: "failed", attempts: 2 });

    refusing = false;
    expect(await resendAllFailedMails()).toEqual({ sent: 1, failed: 0 });
    stored = await db().selectFrom("mail_log").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: "sent", attempts: 3, error: null });
    const delivered = received().filter((m) => m.to.includes("refused@smtp.test"));
    expect(delivered).toHaveLength(1);
    expect(delivered[0].data).toContain("tok123");
    // Sent: the log keeps the text, the link's secret removed.
    expect(stored.body).toContain("/reset-password?token=[removed]");
    expect(stored.body).not.toContain("tok123");
    expect((await failedMails(1)).total).toBe(0);
    // A mail no longer failed is not sent a second time.
    expect(await resendFailedMail(row.id)).toBeNull();
    expect(received().filter((m) => m.to.includes("refused@smtp.test"))).toHaveLength(1);
  });

  it("the purge removes mails older than MAIL_LOG_DAYS and keeps the rest", async () => {
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await db()
      .insertInto("mail_log")
      .values({
        to_address: "old@smtp.test",
        subject: "Old",
        kind: null,
        body: "x",
        headers: null,
        status: "failed",
        error: "e",
        attempts: 1,
        created_at: old,
        last_attempt_at: old,
        sent_at: null,
      })
      .execute();
    const before = (await log()).length;
    expect(await purgeMailLog()).toBe(1);
    expect(await log()).toHaveLength(before - 1);
    expect((await log()).some((r) => r.to_address === "old@smtp.test")).toBe(false);
  });
});
