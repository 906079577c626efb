import { config } from "zod";

/**
 * What the Content-Security-Policy (no 'unsafe-eval') needs in the browser.
 * Zod compiles object parsers with `new Function` unless told not to, and
 * even its probe for that is reported as a CSP violation. Imported first by
 * the signed-in layout (app/routes/_app.tsx), whose screens are the only ones
 * that validate in the browser (the probe runs at the first parse, after every
 * module has loaded); the server, which has no CSP, keeps the compiled parsers.
 */
if (typeof document !== "undefined") config({ jitless: true });
