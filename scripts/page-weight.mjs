// Page weight from the build: what a browser downloads for a route, compressed as the server sends it (gzip,
// `compression`'s default level). Read from the Vite manifest the build keeps (vite.config.ts: build.manifest),
// so the budget test (tests/e2e/weight.spec.ts) and `node scripts/page-weight.mjs` need no running server.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { root } from "./lib.mjs";

export const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");

/** The client build's Vite manifest (Remix moves it to build/.vite/client-manifest.json). */
export function readClientManifest(dir = buildDir) {
  return JSON.parse(fs.readFileSync(path.join(dir, ".vite/client-manifest.json"), "utf8"));
}

const gzipCache = new Map();
/** Bytes of a built asset after gzip (what `compression` serves). */
export function gzipSize(file, dir = buildDir) {
  if (!gzipCache.has(file)) gzipCache.set(file, zlib.gzipSync(fs.readFileSync(path.join(dir, "client", file))).length);
  return gzipCache.get(file);
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
  const sum = (files) => files.reduce((total, file) => total + gzipSize(file, dir), 0);
  return { scripts, css: [...css], jsBytes: sum(scripts), cssBytes: sum([...css]) };
}

/** The pages of the README's page-weight table and their route modules. */
export const pages = [
  { name: "/login", routes: ["app/routes/login.tsx"] },
  { name: "/overview", routes: ["app/scaffolding/not-yet-available.tsx"] },
  { name: "supplier screen", routes: ["app/routes/supplier.tsx"] },
  { name: "/suppliers", routes: ["app/routes/suppliers.tsx"] },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const manifest = readClientManifest();
  for (const page of pages) {
    const w = routeWeight(page.routes, { manifest });
    console.log(`${page.name.padEnd(16)} JS ${(w.jsBytes / 1024).toFixed(1)} KB in ${w.scripts.length} files · CSS ${(w.cssBytes / 1024).toFixed(1)} KB`);
  }
}
