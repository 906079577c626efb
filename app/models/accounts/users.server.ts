import { db, now } from "@server/db";
import { dummyPasswordHash, hashPassword, verifyPassword } from "@server/auth/password";
import { clearAccountFailures } from "@server/auth/rate-limit";
import { hashToken, newToken } from "@server/auth/tokens";
import { recordSecurityEvent, type RequestSource } from "~/models/accounts/security-events.server";
import { refuse } from "~/models/shared/refusal";

export type Language = "en" | "no";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(email: string) {
  return db()
    .selectFrom("users")
    .leftJoin("organizations", "organizations.id", "users.organization_id")
    .select([
      "users.id",
      "users.email",
      "users.password_hash",
      "users.language",
      "users.organization_id",
      "users.deactivated_at",
      "organizations.deactivated_at as organization_deactivated_at",
    ])
    .where("users.email", "=", normalizeEmail(email))
    .executeTakeFirst();
}

/** Returns the user id when the password matches; spends the same time when the account is unknown. */
export async function verifyLogin(email: string, password: string): Promise<number | null> {
  const user = await findUserByEmail(email);
  if (!user) {
    await verifyPassword(password, await dummyPasswordHash());
    return null;
  }
  const matches = await verifyPassword(password, user.password_hash);
  // A deactivated account (or one of a deactivated organisation) does not sign in (decision 039).
  return matches && user.deactivated_at == null && user.organization_deactivated_at == null ? user.id : null;
}

/* ---------- sign-up by mailed confirmation ---------- */

const SIGNUP_HOURS = 24;

export type SignupOutcome =
  /** A new address: the confirmation link to mail to it. */
  | { kind: "new"; email: string; token: string }
  /** An address with an account: tell its owner instead (in their language). */
  | { kind: "exists"; email: string; language: Language };

/**
 * Sign-up, step one. Nothing is created yet: the request waits for its mailed
 * confirmation, so the form answers the same whether or not the email has an
 * account (the password is hashed either way, so both take the same time).
 */
export async function requestSignup(input: { email: string; password: string; organizationName: string; language: Language }): Promise<SignupOutcome> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(email);
  if (existing) return { kind: "exists", email, language: existing.language };
  const token = newToken();
  await db()
    .insertInto("signup_requests")
    .values({
      token_hash: hashToken(token),
      email,
      organization_name: input.organizationName.trim(),
      password_hash: passwordHash,
      language: input.language,
      created_at: now(),
      expires_at: new Date(Date.now() + SIGNUP_HOURS * 3_600_000).toISOString(),
      used_at: null,
    })
    .execute();
  return { kind: "new", email, token };
}

