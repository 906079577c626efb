import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { sendInvitation, type InvitationVariant } from "~/models/accounts/auth-mail.server";

/**
 * The one invitation mail (decision 046): each variant in both languages carries the /invite-signup link, the days it
 * works, who is invited into what and by whom, and is logged with its kind.
 */

const mailTo = (email: string) => outbox().find((m) => m.includes(`To: ${email}`)) ?? "";

describe("sendInvitation", () => {
  const cases: [InvitationVariant, "en" | "no", string, string[]][] = [
    ["member", "en", "You are invited to Join AS", ["join Join AS", "14 days"]],
    ["member", "no", "Du er invitert til Join AS", ["bli med i Join AS", "14 dager"]],
    ["administrator", "en", "You are invited to administer Join AS", ["administrator of Join AS", "valid for 14 days", "{email}"]],
    ["administrator", "no", "Du er invitert som administrator for Join AS", ["administrator for Join AS", "gjelder i 14 dager", "{email}"]],
    ["supplier", "en", "Kunde AS invites you to share information about your company", ["invites Join AS to take part", "{email}", "valid for 14 days"]],
    ["supplier", "no", "Kunde AS inviterer deg til å dele informasjon om selskapet ditt", ["inviterer Join AS til å delta", "{email}", "gyldig i 14 dager"]],
  ];
  it.each(cases)("%s in %s", async (variant, language, subject, phrases) => {
    const email = `${variant}-${language}@invitation-mail.test`;
    const mailed = await sendInvitation("https://app.test", { variant, email, token: "tok_en-1", language, organization: "Join AS", invitedBy: "Kunde AS" });
    expect(mailed).toBe(true);
    const mail = mailTo(email);
    expect(mail).toContain(`Subject: ${subject}`);
    expect(mail).toContain("https://app.test/invite-signup?token=tok_en-1");
    for (const phrase of phrases) expect(mail).toContain(phrase.replace("{email}", email));
    expect(mail).not.toMatch(/\{\{|\}\}/);
    const [logged] = await db().selectFrom("mail_log").select(["kind", "status"]).where("to_address", "=", email).execute();
    expect(logged).toEqual({ kind: `${variant}_invitation`, status: "sent" });
  });
});
