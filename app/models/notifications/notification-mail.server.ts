import { db, now as nowIso, type Db } from "@server/db";
import { env } from "@server/env";
import { sendMail } from "@server/mail";
import { can } from "~/models/accounts/permissions";
import {
  countNotifications,
  listNotifications,
  type NotificationFilters,
  type NotificationListItem,
  type NotificationViewer,
} from "~/models/notifications/notification-list.server";
import { DEFAULT_LOOKBACK_DAYS, DEFAULT_MIN_RISK_SCORE_PANEL, LOOKBACK_DAYS_MAX } from "~/models/notifications/notifications";
import {
  DEFAULT_MAIL_PREFERENCES,
  DEFAULT_MAIL_SETTINGS,
  DIGEST_MAX_ITEMS,
  IMMEDIATE_MIN_RISK_SCORE,
  digestPeriod,
  digestSince,
  type DigestFrequency,
  type MailPreferences,
  type NotificationMailSettings,
} from "~/models/notifications/notification-settings";
import { unsubscribeHeaders, unsubscribeUrl } from "~/models/accounts/unsubscribe.server";
import { composeDigest, composeImmediate, type DigestContent } from "~/models/notifications/notification-mail-texts";

/**
 * Notification e-mails (docs/decisions/025-notification-mails.md): each user's settings, the digest and the
 * immediate mail for high-risk notifications. What a user may read in a mail is exactly what they may see in the app:
 * every list comes from `listNotifications` with their organisation, user id and language — never a query of its own.
 *
 * Once per period, at most once: a mail is first claimed by a `notification_mails` row (unique per user, kind and
 * period: '2026-11-24', '2026-W48', 'n{notificationId}'), committed, and only then sent. A second run finds the claim and
 * sends nothing; a send that fails releases its claim for the job's retry; a process that dies between the claim and
 * the send loses that one mail rather than ever sending it twice.
 */

// ---------------------------------------------------------------------------------------------------------------
// Settings

