import { redirect } from "@remix-run/node";
import { clearSessionCookie, createSession, destroySession, sessionCookie, tokenFromRequest, type SessionUser } from "@server/auth/session";
import { knownBrowserCookie, parseCookie } from "@server/cookies";
import { getUser } from "./auth.server";

/**
 * The user object of GET /api/users/me (shared/spec/01-shell-chat-lei.md §3). The session token is answered only to a
 * caller that sent it as `Authorization: Bearer` (it holds it already); to a request that came with the cookie alone —
 * any script on a page — `token` is null, so no script ever reads the HttpOnly cookie's value (decision 010).
 */
export function currentUserResponse(user: SessionUser, request: Request) {
  const bearer = /^Bearer\s/i.test(request.headers.get("Authorization") ?? "");
  return {
    email: user.email,
    language: user.language,
    is_admin: user.isAdmin,
    token: bearer ? user.token : null,
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

/** Signs out: the request's session ends on the server; the headers clear its cookie. */
export async function endSession(request: Request): Promise<Headers> {
  const found = tokenFromRequest(request);
  if (found) await destroySession(found.token);
  return new Headers({ "Set-Cookie": clearSessionCookie(request) });
}

/** Visitors who are signed in already go to their start page. */
export async function redirectSignedIn(request: Request): Promise<void> {
  if (await getUser(request)) throw redirect("/overview");
}
