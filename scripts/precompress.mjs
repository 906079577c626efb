// Compresses the build's fingerprinted assets once, at the highest levels: `x.js.br` (brotli, quality 11) and
// `x.js.gz` (gzip, level 9) beside every .js/.css/.svg/.json in <build>/client/assets. The server sends them to
// a browser that accepts them (server/static.ts). Run by `npm run build` after `remix vite:build`, and by
// `npm start` after a build; a file whose compressed copies are newer than itself is left as it is.
//   node scripts/precompress.mjs [build dir]     (default: $BUILD_DIR or build)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { root } from "./lib.mjs";

/** The same list as server/static.ts PRECOMPRESSED_EXTENSIONS. */
export const EXTENSIONS = new Set([".js", ".css", ".svg", ".json"]);

export function brotli(bytes) {
  return zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  });
}

export function gzip(bytes) {
  return zlib.gzipSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION });
}

function upToDate(target, sourceStat) {
  try {
    return fs.statSync(target).mtimeMs >= sourceStat.mtimeMs;
  } catch {
    return false;
  }
}

/** Writes the missing or stale `.br`/`.gz` of every asset in `dir`; returns what it did, for the summary line. */
export function precompress(dir) {
  const done = { files: 0, written: 0, bytes: 0, br: 0, gz: 0 };
  if (!fs.existsSync(dir)) return done;
  const visit = (folder) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.isFile() && EXTENSIONS.has(path.extname(entry.name).toLowerCase())) {
        const stat = fs.statSync(file);
        done.files += 1;
        done.bytes += stat.size;
        for (const [suffix, compress, key] of [
          [".br", brotli, "br"],
          [".gz", gzip, "gz"],
        ]) {
          const target = file + suffix;
          if (!upToDate(target, stat)) {
            fs.writeFileSync(target, compress(fs.readFileSync(file)));
            done.written += 1;
          }
          done[key] += fs.statSync(target).size;
        }
      }
    }
  };
  visit(dir);
  return done;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const buildDir = path.resolve(root, process.argv[2] ?? process.env.BUILD_DIR ?? "build");
  const assets = path.join(buildDir, "client/assets");
  if (!fs.existsSync(assets)) {
    console.error(`No ${path.relative(root, assets)}: build first (npx remix vite:build).`);
    process.exit(1);
  }
  const started = Date.now();
  const d = precompress(assets);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `precompress: ${d.files} assets (${kb(d.bytes)}) → brotli ${kb(d.br)}, gzip ${kb(d.gz)}; ${d.written} files written in ${Date.now() - started} ms`,
  );
}
