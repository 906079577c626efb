import { redirect } from "@remix-run/node";
import { flashStorage } from "@server/cookies";

/**
 * Flash notices: one cookie (`__flash`), one key form — an i18n key with its
 * namespace, for example "common:saved" — shown once by the root loader.
 */
export type NoticeKey = `${string}:${string}`;

async function noticeCookie(request: Request, notice: NoticeKey): Promise<string> {
  const session = await flashStorage.getSession(request.headers.get("Cookie"));
  session.flash("notice", notice);
  return flashStorage.commitSession(session);
}

/** POST → redirect → GET with a notice for the next page. */
export async function redirectWithNotice(request: Request, to: string, notice: NoticeKey, init: { headers?: Headers } = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await noticeCookie(request, notice));
  return redirect(to, { headers });
}

/** The notice for this page, and the header that clears it. */
export async function readNotice(request: Request): Promise<{ notice: NoticeKey | null; setCookie: string | null }> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes("__flash=")) return { notice: null, setCookie: null };
  const session = await flashStorage.getSession(cookieHeader);
  const notice = session.get("notice");
  return { notice: typeof notice === "string" && notice.includes(":") ? (notice as NoticeKey) : null, setCookie: await flashStorage.commitSession(session) };
}
