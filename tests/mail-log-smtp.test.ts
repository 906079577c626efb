import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { env } from "@server/env";
import { purgeMailLog, sendMail } from "@server/mail";
import { sendPasswordReset } from "~/models/auth-mail.server";
import { failedMails, resendAllFailedMails, resendFailedMail } from "~/models/mail-log.server";

/**
 * The mail log over SMTP (decision 044): a loopback mail server that refuses one address while `refusing` is set. A
 * refused mail still throws to the caller and is in the log with its error (no password of the SMTP address); sending it
 * again from the log marks it sent, or counts the attempt; the purge removes rows older than MAIL_LOG_DAYS.
 */

const received: { to: string[]; data: string }[] = [];
let refusing = true;
let server: net.Server;

function smtpServer(refused: string): net.Server {
  return net.createServer((socket) => {
    let buffer = "";
    let inData = false;
    let current = { to: [] as string[], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 loopback ESMTP");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { to: [], data: "" };
          reply("250 queued");
          continue;
        }
        const newline = buffer.indexOf("\r\n");
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 loopback");
        else if (verb === "RCPT") {
          const address = /<([^>]*)>/.exec(line)?.[1] ?? "";
          if (refusing && address === refused) reply("550 no such user");
          else {
            current.to.push(address);
            reply("250 ok");
          }
        } else if (verb === "DATA") {
          inData = true;
          reply("354 go ahead");
        } else if (verb === "RSET") {
          current = { to: [], data: "" };
          reply("250 ok");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else reply("250 ok");
      }
    });
    socket.on("error", () => {});
  });
}

const log = () => db().selectFrom("mail_log").selectAll().orderBy("id").execute();

beforeAll(async () => {
  server = smtpServer("refused@smtp.test");
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  // The environment is read once, and an imported module has read it already: the SMTP address goes into that copy.
  Object.assign(env(), { SMTP_URL: `smtp://mailer:S3cret-pw@127.0.0.1:${(server.address() as AddressInfo).port}` });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the mail log", () => {
  it("logs a sent mail with its body and kind", async () => {
    await sendMail({ to: "ok@smtp.test", subject: "Hello", text: "Body with a link", kind: "test" });
    expect(received.filter((m) => m.to.includes("ok@smtp.test"))).toHaveLength(1);
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
    expect(failed[0].body).toContain("tok123");
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
    const delivered = received.filter((m) => m.to.includes("refused@smtp.test"));
    expect(delivered).toHaveLength(1);
    expect(delivered[0].data).toContain("tok123");
    expect((await failedMails(1)).total).toBe(0);
    // A mail no longer failed is not sent a second time.
    expect(await resendFailedMail(row.id)).toBeNull();
    expect(received.filter((m) => m.to.includes("refused@smtp.test"))).toHaveLength(1);
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
