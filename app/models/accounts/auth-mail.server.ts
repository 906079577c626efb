import { sendMail } from "@server/mail";
import i18nServer from "~/i18n.server";
import { INVITATION_DAYS, type Language } from "~/models/accounts/users.server";

/**
 * The mails of signing up and signing in, each in the language of the person
 * who reads it (the account's, or for a new address the page's). Links start
 * with the public origin the route kit gives (app/http/request-source.server.ts).
 */

async function mail(language: Language, to: string, subjectKey: string, bodyKey: string, values: Record<string, string>) {
  const t = await i18nServer.getFixedT(language, "auth");
  await sendMail({ to, subject: t(subjectKey), text: t(bodyKey, values) });
}

/** A new address: the link that finishes the sign-up. */
export function sendSignupConfirmation(origin: string, input: { email: string; token: string; language: Language; organizationName: string }) {
  const link = `${origin}/signup?token=${encodeURIComponent(input.token)}`;
  return mail(input.language, input.email, "signup.mailSubject", "signup.mailBody", { email: input.email, organization: input.organizationName, link });
}

/** Someone signed up with an address that has an account: its owner learns it, the form says nothing. */
export function sendAccountExists(origin: string, input: { email: string; language: Language }) {
  return mail(input.language, input.email, "signup.existsSubject", "signup.existsBody", {
    email: input.email,
    login: `${origin}/login`,
    reset: `${origin}/forgot-password`,
  });
}

/** Many failed sign-ins protect the account: the owner's way in. */
export function sendUnlock(origin: string, input: { email: string; language: Language; token: string }) {
  const link = `${origin}/login?unlock=${encodeURIComponent(input.token)}`;
  return mail(input.language, input.email, "login.unlockSubject", "login.unlockBody", { email: input.email, link, reset: `${origin}/forgot-password` });
}

/** The password reset link. */
export function sendPasswordReset(origin: string, input: { email: string; language: Language; token: string }) {
  const link = `${origin}/reset-password?token=${encodeURIComponent(input.token)}`;
  return mail(input.language, input.email, "forgot.mailSubject", "forgot.mailBody", { email: input.email, link });
}

/**
 * Who is invited, and by whom: a colleague into an organisation (`member`, /my-organization/users), the first
 * administrator of a new customer organisation (`administrator`, /admin/organizations), or a priority supplier's
 * contact into the supplier's organisation on a customer's behalf (`supplier`, `invitedBy` is the customer's name).
 */
export type InvitationVariant = "member" | "administrator" | "supplier";

/**
 * The one invitation mail: the /invite-signup link, in the inviter's chosen language (the invitee has no account yet),
 * logged with the kind `<variant>_invitation`. False when the mail failed: sendMail has logged it as failed (decision
 * 044), the invitation stands and the mail is sent again from /admin/send-old (or by a new invitation link).
 */
export async function sendInvitation(
  origin: string,
  input: { variant: InvitationVariant; email: string; token: string; language: Language; organization: string; invitedBy?: string },
): Promise<boolean> {
  const t = await i18nServer.getFixedT(input.language, "mail");
  const values = {
    organization: input.organization,
    invitedBy: input.invitedBy ?? "",
    email: input.email,
    link: `${origin}/invite-signup?token=${encodeURIComponent(input.token)}`,
    days: INVITATION_DAYS,
  };
  try {
    await sendMail({
      to: input.email,
      kind: `${input.variant}_invitation`,
      subject: t(`invitation.${input.variant}.subject`, values),
      text: t(`invitation.${input.variant}.body`, values),
    });
    return true;
  } catch {
    return false;
  }
}
