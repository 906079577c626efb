import { db, now } from "@server/db";
import { hashPassword, verifyPassword } from "@server/auth/password";
import { clearLoginFailures, loginLimit, recordLoginFailure } from "@server/auth/rate-limit";
import type { SessionUser } from "@server/auth/session";
import { hashToken, keyedDigest } from "@server/auth/tokens";
import { recordSecurityEvent, type RequestSource } from "~/models/accounts/security-events.server";
import { refuse } from "~/models/shared/refusal";

/**
 * The signed-in user's own account (decision 040): changing the password and the list of their sessions.
 * Every query names the session's own user: there is no way to point at anyone else's account or session.
 */

/**
 * Why a password change is refused: the current password is wrong (invalid, on `currentPassword`), or too many wrong
 * ones came first and the change waits (forbidden, `details.minutes`).
 */
export const PASSWORD_CHANGE_REFUSALS = ["wrong-password", "password-change-slowed"] as const;

/**
 * Changes the password when `current` is the account's password. A wrong one counts as a failed sign-in (the limits
 * of server/auth/rate-limit.ts: the account from this address, and this address); once slowed, even the right one
 * waits. On success the hash is replaced and every other session of the user ends, this one kept, in one transaction
 * with the `password_changed` event. Answers when it changed.
 */
export async function changePassword(user: SessionUser, current: string, next: string, source: RequestSource): Promise<{ changedAt: string }> {
  const wrong = () => refuse("invalid", "wrong-password", { field: "currentPassword" });
  const limit = await loginLimit({ email: user.email, address: source.ip, knownBrowser: true, unlocked: false });
  if (limit.limited)
    throw limit.reason === "slowed" ? refuse("forbidden", "password-change-slowed", { details: { minutes: limit.retryAfterMinutes } }) : wrong();
  const row = await db().selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirst();
  if (!row || !(await verifyPassword(current, row.password_hash))) {
    await recordLoginFailure(user.email, source.ip);
    await recordSecurityEvent({
      kind: "sign_in_failed",
      userId: user.id,
      email: user.email,
      organizationId: user.organizationId,
      source,
      detail: { reason: "invalid", during: "password_change" },
    });
    throw wrong();
  }
  const passwordHash = await hashPassword(next);
  const keep = hashToken(user.token);
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", user.id).execute();
      const ended = await trx.deleteFrom("sessions").where("user_id", "=", user.id).where("id", "!=", keep).executeTakeFirst();
      // Open reset links were made for the old password: they go too.
      await trx.updateTable("password_resets").set({ used_at: now() }).where("user_id", "=", user.id).where("used_at", "is", null).execute();
      await recordSecurityEvent(
        {
          kind: "password_changed",
          userId: user.id,
          email: user.email,
          organizationId: user.organizationId,
          source,
          detail: { otherSessionsEnded: Number(ended.numDeletedRows) },
        },
        trx,
      );
    });
  await clearLoginFailures(user.email, source.ip);
  return { changedAt: now() };
}

/** A session in the list: `handle` names it in forms (a keyed digest of its id, never the id, which is the token's hash). */
export interface OwnSession {
  handle: string;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string | null;
  current: boolean;
}

const HANDLE_PURPOSE = "session-handle";

function handleOf(sessionId: string): string {
  return keyedDigest(HANDLE_PURPOSE, sessionId).slice(0, 22);
}

async function ownSessionRows(userId: number) {
  return db()
    .selectFrom("sessions")
    .select(["id", "user_agent", "created_at", "last_seen_at"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", now())
    .orderBy("last_seen_at", "desc")
    .orderBy("created_at", "desc")
    .execute();
}

/** The user's live sessions, this one first. */
export async function listOwnSessions(user: SessionUser): Promise<OwnSession[]> {
  const current = hashToken(user.token);
  const rows = await ownSessionRows(user.id);
  const list = rows.map((r) => ({
    handle: handleOf(r.id),
    userAgent: r.user_agent,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    current: r.id === current,
  }));
  return [...list.filter((s) => s.current), ...list.filter((s) => !s.current)];
}

/** Ends every session of the user but this one; records `sessions_ended`. Returns how many ended. */
export async function endOtherSessions(user: SessionUser, source: RequestSource): Promise<number> {
  const keep = hashToken(user.token);
  return db()
    .transaction()
    .execute(async (trx) => {
      const result = await trx.deleteFrom("sessions").where("user_id", "=", user.id).where("id", "!=", keep).executeTakeFirst();
      const ended = Number(result.numDeletedRows);
      await recordSecurityEvent(
        { kind: "sessions_ended", userId: user.id, email: user.email, organizationId: user.organizationId, source, detail: { ended, which: "others" } },
        trx,
      );
      return ended;
    });
}

/**
 * Ends one other session of the user, named by its handle. Only the user's own sessions are looked at, so a handle of
 * anyone else's (or a made-up one) finds nothing and is refused (`session-not-found`). This session is ended by signing out.
 */
export async function endOwnSession(user: SessionUser, handle: string, source: RequestSource): Promise<void> {
  const keep = hashToken(user.token);
  const match = handle.length <= 64 ? (await ownSessionRows(user.id)).find((r) => r.id !== keep && handleOf(r.id) === handle) : undefined;
  if (!match) throw refuse("not-found", "session-not-found");
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom("sessions").where("id", "=", match.id).where("user_id", "=", user.id).execute();
      await recordSecurityEvent(
        { kind: "sessions_ended", userId: user.id, email: user.email, organizationId: user.organizationId, source, detail: { ended: 1, which: "one" } },
        trx,
      );
    });
}
