import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataPath, env } from "./env";
import { noteIntegration } from "./integration-status";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** More header fields, e.g. List-Unsubscribe (decision 040). Line breaks are removed. */
  headers?: Record<string, string>;
}

let sequence = 0;

/**
 * Sends a mail. Without SMTP configured (the default) each mail is written as
 * an .eml file to DATA_DIR/outbox, where an operator or a test can read it.
 */
export async function sendMail(mail: Mail): Promise<{ file?: string }> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (SMTP_URL) {
    // Loaded only when configured, so the default install carries no mail client.
    const nodemailer = (await import("nodemailer")).default;
    try {
      await nodemailer.createTransport(SMTP_URL).sendMail({ from: MAIL_FROM, ...mail });
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
    ...Object.entries(mail.headers ?? {}).map(([name, value]) => `${name.replace(/[^A-Za-z0-9-]/g, "")}: ${value.replace(/[\r\n]+/g, " ")}`),
    "Content-Type: text/plain; charset=utf-8",
    "",
    mail.text,
    "",
  ].join("\r\n");
  fs.writeFileSync(file, body);
  return { file };
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
