import { isLanguage } from "~/i18n";
import { translate, type Store } from "~/translate";
import enCommon from "../../../locales/en/common.json";
import enMail from "../../../locales/en/mail.json";
import noCommon from "../../../locales/no/common.json";
import noMail from "../../../locales/no/mail.json";
import { formatDate } from "~/models/shared/format";
import type { NotificationListItem } from "~/models/notifications/notification-list.server";
import type { DigestFrequency } from "~/models/notifications/notification-settings";

/**
 * The notification mails' texts (docs/decisions/025-notification-mails.md): the digest and the immediate mail in the
 * recipient's language, with links back to the app when its address is known. Pure: the mail runs
 * (notification-mail.server.ts) hand in what to say.
 */

// Read from the files, not through the request-bound i18next instance: the jobs run outside requests (the worker).
const STORE: Store = { en: { mail: enMail, common: enCommon }, no: { mail: noMail, common: noCommon } };
type T = (key: string, options?: Record<string, unknown>) => string;
function textsFor(language: string): T {
  const languages = isLanguage(language) && language !== "en" ? [language, "en"] : ["en"];
  return (key, options) => translate(STORE, languages, "mail", key, options);
}

function supplierPath(item: NotificationListItem): string {
  const params = new URLSearchParams({ externalId: item.organization.id });
  if (item.organization.local_organization_id != null) params.set("localId", String(item.organization.local_organization_id));
  return `/supplier?${params.toString()}`;
}

/** The lines that end every notification mail: where to see everything and how to change these mails. */
function footer(t: T, appUrl: string | null, settingsKey: string, unsubscribe: string | null): string[] {
  return [
    appUrl ? t("common.allNotifications", { link: `${appUrl}/notifications` }) : t("common.allNotificationsNoLink"),
    "",
    t(settingsKey),
    appUrl ? t("common.changeSettings", { link: `${appUrl}/account/email-settings` }) : t("common.changeSettingsNoLink"),
    ...(unsubscribe ? [t(`common.unsubscribe_${settingsKey.startsWith("digest") ? "digest" : "immediate"}`, { link: unsubscribe })] : []),
    "",
    t("common.signature", { app: t("common:appName") }),
  ];
}

export interface DigestContent {
  total: number;
  /** The first DIGEST_MAX_ITEMS, newest first. */
  items: NotificationListItem[];
}

/** The digest's text: grouped by supplier (the supplier with the newest notification first), capped, with links back. */
export function composeDigest(input: {
  language: string;
  frequency: Exclude<DigestFrequency, "off">;
  since: string;
  content: DigestContent;
  appUrl: string | null;
  /** The one-click link that turns the digest off (decision 040). */
  unsubscribe?: string | null;
}): { subject: string; text: string } {
  const t = textsFor(input.language);
  const { total, items } = input.content;
  const groups = new Map<string, NotificationListItem[]>();
  for (const item of items) {
    const key = item.organization.id;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const lines = [t("common.greeting"), "", t("digest.intro", { count: total, since: formatDate(input.since, input.language) }), ""];
  for (const group of groups.values()) {
    const first = group[0];
    lines.push(first.organization.organization_name);
    for (const item of group) {
      lines.push(t("digest.item", { date: formatDate(item.date, input.language), score: item.risk_score, title: item.content.title ?? t("common.untitled") }));
    }
    if (input.appUrl) lines.push(t("digest.supplierLink", { link: input.appUrl + supplierPath(first) }));
    lines.push("");
  }
  if (total > items.length) lines.push(t("digest.more", { count: total - items.length }), "");
  lines.push(...footer(t, input.appUrl, `digest.why_${input.frequency}`, input.unsubscribe ?? null));
  return { subject: t("digest.subject", { count: total }), text: lines.join("\n") };
}

export function composeImmediate(input: { language: string; item: NotificationListItem; appUrl: string | null; unsubscribe?: string | null }): {
  subject: string;
  text: string;
} {
  const t = textsFor(input.language);
  const { item, appUrl } = input;
  const supplier = item.organization.organization_name;
  const title = item.content.title ?? t("common.untitled");
  const lines = [
    t("common.greeting"),
    "",
    t("immediate.intro", { supplier, score: item.risk_score }),
    "",
    title,
    t("immediate.meta", { date: formatDate(item.date, input.language), score: item.risk_score, relevance: item.relevance_score }),
  ];
  if (item.content.risk.description) lines.push("", item.content.risk.description);
  if (item.content.url) lines.push("", t("immediate.source", { source: item.content.source ?? item.content.url, link: item.content.url }));
  lines.push("", appUrl ? t("immediate.supplierLink", { link: appUrl + supplierPath(item) }) : t("immediate.supplierNoLink"), "");
  lines.push(...footer(t, appUrl, "immediate.why", input.unsubscribe ?? null));
  return { subject: t("immediate.subject", { supplier, title }), text: lines.join("\n") };
}
