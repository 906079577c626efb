/**
 * The one check for where a user may be sent after a form (sign-in's
 * redirectTo, language switch, …): only a path of this site. The value is
 * parsed as a URL against a placeholder origin; anything that leaves that
 * origin, or that a browser could read differently (tabs, CR/LF, backslashes,
 * `//`, encoded slashes or controls), falls back — checked on the input and again
 * on the normalised path the answer would carry.
 */
const PLACEHOLDER = "http://placeholder.invalid";

export function safeRedirect(to: unknown, fallback = "/overview"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//")) return fallback;
  // Controls (tab, CR, LF, NUL …), backslashes and their encoded forms: browsers strip or reinterpret them.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(to) || /%(0[0-9a-f]|1[0-9a-f]|7f|5c|2f)/i.test(to.split(/[?#]/)[0] ?? "")) return fallback;
  let url: URL;
  try {
    url = new URL(to, PLACEHOLDER);
  } catch {
    return fallback;
  }
  if (url.origin !== PLACEHOLDER) return fallback;
  // Decided on the final path, not the input: dot segments normalise "/.//evil.example" and "/..//evil.example" to
  // "//evil.example", which a browser reads as another site.
  const path = url.pathname + url.search + url.hash;
  if (!path.startsWith("/") || path.startsWith("//")) return fallback;
  return path;
}

/**
 * Where an accepted change goes back to (POST → redirect → GET) when its action redirects every post, a fetcher's
 * too: the `redirectTo` a plain post carries, else — ActionForm posts through a fetcher once hydrated, without
 * `redirectTo`, to the URL of the page it is on — the URL posted to, with its search and paging, when that is a
 * page of `fallback`'s path; else `fallback`. So a searched or paged list stays as it was, with JavaScript or without.
 */
export function backTo(request: Request, redirectTo: unknown, fallback: string): string {
  if (typeof redirectTo === "string" && redirectTo !== "") return safeRedirect(redirectTo, fallback);
  const posted = new URL(request.url);
  if (posted.pathname !== new URL(fallback, PLACEHOLDER).pathname) return fallback;
  return safeRedirect(posted.pathname + posted.search, fallback);
}
