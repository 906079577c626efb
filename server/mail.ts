import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { db, now } from "./db";
import { dataPath, env, sessionSecret } from "./env";
import { noteIntegration } from "./integration-status";
import { decryptSetting, encryptSetting } from "./settings-crypto";
import { LINE_BREAKING } from "~/models/shared/single-line";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** More header fields, e.g. List-Unsubscribe (decision 040). Line breaks are removed. */
  headers?: Record<string, string>;
  /** What kind of mail this is, for the mail log (e.g. "invitation"); optional. */
  kind?: string;
}

let sequence = 0;

/**
 * A header field's value on one line: CR, LF and every other control character become a space, so no text a user
 * wrote (an organisation's name in a subject, an address) can end the field and start another (`Bcc:`).
 */
export function headerValue(value: string): string {
  return value.replace(LINE_BREAKING, " ").replace(/ {2,}/g, " ").trim();
}

/**
 * A mail's text (or a header) as the mail log keeps it: the secret of every one-time link (`?token=`, `&token=`,
 * `?unlock=`) replaced, so a copy of the database holds no working link. The delivered mail is not changed.
 */
export function withoutLinkSecrets(text: string): string {
  return text.replace(/([?&](?:token|unlock)=)[^&\s"'<>)\]]+/gi, "$1[removed]");
}

/**
 * A failed mail must be sent again as it was, links included: its text is kept sealed (AES-256-GCM under a key derived
 * from the session secret, which is not in the database) until it is sent, then replaced by the text without secrets.
 */
const SEALED = "sealed:";
const sealKey = () => createHash("sha256").update(`mail-log:${sessionSecret()}`).digest();
const seal = (text: string) => SEALED + encryptSetting(text, sealKey(), "mail_log.body");
const unseal = (stored: string) => (stored.startsWith(SEALED) ? decryptSetting(stored.slice(SEALED.length), sealKey(), "mail_log.body") : stored);

/** Delivers a mail: through SMTP when configured, else as an .eml file in DATA_DIR/outbox. */
async function deliver(unsafe: Mail): Promise<{ file?: string }> {
  const { SMTP_URL, MAIL_FROM } = env();
  const mail: Mail = {
    ...unsafe,
    to: headerValue(unsafe.to),
    subject: headerValue(unsafe.subject),
    headers:
      unsafe.headers && Object.fromEntries(Object.entries(unsafe.headers).map(([name, value]) => [name.replace(/[^A-Za-z0-9-]/g, ""), headerValue(value)])),
  };
  if (SMTP_URL) {
    // Loaded only when configured, so the default install carries no mail client.
    const nodemailer = (await import("nodemailer")).default;
    try {
      await nodemailer.createTransport(SMTP_URL).sendMail({ from: MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, headers: mail.headers });
    } catch (error) {
      // The SMTP server's last error for /admin/integrations (decision 043); the caller still sees the failure.
      await noteIntegration("mail", { ok: false, error });
      throw error;
    }
    await noteIntegration("mail", { ok: true });
    return {};
  }
  const dir = dataPath("outbox");
  fs.mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, "_");
  // Several mails to one address within a millisecond (the immediate notification mails) must not overwrite each other:
  // a sequence number keeps the name order the sending order, a random part keeps two processes apart.
  sequence = (sequence + 1) % 1_000_000;
  const file = path.join(dir, `${stamp}-${String(sequence).padStart(6, "0")}-${randomBytes(3).toString("hex")}-${safeTo}.eml`);
  const body = [
    `From: ${MAIL_FROM}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    `Date: ${new Date().toUTCString()}`,
    ...Object.entries(mail.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    "Content-Type: text/plain; charset=utf-8",
    "",
    mail.text,
    "",
  ].join("\r\n");
  fs.writeFileSync(file, body);
  // The outbox is where mail goes without SMTP: a mail written there is a success on /admin/integrations.
  await noteIntegration("mail", { ok: true });
  return { file };
}

/**
 * A failure's message for the log, without secrets: the SMTP address (it may carry a user and password) and any
 * credentials in a URL are masked, and the text is cut short.
 */
export function mailErrorMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  const smtp = env().SMTP_URL;
  if (smtp) {
    message = message.split(smtp).join("[smtp]");
    try {
      const password = decodeURIComponent(new URL(smtp).password);
      if (password) message = message.split(password).join("***");
    } catch {
      // Not a URL: masked as a whole above.
    }
  }
  return message.replace(/\/\/[^/\s:@]+:[^/\s@]+@/g, "//***@").slice(0, 500);
}

/** The extra header fields as the log keeps them (JSON): a sent mail's without link secrets, a failed one's as sent again. */
function loggedHeaders(headers: Mail["headers"], sent: boolean): string | null {
  if (!headers || Object.keys(headers).length === 0) return null;
  const json = JSON.stringify(headers);
  return sent ? withoutLinkSecrets(json) : json;
}

/** Writes the log row; the log must never turn a sent mail into an error (the caller would send it again). */
async function logMail(mail: Mail, outcome: { ok: true } | { ok: false; error: string }): Promise<number | undefined> {
  const at = now();
  try {
    const row = await db()
      .insertInto("mail_log")
      .values({
        to_address: mail.to,
        subject: mail.subject,
        kind: mail.kind ?? null,
        body: outcome.ok ? withoutLinkSecrets(mail.text) : seal(mail.text),
        headers: loggedHeaders(mail.headers, outcome.ok),
        status: outcome.ok ? "sent" : "failed",
        error: outcome.ok ? null : outcome.error,
        attempts: 1,
        created_at: at,
        last_attempt_at: at,
        sent_at: outcome.ok ? at : null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (error) {
    console.warn(`mail log: could not record a mail (${mailErrorMessage(error)})`);
    return undefined;
  }
}

/**
 * Sends a mail. Without SMTP configured (the default) each mail is written as
 * an .eml file to DATA_DIR/outbox, where an operator or a test can read it.
 * Every mail, sent or failed, goes into the mail log (decision 044); a failure is
 * logged and then thrown to the caller as before.
 */
export async function sendMail(mail: Mail): Promise<{ file?: string; logId?: number }> {
  let result: { file?: string };
  try {
    result = await deliver(mail);
  } catch (error) {
    await logMail(mail, { ok: false, error: mailErrorMessage(error) });
    throw error;
  }
  const logId = await logMail(mail, { ok: true });
  return { ...result, logId };
}

/**
 * Sends a failed mail of the log again: a success marks it sent, a failure counts the attempt and keeps the new error.
 * Returns null when there is no such failed mail (sent meanwhile, purged).
 */
export async function resendLoggedMail(id: number): Promise<"sent" | "failed" | null> {
  const row = await db().selectFrom("mail_log").selectAll().where("id", "=", id).where("status", "=", "failed").executeTakeFirst();
  if (!row) return null;
  let headers: Record<string, string> | undefined;
  try {
    headers = row.headers ? (JSON.parse(row.headers) as Record<string, string>) : undefined;
  } catch {
    headers = undefined;
  }
  const at = now();
  try {
    await deliver({ to: row.to_address, subject: row.subject, text: unseal(row.body), headers });
  } catch (error) {
    await db()
      .updateTable("mail_log")
      .set((eb) => ({ attempts: eb("attempts", "+", 1), error: mailErrorMessage(error), last_attempt_at: at }))
      .where("id", "=", id)
      .execute();
    return "failed";
  }
  await db()
    .updateTable("mail_log")
    .set((eb) => ({
      status: "sent",
      error: null,
      attempts: eb("attempts", "+", 1),
      last_attempt_at: at,
      sent_at: at,
      body: withoutLinkSecrets(unseal(row.body)),
    }))
    .where("id", "=", id)
    .execute();
  return "sent";
}

/** Deletes the logged mails older than MAIL_LOG_DAYS (their bodies hold one-time links); returns how many. */
export async function purgeMailLog(at: Date = new Date()): Promise<number> {
  const before = new Date(at.getTime() - env().MAIL_LOG_DAYS * 86_400_000).toISOString();
  const result = await db().deleteFrom("mail_log").where("created_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Mails written to the outbox, newest last (for tests and the operator). */
export function outbox(): string[] {
  const dir = dataPath("outbox");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
}
