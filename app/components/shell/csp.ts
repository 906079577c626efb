import { config } from "zod";

/**
 * What the Content-Security-Policy (no 'unsafe-eval') needs in the browser.
 * Zod compiles object parsers with `new Function` unless told not to, and
 * even its probe for that is reported as a CSP violation. Imported first by
 * the root route, so it runs before any module builds a schema; the server,
 * which has no CSP, keeps the compiled parsers.
 */
if (typeof document !== "undefined") config({ jitless: true });
