import type { NextFunction, Request, Response } from "express";
import fs from "node:fs";
import path from "node:path";

/**
 * The build's fingerprinted assets as compressed at build time (scripts/precompress.mjs writes `x.js.br` and
 * `x.js.gz` beside `x.js`): brotli to a browser that accepts it, gzip to one that accepts only gzip, and
 * nothing here for the others (express.static after this serves the file itself). The bytes are compressed
 * once, at the highest levels, instead of on every request by `compression()`, which leaves an answer that
 * already has a Content-Encoding alone.
 */

/** The kinds of file the build precompresses (scripts/precompress.mjs: the same list). */
export const PRECOMPRESSED_EXTENSIONS = new Set([".js", ".css", ".svg", ".json"]);

type Encoding = "br" | "gzip";
const SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };

/**
 * The encodings an `Accept-Encoding` header allows, among br and gzip, best first (brotli is smaller, so it
 * wins a tie of q-values; `*` stands for any encoding not named; `q=0` refuses one).
 */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  if (!header) return [];
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const weight = (encoding: string) => q.get(encoding) ?? (encoding === "gzip" ? q.get("x-gzip") : undefined) ?? q.get("*") ?? 0;
  return (["br", "gzip"] as const).filter((e) => weight(e) > 0).sort((a, b) => weight(b) - weight(a));
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Middleware for the folder of fingerprinted assets (mounted where express.static serves the same folder,
 * before it). Sends `x.js.br` / `x.js.gz` with the original's Content-Type, `Content-Encoding`, `Vary:
 * Accept-Encoding`, the given caching, and an ETag of its own (each encoding is a representation of its own,
 * so a 304 never hands one encoding's validator to another). Ranges are ignored: the whole file, 200.
 */
export function precompressedStatic(root: string, { maxAge, immutable }: { maxAge: string; immutable: boolean }) {
  const base = path.resolve(root);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const ext = path.extname(relative).toLowerCase();
    if (!PRECOMPRESSED_EXTENSIONS.has(ext) || relative.includes("\0")) return next();
    const file = path.resolve(base, `.${path.posix.normalize(`/${relative}`)}`);
    if (!file.startsWith(base + path.sep)) return next();
    // The answer for this address depends on Accept-Encoding whichever encoding is chosen (identity included).
    res.vary("Accept-Encoding");
    const encoding = acceptedEncodings(req.get("accept-encoding")).find((e) => isFile(file + SUFFIX[e]) && isFile(file));
    if (!encoding) return next();
    res.type(ext);
    res.set("Content-Encoding", encoding);
    res.sendFile(file + SUFFIX[encoding], { maxAge, immutable, acceptRanges: false, dotfiles: "deny" }, (error) => {
      if (!error) return;
      if (res.headersSent) return next(error);
      res.removeHeader("Content-Encoding");
      res.removeHeader("Content-Type");
      next();
    });
  };
}
