import { sendMail } from "@server/mail";
import i18nServer from "~/i18n.server";
import { formatDate } from "~/models/shared/format";
import { unsubscribeHeaders } from "~/models/accounts/unsubscribe.server";

/**
 * The mails a supplier's contact gets about a task or survey (decision 031): the request, a reminder, and a
 * return for rework. The contact has no account and no known language, so every mail is written in Norwegian and then
 * in English. The link is the only way in without an account; the mail says it may be forwarded (delegation).
 */

export type TaskMailKind = "request" | "reminder" | "returned";

export interface TaskMail {
  kind: TaskMailKind;
  to: string;
  customerName: string;
  itemKind: "task" | "survey";
  title: string;
  message: string | null;
  dueDate: string | null;
  returnComment?: string | null;
  /** The whole address of the public page with its token (publicTaskUrl). */
  url: string;
  linkExpiresAt: string;
  /** A reminder to a user's own address: the one-click link that turns such reminders off (decision 040). */
  unsubscribe?: string | null;
}

/** The public page a link opens: a survey by its response id (the route map's `…/public`), a task by its task id. */
export function publicTaskPath(item: { kind: "task" | "survey"; complianceTaskId: number | null; surveyResponseId: number | null }, token: string): string {
  const path = item.kind === "survey" ? `/tasks/surveys/${item.surveyResponseId}/public` : `/tasks/${item.complianceTaskId}/public`;
  return `${path}?token=${encodeURIComponent(token)}`;
}

async function body(language: "no" | "en", mail: TaskMail): Promise<{ subject: string; text: string }> {
  const t = await i18nServer.getFixedT(language, "taskStates");
  const values = { customer: mail.customerName, title: mail.title, kind: t(`kindInText.${mail.itemKind}`) };
  const lines = [t("mail.greeting"), "", t(`mail.${mail.kind}`, values)];
  if (mail.kind === "returned" && mail.returnComment) lines.push(t("mail.returnComment", { comment: mail.returnComment }));
  if (mail.message && mail.kind === "request") lines.push("", t("mail.message", values), mail.message);
  if (mail.dueDate) lines.push("", t("mail.due", { date: formatDate(mail.dueDate, language) }));
  lines.push("", t("mail.open"), mail.url, "", t("mail.linkNote", { date: formatDate(mail.linkExpiresAt, language) }), "", t("mail.signature", values));
  if (mail.unsubscribe) lines.push("", t(`mail.unsubscribe.${mail.itemKind}`, { link: mail.unsubscribe }));
  return { subject: t(`mail.${mail.kind}Subject`, values), text: lines.join("\n") };
}

/** Sends the mail (Norwegian first, then English, one subject line in each joined by " / "). */
export async function sendSupplierTaskMail(mail: TaskMail): Promise<void> {
  const no = await body("no", mail);
  const en = await body("en", mail);
  await sendMail({
    to: mail.to,
    subject: `${no.subject} / ${en.subject}`,
    text: `${no.text}\n\n— English below —\n\n${en.text}\n`,
    headers: unsubscribeHeaders(mail.unsubscribe ?? null),
  });
}
