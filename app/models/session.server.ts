import { json, redirect } from "@remix-run/node";
import { createSession, sessionCookie, type SessionUser } from "@server/auth/session";
import { knownBrowserCookie, parseCookie } from "@server/cookies";
import { getUser } from "~/http/auth.server";

export type { SessionUser } from "@server/auth/session";

/** Minimum organisation access level for registry data, search and the full navigation. */
export const ACCESS_LEVEL_THRESHOLD = 2;

export { getUser } from "~/http/auth.server";

/** For screens: without a session the visitor goes to the start page. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getUser(request);
  if (!user) throw redirect("/");
  return user;
}

/** For /api routes: 401 JSON, never a redirect. */
export async function requireApiUser(request: Request): Promise<SessionUser> {
  const user = await getUser(request);
  if (!user) throw json({ error: "Unauthorized", message: "Sign in, or send the session token as a Bearer token." }, { status: 401 });
  return user;
}

/** A user who belongs to an organisation, for everything organisation-scoped. */
export function requireOrganization(user: SessionUser): number {
  if (user.organizationId == null) throw json({ error: "Forbidden", message: "Your account does not belong to an organisation." }, { status: 403 });
  return user.organizationId;
}

export function hasAccessLevel(user: SessionUser, level = ACCESS_LEVEL_THRESHOLD): boolean {
  return user.accessLevel >= level;
}

/** The paths a visitor without a session may open (spec 01 §6). */
const PUBLIC_PATHS = new Set(["/", "/login", "/signup", "/invite-signup", "/forgot-password", "/reset-password"]);

export function isPublicPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return PUBLIC_PATHS.has(path) || path.includes("/public");
}

/** The user object of GET /api/users/me (spec 01 §3). */
export function currentUserResponse(user: SessionUser) {
  return {
    email: user.email,
    language: user.language,
    is_admin: user.isAdmin,
    token: user.token,
    organization: user.organizationId == null ? null : { organization_name: user.organizationName, access_level: user.accessLevel },
    organizationId: user.organizationId,
  };
}

/** Accounts this browser has signed in to (the signed `known` cookie); anything else in it counts as none. */
export async function knownUserIds(request: Request): Promise<number[]> {
  const value = await parseCookie(knownBrowserCookie, request);
  return Array.isArray(value) ? value.filter((id): id is number => Number.isSafeInteger(id) && id > 0) : [];
}

/** Signs the user in: a new database session, its cookie, this browser remembered for the account, and the redirect. */
export async function startSession(request: Request, userId: number, redirectTo: string): Promise<Response> {
  const { token, expiresAt } = await createSession(userId, request.headers.get("User-Agent"));
  const known = [userId, ...(await knownUserIds(request)).filter((id) => id !== userId)].slice(0, 5);
  const headers = new Headers();
  headers.append("Set-Cookie", sessionCookie(request, token, expiresAt));
  headers.append("Set-Cookie", await knownBrowserCookie.serialize(known));
  return redirect(redirectTo, { headers });
}

/** Visitors who are signed in already go to their start page. */
export async function redirectSignedIn(request: Request): Promise<void> {
  if (await getUser(request)) throw redirect("/overview");
}

/**
 * For the API behind level-2 screens (registry data, search, the supplier
 * screen's tasks, surveys and sub-suppliers): access level 2 or higher, else 403 JSON.
 */
export async function requireAnalystApiUser(request: Request): Promise<SessionUser> {
  const user = await requireApiUser(request);
  if (!hasAccessLevel(user)) throw json({ error: "Forbidden", message: "This needs organisation access level 2 or higher." }, { status: 403 });
  return user;
}
