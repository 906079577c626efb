// Helpers for `npm start` and `npm test`: only Node built-ins, because they run before dependencies exist.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

export function run(cmd, args, opts = {}) {
  const result = spawnSync(cmd, args, { stdio: "inherit", cwd: root, ...opts, env: { ...process.env, ...opts.env } });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function mustRun(cmd, args, opts) {
  const status = run(cmd, args, opts);
  if (status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(" ")} failed (exit ${status})`);
    process.exit(status);
  }
}

function hashFile(file) {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** Installs dependencies when node_modules is missing or older than package-lock.json. */
export function ensureDependencies() {
  const lock = path.join(root, "package-lock.json");
  const stamp = path.join(root, "node_modules", ".install-stamp");
  const want = hashFile(lock);
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === want) return;
  console.log("Installing dependencies (npm ci)…");
  // No test tool may download a browser here: Playwright drives the system Chromium.
  mustRun("npm", ["ci", "--no-audit", "--no-fund"], { env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" } });
  fs.writeFileSync(stamp, want);
}

function newestMtime(entries) {
  let newest = 0;
  const visit = (p) => {
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) for (const child of fs.readdirSync(p)) visit(path.join(p, child));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const e of entries) visit(path.join(root, e));
  return newest;
}

/** Builds the app when there is no build or a source is newer than it. */
export function ensureBuild({ force = false } = {}) {
  const marker = path.join(root, "build", "server", "index.js");
  const sources = ["app", "locales", "public", "server", "migrations", "remix.config.js", "vite.config.ts", "package-lock.json"];
  if (!force && fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= newestMtime(sources)) return;
  console.log("Building the app…");
  mustRun("npx", ["remix", "vite:build"]);
  // As `npm run build`: the brotli and gzip copies the server sends (scripts/precompress.mjs).
  mustRun(process.execPath, [path.join(root, "scripts", "precompress.mjs")]);
}
