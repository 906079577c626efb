import { env } from "@server/env";
import { sendMail } from "@server/mail";
import i18nServer from "~/i18n.server";
import type { Language } from "./user.server";

/**
 * The mails of signing up and signing in, each in the language of the person
 * who reads it (the account's, or for a new address the page's). Links use the
 * public address (APP_URL) when set, else the address the request came to.
 */
export function publicOrigin(request: Request): string {
  return env().APP_URL?.replace(/\/+$/, "") ?? new URL(request.url).origin;
}

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
