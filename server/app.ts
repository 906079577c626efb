import compression from "compression";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import { precompressedStatic } from "./static";
import { checkRequest, newNonce, ownOrigins, PDF_CONTENT_SECURITY_POLICY, securityHeaders } from "./security";

export interface AppOptions {
  /** The folder with `client/` (static files) of the build; omitted in tests that serve no files. */
  buildDir?: string;
  trustProxy: boolean;
  /** The public address (APP_URL), accepted as an origin besides the request's own. */
  appUrl?: string;
}

/** Path of the latest-build indicator the browser polls (shared/spec/01-shell-chat-lei.md §4). */
export const BUILD_INDICATOR_PATH = "/_build/latest.json";

/**
 * The express app around a Remix build: security headers and the CSRF check
 * on every request, the static files, the latest-build indicator, and Remix.
 * Separate from `main.ts` (which migrates, seeds and listens) so tests can
 * run it on a loopback port.
 */
/**
 * A path that does not decode ("/%E0%A4%A") is no file: the static handlers would answer it with Express's bare 400
 * page and a stack trace in the log, so it goes on to the app, which answers with its own page.
 */
function whenDecodable(handler: express.RequestHandler): express.RequestHandler {
  return (req, res, next) => {
    try {
      decodeURIComponent(req.path);
    } catch {
      return next();
    }
    return handler(req, res, next);
  };
}

export function createApp(build: ServerBuild, options: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.trustProxy);

  app.use((req, res, next) => {
    const nonce = newNonce();
    res.locals.cspNonce = nonce;
    res.set(securityHeaders(nonce, req.secure));
    // The content type is known only when the answer starts: a PDF gets the policy its viewer needs.
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      if (/^application\/pdf\b/i.test(String(this.getHeader("Content-Type") ?? ""))) this.setHeader("Content-Security-Policy", PDF_CONTENT_SECURITY_POLICY);
      return writeHead.apply(this, args);
    } as typeof writeHead;
    const verdict = checkRequest({
      method: req.method,
      path: req.path,
      header: (name) => req.get(name),
      ownOrigins: ownOrigins({
        protocol: req.protocol,
        host: req.get("host"),
        forwardedHost: req.get("x-forwarded-host"),
        trustProxy: options.trustProxy,
        appUrl: options.appUrl,
      }),
    });
    if (verdict.ok) return next();
    const wantsJson = req.path.startsWith("/api/") || "_data" in req.query;
    res.status(verdict.status);
    if (wantsJson) res.json({ error: verdict.status === 403 ? "Forbidden" : "Unsupported Media Type", message: verdict.message });
    else res.type("text/plain").send(verdict.message);
  });

  // Pages and JSON compressed on the fly (brotli when the browser accepts it, as `compression` 1.8 prefers;
  // gzip otherwise). The build's assets come precompressed (below) and carry a Content-Encoding that
  // `compression` leaves alone.
  app.use(compression());

  app.get(BUILD_INDICATOR_PATH, (_req, res) => {
    res.set("Cache-Control", "no-store").json({ id: build.assets.version });
  });

  if (options.buildDir) {
    // Fingerprinted assets never change; everything else in public/ may.
    const assets = path.join(options.buildDir, "client/assets");
    const forever = { immutable: true, maxAge: "1y" };
    app.use("/assets", whenDecodable(precompressedStatic(assets, forever)), whenDecodable(express.static(assets, forever)));
    app.use(whenDecodable(express.static(path.join(options.buildDir, "client"), { maxAge: "1h" })));
  }

  // Mounted without a path pattern: a "*" route makes Express decode the path as a parameter, and a path that does not
  // decode would end in Express's bare 400 page instead of the app's.
  app.use(
    createRequestHandler({
      build,
      mode: "production",
      getLoadContext: (req, res) => ({ clientAddress: req.ip ?? req.socket.remoteAddress ?? undefined, cspNonce: res.locals.cspNonce as string }),
    }),
  );
  return app;
}
