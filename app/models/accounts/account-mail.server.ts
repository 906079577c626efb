import { sendMail } from "@server/mail";
import i18nServer from "~/i18n.server";
import { formatDateTime } from "~/models/shared/format";
import type { Language } from "~/models/accounts/users.server";
import { describeUserAgent, deviceLabel } from "~/models/accounts/user-agent";

/**
 * The confirmation that a password was changed (decision 040), in the language of the account's mails:
 * when, from which address and browser, and the reset link for an owner who did not do it.
 */
export async function sendPasswordChanged(
  origin: string,
  input: { email: string; language: Language; at: string; ip: string | null; userAgent: string | null },
) {
  const t = await i18nServer.getFixedT(input.language, "account");
  const from = [input.ip ?? t("changePassword.mail.unknownAddress"), deviceLabel(describeUserAgent(input.userAgent), t)].join(", ");
  await sendMail({
    to: input.email,
    subject: t("changePassword.mail.subject"),
    text: t("changePassword.mail.body", { email: input.email, at: formatDateTime(input.at, input.language), from, reset: `${origin}/forgot-password` }),
  });
}
