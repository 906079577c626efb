import { createCookie, createCookieSessionStorage, type Cookie } from "@remix-run/node";
import { sessionSecret } from "./env";

const ONE_YEAR = 60 * 60 * 24 * 365;

/** Remembers whether the side navigation is expanded (set by a plain form post). */
export const navCookie = createCookie("nav", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: ONE_YEAR,
  secrets: [sessionSecret()],
});

/** A visitor's chosen language; signed-in users keep theirs on their account. */
export const languageCookie = createCookie("lng", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: ONE_YEAR,
});

/** A one-time notice shown on the next page ("Saved!", "You are signed out."). */
export const flashStorage = createCookieSessionStorage<Record<string, never>, { notice: string; noticeTone: string }>({
  cookie: {
    name: "__flash",
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secrets: [sessionSecret()],
  },
});

/**
 * Browsers an account has signed in from: a signed list of user ids. A
 * browser on the list may still sign in to that account while many failed
 * attempts from elsewhere protect it (docs/decisions/011).
 */
export const knownBrowserCookie = createCookie("known", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: ONE_YEAR,
  secrets: [sessionSecret()],
});

/**
 * A cookie's value, or null when it is missing, forged, or does not decode.
 * Whatever a client sends in a cookie is never an error.
 */
export async function parseCookie(cookie: Cookie, request: Request): Promise<unknown> {
  try {
    return (await cookie.parse(request.headers.get("Cookie"))) ?? null;
  } catch {
    return null;
  }
}
