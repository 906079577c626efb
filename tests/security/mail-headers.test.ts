import { describe, expect, it } from "vitest";
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

  it("turns every control character into a space", () => {
    expect(headerValue("a\u0000b\tc\u2028d\re\nf")).toBe("a b c d e f");
  });
});
