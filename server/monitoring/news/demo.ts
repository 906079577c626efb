import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The demo world's recorded news feeds (server/seed-data/news/*.xml): fictional articles about the demo's real
 * supplier names, written for the demo and marked as such. The app serves them at /demo-feeds/{name}.xml, read-only,
 * and only those a seeded news feed names (decision 024).
 */

// Beside this module when run from source (tsx, vitest); from the project folder when bundled into the server build.
const DIRS = [path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../seed-data/news"), path.resolve(process.cwd(), "server/seed-data/news")];
const NAME = /^[a-z0-9-]{1,60}\.xml$/;

export interface DemoFeed {
  file: string;
  title: string;
}

/** The demo feeds and their titles, as the seed registers them. */
export const DEMO_FEEDS: DemoFeed[] = [
  { file: "naeringsliv.xml", title: "Demo Næringslivsnytt (fictional)" },
  { file: "supply-chain.xml", title: "Demo Supply Chain Wire (fictional)" },
  { file: "lokalavis.xml", title: "Demo Lokalavisa (fictional, Windows-1252)" },
];

/** The bytes of one demo feed, or null for a name that is not one. */
export async function readDemoFeedFile(file: string): Promise<Buffer | null> {
  if (!NAME.test(file) || !DEMO_FEEDS.some((f) => f.file === file)) return null;
  for (const dir of DIRS) {
    try {
      return await fs.readFile(path.join(dir, file));
    } catch {
      // not in this folder
    }
  }
  return null;
}