/** The user's settings; the defaults (weekly digest, immediate mail on, reminders on) while they have saved none. */
export async function getNotificationMailSettings(userId: number): Promise<NotificationMailSettings & MailPreferences & { saved: boolean }> {
  const row = await db()
    .selectFrom("notification_settings")
    .select(["digest", "immediate", "task_reminders", "survey_reminders", "mail_language"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return { ...DEFAULT_MAIL_SETTINGS, ...DEFAULT_MAIL_PREFERENCES, saved: false };
  return {
    digest: row.digest,
    immediate: row.immediate === 1,
    taskReminders: row.task_reminders === 1,
    surveyReminders: row.survey_reminders === 1,
    mailLanguage: row.mail_language,
    saved: true,
  };
}

/**
 * Saves the user's own settings (the user id comes from the session or a signed link, never from the form): the given
 * ones; a first save starts from the defaults.
 */
export async function saveNotificationMailSettings(userId: number, settings: Partial<NotificationMailSettings & MailPreferences>): Promise<void> {
  const values = {
    ...(settings.digest !== undefined ? { digest: settings.digest } : {}),
    ...(settings.immediate !== undefined ? { immediate: settings.immediate ? 1 : 0 } : {}),
    ...(settings.taskReminders !== undefined ? { task_reminders: settings.taskReminders ? 1 : 0 } : {}),
    ...(settings.surveyReminders !== undefined ? { survey_reminders: settings.surveyReminders ? 1 : 0 } : {}),
    ...(settings.mailLanguage !== undefined ? { mail_language: settings.mailLanguage } : {}),
    updated_at: nowIso(),
  };
  await db()
    .insertInto("notification_settings")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
}

/** The language of a user's mails: their chosen one, else their account's. */
export async function mailLanguageOf(userId: number): Promise<"en" | "no"> {
  const row = await db()
    .selectFrom("users as u")
    .leftJoin("notification_settings as s", "s.user_id", "u.id")
    .select(["u.language", "s.mail_language"])
    .where("u.id", "=", userId)
    .executeTakeFirst();
  return row?.mail_language ?? row?.language ?? "en";
}

// ---------------------------------------------------------------------------------------------------------------
// Recipients and links

interface Recipient {
  userId: number;
  email: string;
  language: "en" | "no";
  organizationId: number;
  digest: DigestFrequency;
  immediate: boolean;
}

/** Users who may read notifications (the permission table's notificationsRead), with their settings or the defaults. */
async function recipients(): Promise<Recipient[]> {
  const rows = await db()
    .selectFrom("users as u")
    .innerJoin("organizations as o", "o.id", "u.organization_id")
    .leftJoin("notification_settings as s", "s.user_id", "u.id")
    .select(["u.id", "u.email", "u.language", "s.mail_language", "u.is_admin", "u.access_level", "u.organization_id", "o.kind", "s.digest", "s.immediate"])
    .orderBy("u.id")
    .execute();
  return rows
    .filter((r) =>
      can({ accessLevel: r.access_level, isAdmin: r.is_admin === 1, organizationId: r.organization_id, organizationKind: r.kind }, "notificationsRead"),
    )
    .map((r) => ({
      userId: r.id,
      email: r.email,
      language: r.mail_language ?? r.language,
      organizationId: r.organization_id!,
      digest: r.digest ?? DEFAULT_MAIL_SETTINGS.digest,
      immediate: r.immediate == null ? DEFAULT_MAIL_SETTINGS.immediate : r.immediate === 1,
    }));
}

let warnedNoAppUrl = false;

/**
 * The app's public address for links in mails. Without APP_URL a mail has no address to point at (a relative path
 * is useless in a mail client): the mail goes without links, pointing to the screens by name, and the operator is
 * warned once per process.
 */
function resolveAppUrl(option: string | null | undefined): string | null {
  const configured = option === undefined ? (env().APP_URL ?? null) : option;
  if (configured) return configured.replace(/\/+$/, "");
  if (!warnedNoAppUrl) {
    warnedNoAppUrl = true;
    console.warn("APP_URL is not set: notification mails are sent without links to the app.");
  }
  return null;
}

/** Claims the mail; false when this user's mail of this kind and period exists (sent by an earlier run). */
async function claim(userId: number, kind: "digest" | "immediate", periodKey: string, count: number, at: string): Promise<boolean> {
  const inserted = await db()
    .insertInto("notification_mails")
    .values({ user_id: userId, kind, period_key: periodKey, notification_count: count, sent_at: at })
    .onConflict((oc) => oc.columns(["user_id", "kind", "period_key"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

async function release(userId: number, kind: "digest" | "immediate", periodKey: string): Promise<void> {
  await db().deleteFrom("notification_mails").where("user_id", "=", userId).where("kind", "=", kind).where("period_key", "=", periodKey).execute();
}

/** Claim, send, and on a failed send release the claim (so a retry sends it). */
async function claimAndSend(
  recipient: Recipient,
  kind: "digest" | "immediate",
  periodKey: string,
  count: number,
  at: string,
  mail: { subject: string; text: string; headers?: Record<string, string> },
): Promise<"sent" | "already" | "failed"> {
  if (!(await claim(recipient.userId, kind, periodKey, count, at))) return "already";
  try {
    await sendMail({ to: recipient.email, ...mail });
    return "sent";
  } catch (error) {
    await release(recipient.userId, kind, periodKey);
    console.warn(`Notification mail (${kind} ${periodKey}) to user ${recipient.userId} failed: ${error instanceof Error ? error.message : String(error)}`);
    return "failed";
  }
}

export interface MailRunResult {
  sent: number;
  /** Already sent for this period by an earlier run. */
  already: number;
  /** Nothing to say: no mail. */
  empty: number;
  failed: number;
}

/** How many ids one visibility question names (SQLite's bound values are limited). */
const PAGE = 500;

// ---------------------------------------------------------------------------------------------------------------
// The digest

/**
 * What a user's digest would list: the notifications they can see with the panel's defaults (risk score 50 or more,
 * the last 30 days, unread by them, not dismissed by their organisation) created since `since`, newest first.
 */
export async function digestContent(viewer: NotificationViewer, since: string, at: Date): Promise<DigestContent> {
  const filters: NotificationFilters = {
    minRiskScore: DEFAULT_MIN_RISK_SCORE_PANEL,
    lookbackDays: DEFAULT_LOOKBACK_DAYS,
    type: "all",
    read: "unread",
    status: "active",
    createdSince: since,
  };
  const [items, total] = await Promise.all([listNotifications(viewer, filters, { limit: DIGEST_MAX_ITEMS }, at), countNotifications(viewer, filters, at)]);
  return { total, items };
}

/**
 * The digest run (daily at 07:00 Oslo time): for each user who may read notifications and whose digest is due — daily
 * users every day, weekly users on Mondays — one mail per period listing what is new for them; nothing new, no mail.
 */
export async function sendDigests(options: { at?: Date; appUrl?: string | null } = {}): Promise<MailRunResult> {
  const at = options.at ?? new Date();
  const sentAt = at.toISOString();
  const result: MailRunResult = { sent: 0, already: 0, empty: 0, failed: 0 };
  let appUrl: string | null | undefined;
  for (const recipient of await recipients()) {
    if (recipient.digest === "off") continue;
    const period = digestPeriod(recipient.digest, at);
    if (!period) continue;
    const done = await db()
      .selectFrom("notification_mails")
      .select("id")
      .where("user_id", "=", recipient.userId)
      .where("kind", "=", "digest")
      .where("period_key", "=", period)
      .executeTakeFirst();
    if (done) {
      result.already++;
      continue;
    }
    const previous = await db()
      .selectFrom("notification_mails")
      .select((eb) => eb.fn.max("sent_at").as("at"))
      .where("user_id", "=", recipient.userId)
      .where("kind", "=", "digest")
      .executeTakeFirst();
    const since = digestSince(recipient.digest, at, previous?.at ?? null);
    const viewer = { userId: recipient.userId, organizationId: recipient.organizationId, language: recipient.language };
    const content = await digestContent(viewer, since, at);
    if (content.total === 0) {
      result.empty++;
      continue;
    }
    if (appUrl === undefined) appUrl = resolveAppUrl(options.appUrl);
    const unsubscribe = appUrl ? unsubscribeUrl(appUrl, recipient.userId, "digest", at) : null;
    const mail = {
      ...composeDigest({ language: recipient.language, frequency: recipient.digest, since, content, appUrl, unsubscribe }),
      headers: unsubscribeHeaders(unsubscribe),
    };
    result[await claimAndSend(recipient, "digest", period, content.total, sentAt, mail)]++;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// The immediate mail

export const IMMEDIATE_CURSOR_KEY = "notifications.immediate.cursor";
/** At most this many new high-risk notifications per run; the rest wait for the next run (five minutes later). */
const IMMEDIATE_BATCH = 200;

export async function readImmediateCursor(): Promise<number | null> {
  const row = await db().selectFrom("monitor_state").select("value").where("key", "=", IMMEDIATE_CURSOR_KEY).executeTakeFirst();
  return row ? Number(row.value) : null;
}

/** Writes the cursor (inside the job's `finish`, with its transaction). */
export async function writeImmediateCursor(trx: Db, lastId: number): Promise<void> {
  const values = { value: String(lastId), updated_at: nowIso() };
  await trx
    .insertInto("monitor_state")
    .values({ key: IMMEDIATE_CURSOR_KEY, ...values })
    .onConflict((oc) => oc.column("key").doUpdateSet(values))
    .execute();
}

/**
 * Which of these notifications the viewer's organisation sees (follows the supplier; its own news hits only; not
 * dismissed): asked of listNotifications, over the window of dates the candidates have.
 */
async function visibleAmong(viewer: NotificationViewer, candidates: { id: number; date: string }[], at: Date): Promise<NotificationListItem[]> {
  const oldest = candidates.reduce((min, c) => (c.date < min ? c.date : min), candidates[0].date);
  const oldestMs = Date.parse(oldest.length === 10 ? `${oldest}T00:00:00Z` : oldest);
  const days = Number.isNaN(oldestMs) ? DEFAULT_LOOKBACK_DAYS : Math.ceil((at.getTime() - oldestMs) / 86_400_000) + 1;
  const lookbackDays = Math.max(0, Math.min(LOOKBACK_DAYS_MAX, days));
  const ids = candidates.map((c) => c.id);
  const found: NotificationListItem[] = [];
  for (let i = 0; i < ids.length; i += PAGE) {
    const slice = ids.slice(i, i + PAGE);
    found.push(
      ...(await listNotifications(
        viewer,
        { minRiskScore: IMMEDIATE_MIN_RISK_SCORE, lookbackDays, type: "all", status: "active", ids: slice },
        { limit: slice.length },
        at,
      )),
    );
  }
  return found;
}

export interface ImmediateRunResult extends MailRunResult {
  /** The last notification id this run dealt with: the cursor to write when the run finishes. */
  cursor: number;
  notifications: number;
}

/**
 * The immediate run (every five minutes): the notifications of risk score 80 or more written since the cursor, each
 * mailed to every user with the immediate mail on whose organisation sees it. The first run ever only places the
 * cursor at the newest notification: what existed before (the demo's history) is not mailed.
 */
export async function sendImmediateMails(options: { at?: Date; appUrl?: string | null } = {}): Promise<ImmediateRunResult> {
  const at = options.at ?? new Date();
  const sentAt = at.toISOString();
  const result: ImmediateRunResult = { sent: 0, already: 0, empty: 0, failed: 0, cursor: 0, notifications: 0 };
  const cursor = await readImmediateCursor();
  if (cursor === null) {
    const newest = await db()
      .selectFrom("risk_notifications")
      .select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst();
    return { ...result, cursor: Number(newest?.id ?? 0) };
  }
  const candidates = await db().selectFrom("risk_notifications").select(["id", "date"]).where("id", ">", cursor).orderBy("id").limit(IMMEDIATE_BATCH).execute();
  result.cursor = candidates.length ? candidates[candidates.length - 1].id : cursor;
  const high = await db()
    .selectFrom("risk_notifications")
    .select(["id", "date"])
    .where("id", "in", candidates.length ? candidates.map((c) => c.id) : [-1])
    .where("risk_score", ">=", IMMEDIATE_MIN_RISK_SCORE)
    .orderBy("id")
    .execute();
  result.notifications = high.length;
  if (high.length === 0) return result;

  const byOrganization = new Map<number, Recipient[]>();
  for (const r of await recipients()) {
    if (!r.immediate) continue;
    byOrganization.set(r.organizationId, [...(byOrganization.get(r.organizationId) ?? []), r]);
  }
  let appUrl: string | null | undefined;
  for (const [organizationId, members] of byOrganization) {
    // Visibility is the organisation's (read state does not matter here); the texts are in each member's language.
    const byLanguage = new Map<"en" | "no", NotificationListItem[]>();
    for (const member of members) {
      let visible = byLanguage.get(member.language);
      if (!visible) {
        visible = (await visibleAmong({ userId: member.userId, organizationId, language: member.language }, high, at)).sort((a, b) => a.id - b.id);
        byLanguage.set(member.language, visible);
      }
      if (visible.length === 0) continue;
      if (appUrl === undefined) appUrl = resolveAppUrl(options.appUrl);
      for (const item of visible) {
        const unsubscribe = appUrl ? unsubscribeUrl(appUrl, member.userId, "immediate", at) : null;
        const mail = { ...composeImmediate({ language: member.language, item, appUrl, unsubscribe }), headers: unsubscribeHeaders(unsubscribe) };
        result[await claimAndSend(member, "immediate", `n${item.id}`, 1, sentAt, mail)]++;
      }
    }
  }
  return result;
}
