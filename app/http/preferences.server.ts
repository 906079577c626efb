import { languageCookie, navCookie } from "@server/cookies";
import type { Language } from "~/i18n";

/** The browser's own preferences, kept in cookies: the interface language of a visitor and the side navigation's state. */

export async function languageCookieHeaders(language: Language): Promise<HeadersInit> {
  return { "Set-Cookie": await languageCookie.serialize(language) };
}

export async function navCookieHeaders(expanded: boolean): Promise<HeadersInit> {
  return { "Set-Cookie": await navCookie.serialize(expanded ? "expanded" : "collapsed") };
}
