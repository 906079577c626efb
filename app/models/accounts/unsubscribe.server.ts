import { timingSafeEqual } from "node:crypto";
import { keyedDigest } from "@server/auth/tokens";
import { db } from "@server/db";
import { UNSUBSCRIBE_SETTINGS, type UnsubscribeSetting } from "~/models/notifications/notification-settings";

/**
 * One-click unsubscribe links (decision 040). A token names one user and exactly one setting and expires; it
 * is signed with a key derived from the session secret for this purpose only, so it cannot be forged or turned to
 * another user or setting, and nothing is stored. Format: `<userId>.<setting>.<expires, unix seconds>.<signature>`.
 */

export const UNSUBSCRIBE_DAYS = 90;
const PURPOSE = "unsubscribe";

function signature(payload: string): string {
  return keyedDigest(PURPOSE, payload).slice(0, 32);
}

export function unsubscribeToken(userId: number, setting: UnsubscribeSetting, at: Date = new Date()): string {
  const expires = Math.floor(at.getTime() / 1000) + UNSUBSCRIBE_DAYS * 86_400;
  const payload = `${userId}.${setting}.${expires}`;
  return `${payload}.${signature(payload)}`;
}

export function unsubscribeUrl(appUrl: string, userId: number, setting: UnsubscribeSetting, at: Date = new Date()): string {
  return `${appUrl}/account/unsubscribe?token=${encodeURIComponent(unsubscribeToken(userId, setting, at))}`;
}

/** The mail's List-Unsubscribe header for a link, or none. */
export function unsubscribeHeaders(url: string | null): Record<string, string> | undefined {
  return url ? { "List-Unsubscribe": `<${url}>` } : undefined;
}

export type UnsubscribeCheck = { ok: true; userId: number; setting: UnsubscribeSetting } | { ok: false; reason: "invalid" | "expired" };

/** Reads a token: the user and setting it names, or why not (a wrong signature, any other setting or shape: invalid). */
export function readUnsubscribeToken(token: unknown, at: Date = new Date()): UnsubscribeCheck {
  if (typeof token !== "string" || token.length > 200) return { ok: false, reason: "invalid" };
  const match = /^([1-9]\d{0,15})\.([A-Za-z]{1,40})\.(\d{1,12})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return { ok: false, reason: "invalid" };
  const [, id, setting, expires, sig] = match;
  const expected = Buffer.from(signature(`${id}.${setting}.${expires}`));
  if (!timingSafeEqual(expected, Buffer.from(sig!))) return { ok: false, reason: "invalid" };
  if (!(UNSUBSCRIBE_SETTINGS as readonly string[]).includes(setting!)) return { ok: false, reason: "invalid" };
  if (Number(expires) * 1000 <= at.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, userId: Number(id), setting: setting as UnsubscribeSetting };
}

/** A link's token checked against the accounts: the user's address beside what the token names, or why not. */
export async function checkUnsubscribeLink(token: unknown): Promise<(UnsubscribeCheck & { ok: false }) | (UnsubscribeCheck & { ok: true; email: string })> {
  const result = readUnsubscribeToken(token);
  if (!result.ok) return result;
  const user = await db().selectFrom("users").select("email").where("id", "=", result.userId).executeTakeFirst();
  return user ? { ...result, email: user.email } : { ok: false, reason: "invalid" };
}

/** The link for mail to an address, when the address is a user's (a reminder goes to an address); null otherwise or without an origin. */
export async function userUnsubscribeUrl(origin: string, email: string, setting: UnsubscribeSetting, at: Date = new Date()): Promise<string | null> {
  if (!/^https?:\/\//.test(origin)) return null;
  const user = await db().selectFrom("users").select("id").where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
  return user ? unsubscribeUrl(origin.replace(/\/+$/, ""), user.id, setting, at) : null;
}
