import { db, now } from "../db";
import { env } from "../env";
import { hashToken, newToken } from "./tokens";

export const TOKEN_COOKIE = "token";

/** A session's "last seen" is written when it is older than this, so most requests write nothing. */
export const LAST_SEEN_EVERY_MS = 5 * 60_000;

export interface SessionUser {
  id: number;
  email: string;
  language: "en" | "no";
  isAdmin: boolean;
  accessLevel: number;
  organizationId: number | null;
  organizationName: string | null;
  /** 'supplier' for a supplier respondent's organisation. */
  organizationKind: "customer" | "supplier" | null;
  token: string;
  /** How the request carried the token: the httpOnly cookie, or `Authorization: Bearer` (not cookie-bound). */
  via: "cookie" | "bearer";
}

export async function createSession(userId: number, userAgent: string | null): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + env().SESSION_MAX_AGE_DAYS * 86_400_000);
  await db()
    .insertInto("sessions")
    .values({
      id: hashToken(token),
      user_id: userId,
      created_at: now(),
      expires_at: expiresAt.toISOString(),
      user_agent: userAgent?.slice(0, 300) ?? null,
      last_seen_at: now(),
    })
    .execute();
  return { token, expiresAt };
}

export async function destroySession(token: string): Promise<void> {
  await db().deleteFrom("sessions").where("id", "=", hashToken(token)).execute();
}

export async function destroyUserSessions(userId: number): Promise<void> {
  await db().deleteFrom("sessions").where("user_id", "=", userId).execute();
}

export async function userForToken(token: string, via: SessionUser["via"] = "cookie"): Promise<SessionUser | null> {
  if (!token || token.length > 200) return null;
  const row = await db()
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .leftJoin("organizations", "organizations.id", "users.organization_id")
    .select([
      "users.id",
      "users.email",
      "users.language",
      "users.is_admin",
      "users.access_level",
      "users.organization_id",
      "organizations.name as organization_name",
      "organizations.kind as organization_kind",
      "sessions.expires_at",
      "sessions.last_seen_at",
      "users.deactivated_at",
      "organizations.deactivated_at as organization_deactivated_at",
    ])
    .where("sessions.id", "=", hashToken(token))
    .executeTakeFirst();
  if (!row) return null;
  const at = now();
  // A deactivated account or organisation ends its sessions at once (decision 039).
  if (row.expires_at <= at || row.deactivated_at != null || row.organization_deactivated_at != null) {
    await destroySession(token);
    return null;
  }
  // "Last seen" for the user's list of sessions, written at most every LAST_SEEN_EVERY_MS.
  if (row.last_seen_at == null || Date.parse(at) - Date.parse(row.last_seen_at) > LAST_SEEN_EVERY_MS) {
    await db().updateTable("sessions").set({ last_seen_at: at }).where("id", "=", hashToken(token)).execute();
  }
  return {
    id: row.id,
    email: row.email,
    language: row.language,
    isAdmin: row.is_admin === 1,
    accessLevel: row.access_level,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    organizationKind: row.organization_kind ?? null,
    token,
    via,
  };
}

/**
 * The session token of a request: `Authorization: Bearer` when sent (such a
 * call is not bound to the browser's cookie), else the `token` cookie. A
 * cookie that does not decode is ignored, never an error.
 */
export function tokenFromRequest(request: Request): { token: string; via: SessionUser["via"] } | null {
  const auth = request.headers.get("Authorization");
  const match = auth?.match(/^Bearer\s+(\S+)$/i);
  if (match) return { token: match[1]!, via: "bearer" };
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== TOKEN_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (!value) continue;
    try {
      return { token: decodeURIComponent(value), via: "cookie" };
    } catch {
      return null;
    }
  }
  return null;
}

/** Secure whenever the app is reached over HTTPS, so the http://localhost demo still signs in. */
function isHttps(request: Request): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  return env().TRUST_PROXY && request.headers.get("X-Forwarded-Proto") === "https";
}

export function sessionCookie(request: Request, token: string, expiresAt: Date): string {
  const parts = [`${TOKEN_COOKIE}=${token}`, "Path=/", "HttpOnly", "SameSite=Lax", `Expires=${expiresAt.toUTCString()}`];
  if (isHttps(request)) parts.push("Secure");
  return parts.join("; ");
}

export function clearSessionCookie(request: Request): string {
  const parts = [`${TOKEN_COOKIE}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0"];
  if (isHttps(request)) parts.push("Secure");
  return parts.join("; ");
}
