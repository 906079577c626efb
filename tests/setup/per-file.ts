import fs from "node:fs";
import path from "node:path";
import { inspect } from "node:util";
import { afterAll, afterEach, beforeEach } from "vitest";
import { closeDb } from "../../server/db";

const root = process.env.TEST_ROOT!;
const dataDir = fs.mkdtempSync(path.join(root, "file-"));
fs.copyFileSync(process.env.TEST_TEMPLATE_DB!, path.join(dataDir, "app.db"));
process.env.DATA_DIR = dataDir;
process.env.DATABASE_FILE = path.join(dataDir, "app.db");
process.env.NODE_ENV = "test";
process.env.SESSION_SECRET ??= "test-session-secret-of-enough-length";

/*
 * A `console.error` during a test fails that test, with what was logged: an error the code logs and
 * carries on from (a section that "fails soft", a swallowed rejection, a React warning) is a defect the
 * assertions would not see. A test that exercises such a path on purpose says so by spying on the log
 * itself — `vi.spyOn(console, "error").mockImplementation(() => {})`, in the test or in a `beforeAll`
 * of its `describe` — and asserts what was logged; while its spy is in place, nothing reaches this check.
 *
 * The check is installed once, as the `console.error` every spy wraps, rather than as a spy of its own:
 * restoring a test's spy (`mockRestore`, `vi.restoreAllMocks()`) brings the check back, never removes it.
 */
const consoleError = console.error.bind(console);
let loggedErrors: string[] = [];

function describeLogged(args: unknown[]): string {
  // An Error says where it came from: its stack, without the test runner's and Node's own frames.
  const describe = (arg: unknown) =>
    arg instanceof Error
      ? (arg.stack ?? `${arg.name}: ${arg.message}`)
          .split("\n")
          .filter((line) => !/node_modules|node:internal|\(<anonymous>\)/.test(line))
          .join("\n")
      : typeof arg === "string"
        ? arg
        : inspect(arg, { depth: 4 });
  return args.map(describe).join(" ");
}

console.error = (...args: unknown[]) => {
  loggedErrors.push(describeLogged(args));
  consoleError(...args);
};

beforeEach(() => {
  // What was logged outside a test (a hook, module loading) belongs to no test; it still shows in the output.
  loggedErrors = [];
});

afterEach(() => {
  const logged = loggedErrors;
  loggedErrors = [];
  if (logged.length > 0) {
    const list = logged.map((entry, i) => `  ${i + 1}. ${entry.replace(/\n/g, "\n     ")}`).join("\n");
    throw new Error(
      `console.error was called ${logged.length} time(s) during this test (spy on it in the test if the error is expected and asserted):\n${list}`,
    );
  }
});

afterAll(async () => {
  await closeDb();
});
