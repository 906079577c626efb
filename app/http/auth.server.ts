import { redirect } from "@remix-run/node";
import { tokenFromRequest, userForToken, type SessionUser } from "@server/auth/session";
import { can, PERMISSIONS, type Permission } from "~/models/accounts/permissions";
import { errorResponse } from "./responses.server";

export type { SessionUser } from "@server/auth/session";

/** A user who belongs to an organisation (every permission but signedIn and admin needs one). */
export type OrgUser = SessionUser & { organizationId: number; organizationName: string };

// Root and route loaders of one request share the lookup.
const cache = new WeakMap<Request, Promise<SessionUser | null>>();

export function getUser(request: Request): Promise<SessionUser | null> {
  let pending = cache.get(request);
  if (!pending) {
    const found = tokenFromRequest(request);
    pending = found ? userForToken(found.token, found.via) : Promise.resolve(null);
    cache.set(request, pending);
  }
  return pending;
}

/** API resource routes answer JSON 401/403; screens redirect a visitor to the start page. */
export function isApiRequest(request: Request): boolean {
  return new URL(request.url).pathname.startsWith("/api/");
}

type UserFor<P extends Permission> = (typeof PERMISSIONS)[P]["organization"] extends true ? OrgUser : SessionUser;

/**
 * The signed-in user if the permission table lets them do `permission`.
 * A visitor: 401 JSON on the API, a redirect to "/" on a screen. A user
 * without the permission: 403 (JSON on the API, the forbidden page on a screen).
 */
export async function requireUser<P extends Permission = "signedIn">(request: Request, permission?: P): Promise<UserFor<P>> {
  const user = await getUser(request);
  if (!user) {
    if (isApiRequest(request)) throw errorResponse(401, "Sign in, or send the session token as a Bearer token.");
    throw redirect("/");
  }
  const needed = permission ?? "signedIn";
  if (!can(user, needed)) throw errorResponse(403, forbiddenMessage(needed));
  return user as UserFor<P>;
}

function forbiddenMessage(permission: Permission): string {
  const rule = PERMISSIONS[permission];
  if ("admin" in rule && rule.admin) return "This needs an administrator of the installation.";
  if ("customer" in rule && rule.customer) return `This needs a customer organization's access level ${rule.level} or higher.`;
  if (rule.level > 0) return `This needs organization access level ${rule.level} or higher.`;
  return "Your account does not belong to an organization.";
}
