import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb } from "../../server/db";
import { migrateToLatest } from "../../server/migrate";

/**
 * Migrates one template database for the whole run; each test file then gets
 * its own copy (tests/setup/per-file.ts), so files never see each other's rows.
 */
export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sr-test-"));
  const template = path.join(dir, "template.db");
  const database = createDb(template);
  await migrateToLatest(database);
  await database.destroy();
  process.env.TEST_TEMPLATE_DB = template;
  process.env.TEST_ROOT = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
