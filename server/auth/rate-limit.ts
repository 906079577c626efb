import { db, now } from "../db";
import { env } from "../env";

/**
 * Failed sign-ins are counted per account and per client address over a
 * sliding window, in the database so that a restart does not reset them.
 */
export type LimitState = { limited: false } | { limited: true; retryAfterMinutes: number };

function windowStart(): string {
  return new Date(Date.now() - env().LOGIN_WINDOW_MINUTES * 60_000).toISOString();
}

async function check(key: string, max: number): Promise<LimitState> {
  const rows = await db().selectFrom("login_failures").select(["at"]).where("key", "=", key).where("at", ">", windowStart()).orderBy("at", "asc").execute();
  if (rows.length < max) return { limited: false };
  // The window frees up when the oldest counted failure ages out.
  const oldest = new Date(rows[rows.length - max].at).getTime();
  const freeAt = oldest + env().LOGIN_WINDOW_MINUTES * 60_000;
  return { limited: true, retryAfterMinutes: Math.max(1, Math.ceil((freeAt - Date.now()) / 60_000)) };
}

export async function loginLimit(email: string, address: string | null): Promise<LimitState> {
  const byAccount = await check(`account:${email}`, env().LOGIN_MAX_FAILURES_PER_ACCOUNT);
  if (byAccount.limited) return byAccount;
  if (address) return check(`address:${address}`, env().LOGIN_MAX_FAILURES_PER_ADDRESS);
  return { limited: false };
}

export async function recordLoginFailure(email: string, address: string | null): Promise<void> {
  const at = now();
  const rows = [{ key: `account:${email}`, at }];
  if (address) rows.push({ key: `address:${address}`, at });
  await db().insertInto("login_failures").values(rows).execute();
  // Keep the table small: forget failures that no window can count any more.
  await db().deleteFrom("login_failures").where("at", "<", windowStart()).execute();
}

export async function clearLoginFailures(email: string): Promise<void> {
  await db().deleteFrom("login_failures").where("key", "=", `account:${email}`).execute();
}
