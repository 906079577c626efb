import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { headerValue, outbox, sendMail } from "@server/mail";

/** Mail header injection: a line break in text a user wrote (an organisation's name in a subject) never starts a new field. */
describe("mail header fields", () => {
  it("writes every header on one line, whatever the subject, address or extra field holds", async () => {
    const before = outbox().length;
    await sendMail({
      to: "victim@test.example\r\nBcc: thief@evil.example",
      subject: "Welcome to Evil AS\r\nBcc: thief@evil.example\nX-Injected: 1",
      text: "Hello",
      headers: { "List-Unsubscribe": "<https://example.test/u>\r\nBcc: thief@evil.example" },
    });
    const written = outbox().slice(before);
    expect(written).toHaveLength(1);
    const mail = written[0];
    const head = mail.split("\r\n\r\n")[0];
    const names = head.split("\r\n").map((line) => line.slice(0, line.indexOf(":")));
    expect(names).toEqual(["From", "To", "Subject", "Date", "List-Unsubscribe", "Content-Type"]);
    expect(head).not.toMatch(/^Bcc:/m);
    expect(head).not.toMatch(/^X-Injected:/m);
    expect(head).toContain("Subject: Welcome to Evil AS Bcc: thief@evil.example X-Injected: 1");
  });

  it("a mail written to the outbox (no SMTP configured) is mail's last success on /admin/integrations", async () => {
    await db().deleteFrom("integration_status").where("code", "=", "mail").execute();
    await sendMail({ to: "someone@test.example", subject: "Hello", text: "Hi" });
    const row = await db().selectFrom("integration_status").select(["last_success_at"]).where("code", "=", "mail").executeTakeFirst();
    expect(row?.last_success_at).toBeTruthy();
  });

  it("turns every control character into a space", () => {
    expect(headerValue("a\u0000b\tc\u2028d\re\nf")).toBe("a b c d e f");
  });
});