export async function findOpenSignupRequest(token: string) {
  if (!token || token.length > 200) return undefined;
  return db()
    .selectFrom("signup_requests")
    .select(["id", "email", "organization_name", "password_hash", "language"])
    .where("token_hash", "=", hashToken(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", now())
    .executeTakeFirst();
}

/**
 * Sign-up, step two (the mailed link): a new customer organisation with the
 * new user as its first member (access level 3). Null when the link is used,
 * expired, or the email has an account by now.
 */
export async function confirmSignup(token: string): Promise<number | null> {
  const request = await findOpenSignupRequest(token);
  if (!request) return null;
  return db()
    .transaction()
    .execute(async (trx) => {
      // Every link of this address is used up, whichever is confirmed.
      await trx.updateTable("signup_requests").set({ used_at: now() }).where("email", "=", request.email).where("used_at", "is", null).execute();
      const taken = await trx.selectFrom("users").select("id").where("email", "=", request.email).executeTakeFirst();
      if (taken) return null;
      const org = await trx
        .insertInto("organizations")
        .values({ name: request.organization_name, kind: "customer", org_number: null, country_code: "NO", created_at: now() })
        .returning("id")
        .executeTakeFirstOrThrow();
      const user = await trx
        .insertInto("users")
        .values({
          email: request.email,
          password_hash: request.password_hash,
          language: request.language,
          is_admin: 0,
          organization_id: org.id,
          access_level: 3,
          created_at: now(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return user.id;
    });
}

export async function setUserLanguage(userId: number, language: Language): Promise<void> {
  await db().updateTable("users").set({ language }).where("id", "=", userId).execute();
}

/* ---------- invitations ---------- */

/** How long an invitation link works. */
export const INVITATION_DAYS = 14;

export async function createInvitation(input: { email: string; organizationId: number; accessLevel: number; invitedBy: number | null }): Promise<string> {
  const token = newToken();
  await db()
    .insertInto("invitations")
    .values({
      token_hash: hashToken(token),
      email: normalizeEmail(input.email),
      organization_id: input.organizationId,
      access_level: input.accessLevel,
      invited_by: input.invitedBy,
      created_at: now(),
      expires_at: new Date(Date.now() + INVITATION_DAYS * 86_400_000).toISOString(),
      accepted_at: null,
    })
    .execute();
  return token;
}

export async function findOpenInvitation(token: string) {
  if (!token) return undefined;
  return db()
    .selectFrom("invitations")
    .innerJoin("organizations", "organizations.id", "invitations.organization_id")
    .select(["invitations.id", "invitations.email", "invitations.organization_id", "invitations.access_level", "organizations.name as organization_name"])
    .where("invitations.token_hash", "=", hashToken(token))
    .where("invitations.accepted_at", "is", null)
    .where("invitations.expires_at", ">", now())
    .executeTakeFirst();
}

/**
 * Creates the invited user in the inviting organisation and marks the invitation used: the new user's id, null for
 * an invitation that is used, expired or unknown. An address that has an account meanwhile is refused (`email-taken`).
 */
export async function acceptInvitation(token: string, password: string, language: Language): Promise<number | null> {
  const invitation = await findOpenInvitation(token);
  if (!invitation) return null;
  if (await findUserByEmail(invitation.email)) throw refuse("conflict", "email-taken");
  const passwordHash = await hashPassword(password);
  return db()
    .transaction()
    .execute(async (trx) => {
      const user = await trx
        .insertInto("users")
        .values({
          email: invitation.email,
          password_hash: passwordHash,
          language,
          is_admin: 0,
          organization_id: invitation.organization_id,
          access_level: invitation.access_level,
          created_at: now(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx.updateTable("invitations").set({ accepted_at: now() }).where("id", "=", invitation.id).execute();
      return user.id;
    });
}

/* ---------- password reset ---------- */

const RESET_MINUTES = 60;

/** Returns a reset token for a known email, or null; callers answer the same either way. */
export async function createPasswordReset(email: string): Promise<{ token: string; language: Language } | null> {
  const user = await findUserByEmail(email);
  if (!user) return null;
  const token = newToken();
  await db()
    .insertInto("password_resets")
    .values({
      token_hash: hashToken(token),
      user_id: user.id,
      created_at: now(),
      expires_at: new Date(Date.now() + RESET_MINUTES * 60_000).toISOString(),
      used_at: null,
    })
    .execute();
  return { token, language: user.language };
}

export async function findOpenPasswordReset(token: string) {
  if (!token) return undefined;
  return db()
    .selectFrom("password_resets")
    .innerJoin("users", "users.id", "password_resets.user_id")
    .select(["password_resets.id", "password_resets.user_id", "users.email"])
    .where("password_resets.token_hash", "=", hashToken(token))
    .where("password_resets.used_at", "is", null)
    .where("password_resets.expires_at", ">", now())
    .executeTakeFirst();
}

/** Sets the new password, uses up the link, signs the user out everywhere and records `password_reset`. */
export async function resetPassword(token: string, password: string, source: RequestSource | null = null): Promise<number | null> {
  const reset = await findOpenPasswordReset(token);
  if (!reset) return null;
  const passwordHash = await hashPassword(password);
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", reset.user_id).execute();
      await trx.updateTable("password_resets").set({ used_at: now() }).where("user_id", "=", reset.user_id).where("used_at", "is", null).execute();
      const ended = await trx.deleteFrom("sessions").where("user_id", "=", reset.user_id).executeTakeFirst();
      await recordSecurityEvent(
        { kind: "password_reset", userId: reset.user_id, email: reset.email, source, detail: { sessionsEnded: Number(ended.numDeletedRows) } },
        trx,
      );
    });
  // Whoever can read the mailbox is the owner: the account is no longer protected against guessing.
  await clearAccountFailures(reset.email);
  return reset.user_id;
}

/* ---------- unlock links for protected accounts ---------- */

const UNLOCK_HOURS = 24;

/**
 * A new unlock link for the owner of an account that many failed sign-ins
 * protect, or null when one was issued within the last `withinMinutes` (one
 * mail per attack wave, not one per guess).
 */
export async function createAccountUnlock(userId: number, withinMinutes: number): Promise<string | null> {
  const since = new Date(Date.now() - withinMinutes * 60_000).toISOString();
  const recent = await db()
    .selectFrom("account_unlocks")
    .select("id")
    .where("user_id", "=", userId)
    .where("created_at", ">", since)
    .where("used_at", "is", null)
    .executeTakeFirst();
  if (recent) return null;
  const token = newToken();
  await db()
    .insertInto("account_unlocks")
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now(),
      expires_at: new Date(Date.now() + UNLOCK_HOURS * 3_600_000).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}

/** The open unlock of this user for a token, if the token is one. */
export async function findOpenAccountUnlock(token: string, userId: number) {
  if (!token || token.length > 200) return undefined;
  return db()
    .selectFrom("account_unlocks")
    .select(["id", "user_id"])
    .where("token_hash", "=", hashToken(token))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .where("expires_at", ">", now())
    .executeTakeFirst();
}

export async function redeemAccountUnlock(id: number): Promise<void> {
  await db().updateTable("account_unlocks").set({ used_at: now() }).where("id", "=", id).execute();
}
