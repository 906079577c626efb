import { createCookie, createCookieSessionStorage } from "@remix-run/node";
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
export const flashStorage = createCookieSessionStorage<Record<string, never>, { notice: string }>({
  cookie: {
    name: "__flash",
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secrets: [sessionSecret()],
  },
});

/** A Set-Cookie header that carries a flash notice (an i18n key). */
export async function flashNotice(request: Request, notice: string): Promise<string> {
  const session = await flashStorage.getSession(request.headers.get("Cookie"));
  session.flash("notice", notice);
  return flashStorage.commitSession(session);
}

export async function readFlash(request: Request): Promise<{ notice: string | null; setCookie: string | null }> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes("__flash=")) return { notice: null, setCookie: null };
  const session = await flashStorage.getSession(cookieHeader);
  const notice = (session.get("notice") as string | undefined) ?? null;
  return { notice, setCookie: await flashStorage.commitSession(session) };
}
