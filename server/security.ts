import { randomBytes } from "node:crypto";

/**
 * The server's own defences, applied once to every request before Remix sees
 * it (see docs/decisions/011-csrf-csp-and-sign-in-limits.md): security
 * headers with a per-request script nonce, and the cross-site request
 * forgery check. Pure functions over headers, so they are tested without a
 * server; `server/app.ts` wires them into express.
 */

/** 128 random bits for the CSP nonce of one answer. */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The Content-Security-Policy of every answer. Scripts run only from this
 * origin or with this answer's nonce (Remix's inline hydration scripts carry
 * it); no 'unsafe-inline' for scripts. Styles allow inline: React renders
 * `style` attributes (uPlot's legend, progress bars) and three dialogs render
 * a small `<style>` element.
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    // The file preview frames an uploaded PDF served by this origin (routes/files.$fileId.inline.ts); nothing else is framed.
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * A PDF opened in the browser is shown by its built-in viewer, a plugin that
 * `object-src 'none'` would block; such an answer runs no script and needs
 * nothing else. Only pages of this origin may frame it (the file preview's
 * frame); with `frame-ancestors` present browsers ignore X-Frame-Options.
 */
export const PDF_CONTENT_SECURITY_POLICY = "default-src 'none'; object-src 'self'; frame-ancestors 'self'";

/** Headers set on every answer: pages, JSON, static files and errors. */
export function securityHeaders(nonce: string, https: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(nonce),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
  // Browsers honour HSTS only over HTTPS; sent whenever the request came over it (directly or via a trusted proxy).
  if (https) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** `scheme://host[:port]` normalised (default ports dropped, lower case), or null when it does not parse. */
export function normalizeOrigin(value: string | null | undefined): string | null {
  if (!value || value === "null") return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * The origins this request may legitimately come from: the address it was
 * sent to (behind a trusted proxy, the forwarded scheme and host) and the
 * configured public address.
 */
export function ownOrigins(input: { protocol: string; host: string | undefined; forwardedHost?: string | undefined; trustProxy: boolean; appUrl?: string }) {
  const origins = new Set<string>();
  const forwarded = input.trustProxy ? input.forwardedHost?.split(",")[0]?.trim() : undefined;
  const host = forwarded || input.host;
  if (host) {
    const own = normalizeOrigin(`${input.protocol}://${host}`);
    if (own) origins.add(own);
  }
  const configured = normalizeOrigin(input.appUrl);
  if (configured) origins.add(configured);
  return origins;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export type Verdict = { ok: true } | { ok: false; status: 403 | 415; message: string };

export interface RequestFacts {
  method: string;
  path: string;
  header: (name: string) => string | undefined;
  ownOrigins: Set<string>;
}

function hasTokenCookie(cookie: string | undefined): boolean {
  return Boolean(cookie && cookie.split(";").some((part) => part.trim().startsWith("token=")));
}

function hasBody(header: RequestFacts["header"]): boolean {
  const length = header("content-length");
  if (length !== undefined) return Number(length) > 0;
  return header("transfer-encoding") !== undefined;
}

/**
 * Cross-site request forgery: every request that may change data (any
 * method but GET, HEAD and OPTIONS) must show that it comes from this site:
 * an `Origin` equal to our own, or, without one, `Sec-Fetch-Site:
 * same-origin`. A request with neither comes from no browser this century
 * (curl, another server) and cannot carry a victim's cookie by accident; it
 * passes. `Authorization: Bearer` calls are not bound to the cookie (a page
 * of another site cannot set that header without our CORS consent, which we
 * never give), so they pass too. API calls that rely on the cookie must send
 * JSON (or no body): a form or text body is what a foreign page can send.
 */
export function checkRequest(facts: RequestFacts): Verdict {
  if (SAFE_METHODS.has(facts.method.toUpperCase())) return { ok: true };
  if (/^Bearer\s+\S+$/i.test(facts.header("authorization") ?? "")) return { ok: true };

  const origin = facts.header("origin");
  const site = facts.header("sec-fetch-site");
  if (origin !== undefined) {
    const normalized = normalizeOrigin(origin);
    if (!normalized || !facts.ownOrigins.has(normalized)) return { ok: false, status: 403, message: "Cross-origin request refused." };
  } else if (site !== undefined && site !== "same-origin") {
    return { ok: false, status: 403, message: "Cross-site request refused." };
  }

  if (facts.path.startsWith("/api/") && hasTokenCookie(facts.header("cookie")) && hasBody(facts.header)) {
    const type = (facts.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") {
      return { ok: false, status: 415, message: "API calls signed in by the cookie send application/json; upload files with the Bearer token." };
    }
  }
  return { ok: true };
}
