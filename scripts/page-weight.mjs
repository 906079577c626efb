// Page weight from the build: what a browser downloads for a route, compressed as the server sends it. The build's
// assets are precompressed (scripts/precompress.mjs) and every current browser accepts brotli, so the figures are
// brotli sizes (`servedSize`); gzip sizes (what a browser without brotli gets) are printed beside them. Read from
// the Vite manifest the build keeps (vite.config.ts: build.manifest), so the budget test (tests/e2e/weight.spec.ts)
// and `node scripts/page-weight.mjs` need no running server.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { root } from "./lib.mjs";
import { brotli } from "./precompress.mjs";

export const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");

/** The client build's Vite manifest (Remix moves it to build/.vite/client-manifest.json). */
export function readClientManifest(dir = buildDir) {
  return JSON.parse(fs.readFileSync(path.join(dir, ".vite/client-manifest.json"), "utf8"));
}

/** Size of the precompressed copy (`suffix`) beside a built asset, or of `compress` applied to it when there is none. */
function compressedSize(cache, suffix, compress, file, dir) {
  const key = `${dir}\0${file}`;
  if (!cache.has(key)) {
    const asset = path.join(dir, "client", file);
    const copy = asset + suffix;
    cache.set(key, fs.existsSync(copy) ? fs.statSync(copy).size : compress(fs.readFileSync(asset)).length);
  }
  return cache.get(key);
}

const brotliCache = new Map();
/**
 * Bytes of a built asset as served to a browser that accepts brotli (all current ones): its `.br` copy, or, in a
 * build not yet precompressed, brotli at the same quality 11 in memory.
 */
export function servedSize(file, dir = buildDir) {
  return compressedSize(brotliCache, ".br", brotli, file, dir);
}

const gzipCache = new Map();
/** Bytes of a built asset as served to a browser that accepts gzip but not brotli: its `.gz` copy, or gzip level 9 in memory. */
export function gzipSize(file, dir = buildDir) {
  return compressedSize(gzipCache, ".gz", (bytes) => zlib.gzipSync(bytes, { level: 9 }), file, dir);
}

/** The manifest key of a route module (`app/routes/login.tsx`, `app/root.tsx`, `app/scaffolding/respondent-page.tsx`). */
function routeKey(manifest, source) {
  const key = Object.keys(manifest).find((k) => k === source || k.startsWith(`${source}?`));
  if (!key) throw new Error(`No manifest entry for ${source}`);
  return key;
}

/**
 * The JavaScript and CSS a route's document makes the browser load before it runs: the entry, the root, the
 * route modules and every static import of theirs (what Remix preloads with `<link rel="modulepreload">`),
 * plus the Remix route manifest. Dynamic imports (translations, dialogs loaded on demand) are not counted.
 * `jsBytes`/`cssBytes` are brotli as served (`servedSize`), `jsGzipBytes`/`cssGzipBytes` gzip.
 */
export function routeWeight(routeSources, { dir = buildDir, manifest = readClientManifest(dir) } = {}) {
  const keys = ["app/entry.client.tsx", "app/root.tsx", ...routeSources].map((s) => routeKey(manifest, s));
  const chunks = new Set();
  const css = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || chunks.has(chunk.file)) return;
    chunks.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  // The stylesheet is linked from root (`?url` import): it is an asset entry of its own.
  for (const [key, chunk] of Object.entries(manifest)) if (key.endsWith(".css") && chunk.file.endsWith(".css")) css.add(chunk.file);
  const remixManifest = fs.readdirSync(path.join(dir, "client/assets")).find((f) => /^manifest-[\w-]+\.js$/.test(f));
  const scripts = [...chunks];
  if (remixManifest) scripts.push(`assets/${remixManifest}`);
  const sum = (files, size) => files.reduce((total, file) => total + size(file, dir), 0);
  return {
    scripts,
    css: [...css],
    // As served (brotli).
    jsBytes: sum(scripts, servedSize),
    cssBytes: sum([...css], servedSize),
    jsGzipBytes: sum(scripts, gzipSize),
    cssGzipBytes: sum([...css], gzipSize),
  };
}

/** The pages of the README's page-weight table and their route modules. */
export const pages = [
  { name: "/login", routes: ["app/routes/login.tsx"] },
  { name: "/overview", routes: ["app/routes/_app.tsx", "app/scaffolding/not-yet-available.tsx"] },
  { name: "supplier screen", routes: ["app/routes/_app.tsx", "app/routes/_app.supplier.tsx"] },
  { name: "/suppliers", routes: ["app/routes/_app.tsx", "app/routes/_app.suppliers.tsx"] },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const manifest = readClientManifest();
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log("Brotli as served (gzip for a browser without brotli in brackets)");
  for (const page of pages) {
    const w = routeWeight(page.routes, { manifest });
    console.log(
      `${page.name.padEnd(16)} JS ${kb(w.jsBytes)} (${kb(w.jsGzipBytes)}) in ${w.scripts.length} files · CSS ${kb(w.cssBytes)} (${kb(w.cssGzipBytes)})`,
    );
  }
}
