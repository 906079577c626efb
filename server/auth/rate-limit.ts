import { sql } from "kysely";
import { db, now } from "../db";
import { env } from "../env";

/**
 * Limits on guessing passwords (docs/decisions/011), kept in the database so
 * a restart does not reset them. Failed sign-ins are counted over a sliding
 * window under three keys:
 * - one account from one address (`pair:`): past the limit, that address
 *   waits before its next try on that account, and the wait doubles with
 *   every further failure (1, 2, 4 … minutes, at most the window). Someone
 *   guessing elsewhere does not slow the owner down.
 * - one address, any account (`address:`): the same growing wait, against
 *   one machine trying many accounts.
 * - one account from everywhere (`account:`): many failures from many
 *   addresses protect the account: only browsers that signed in to it before,
 *   or the owner with the unlock link mailed to them, may sign in until the
 *   failures age out of the window.
 */
export type LimitState = { limited: false } | { limited: true; reason: "slowed"; retryAfterMinutes: number } | { limited: true; reason: "protected" };

const accountKey = (email: string) => `account:${email}`;
const addressKey = (address: string | null) => `address:${address ?? "unknown"}`;
const pairKey = (email: string, address: string | null) => `pair:${email}|${address ?? "unknown"}`;

function windowMs(): number {
  return env().LOGIN_WINDOW_MINUTES * 60_000;
}

function windowStart(): string {
  return new Date(Date.now() - windowMs()).toISOString();
}

async function failures(key: string): Promise<string[]> {
  const rows = await db().selectFrom("login_failures").select("at").where("key", "=", key).where("at", ">", windowStart()).orderBy("at", "asc").execute();
  return rows.map((r) => r.at);
}

/** Milliseconds until the next try is allowed under this key (0: now). */
export async function growingDelay(key: string, max: number): Promise<number> {
  const times = await failures(key);
  if (times.length < max) return 0;
  const wait = Math.min(windowMs(), 60_000 * 2 ** (times.length - max));
  return Math.max(0, Date.parse(times[times.length - 1]!) + wait - Date.now());
}

export async function loginLimit(input: { email: string; address: string | null; knownBrowser: boolean; unlocked: boolean }): Promise<LimitState> {
  // The mailed unlock link proves the mailbox: its holder is the owner, wherever they are.
  if (input.unlocked) return { limited: false };
  const config = env();
  const delay = Math.max(
    await growingDelay(addressKey(input.address), config.LOGIN_MAX_FAILURES_PER_ADDRESS),
    await growingDelay(pairKey(input.email, input.address), config.LOGIN_MAX_FAILURES_PER_ACCOUNT),
  );
  if (delay > 0) return { limited: true, reason: "slowed", retryAfterMinutes: Math.max(1, Math.ceil(delay / 60_000)) };
  if (!input.knownBrowser && (await failures(accountKey(input.email))).length >= config.LOGIN_PROTECT_ACCOUNT_AFTER) {
    return { limited: true, reason: "protected" };
  }
  return { limited: false };
}

export async function recordLoginFailure(email: string, address: string | null): Promise<void> {
  const at = now();
  await db()
    .insertInto("login_failures")
    .values([
      { key: accountKey(email), at },
      { key: addressKey(address), at },
      { key: pairKey(email, address), at },
    ])
    .execute();
  // Keep the table small: forget failures that no window can count any more.
  await db().deleteFrom("login_failures").where("at", "<", windowStart()).execute();
}

/** After a successful sign-in: this address starts afresh on this account. */
export async function clearLoginFailures(email: string, address: string | null): Promise<void> {
  await db().deleteFrom("login_failures").where("key", "=", pairKey(email, address)).execute();
}

/** After the owner proved themselves (unlock link, password reset): the account is no longer protected or slowed. */
export async function clearAccountFailures(email: string): Promise<void> {
  const pairs = `pair:${email}|`;
  await db()
    .deleteFrom("login_failures")
    .where(sql<boolean>`key = ${accountKey(email)} or substr(key, 1, length(${pairs})) = ${pairs}`)
    .execute();
}
