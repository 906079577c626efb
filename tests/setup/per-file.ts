import fs from "node:fs";
import path from "node:path";
import { afterAll } from "vitest";
import { closeDb } from "../../server/db";

const root = process.env.TEST_ROOT!;
const dataDir = fs.mkdtempSync(path.join(root, "file-"));
fs.copyFileSync(process.env.TEST_TEMPLATE_DB!, path.join(dataDir, "app.db"));
process.env.DATA_DIR = dataDir;
process.env.DATABASE_FILE = path.join(dataDir, "app.db");
process.env.NODE_ENV = "test";
process.env.SESSION_SECRET ??= "test-session-secret-of-enough-length";

afterAll(async () => {
  await closeDb();
});
