import { redirect } from "@remix-run/node";
import { flashStorage } from "@server/cookies";

/**
 * Flash notices: one cookie (`__flash`), one key form — an i18n key with its
 * namespace, for example "common:saved" — shown once by the root loader. A notice
 * is a success unless its tone says "warning": the change was made, but something
 * the user must know about went wrong (a mail that could not be sent).
 */
export type NoticeKey = `${string}:${string}`;
export type NoticeTone = "success" | "warning";

async function noticeCookie(request: Request, notice: NoticeKey, tone: NoticeTone): Promise<string> {
  const session = await flashStorage.getSession(request.headers.get("Cookie"));
  session.flash("notice", notice);
  if (tone !== "success") session.flash("noticeTone", tone);
  return flashStorage.commitSession(session);
}

/** POST → redirect → GET with a notice for the next page. */
export async function redirectWithNotice(request: Request, to: string, notice: NoticeKey, init: { headers?: Headers; tone?: NoticeTone } = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await noticeCookie(request, notice, init.tone ?? "success"));
  return redirect(to, { headers });
}

/** The notice for this page, its tone, and the header that clears it. */
export async function readNotice(request: Request): Promise<{ notice: NoticeKey | null; tone: NoticeTone; setCookie: string | null }> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes("__flash=")) return { notice: null, tone: "success", setCookie: null };
  const session = await flashStorage.getSession(cookieHeader);
  const notice = session.get("notice");
  const tone: NoticeTone = session.get("noticeTone") === "warning" ? "warning" : "success";
  return {
    notice: typeof notice === "string" && notice.includes(":") ? (notice as NoticeKey) : null,
    tone,
    setCookie: await flashStorage.commitSession(session),
  };
}
