// npm test: install what is missing, make sure Chromium is there, then lint (ESLint, zero warnings),
// check the formatting (Prettier), typecheck, unit + integration tests (vitest) and end-to-end tests
// (Playwright, JS on and off). A failing step fails the run.
//   npm test                         everything
//   npm test -- tests/auth.test.ts   one vitest file
//   npm test -- tests/e2e/auth.spec.ts   one Playwright file (both projects)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ensureBuild, ensureDependencies, run } from "./lib.mjs";

const args = process.argv.slice(2);
const e2eArgs = args.filter((a) => a.includes(".spec."));
const unitArgs = args.filter((a) => !a.includes(".spec."));
const onlyUnit = args.length > 0 && e2eArgs.length === 0;
const onlyE2e = args.length > 0 && unitArgs.length === 0;

ensureDependencies();

function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (fs.existsSync(chromium)) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (isRoot && hasApt && !process.env.CHROMIUM_PATH) {
    console.log("Chromium is missing: installing the Debian package 'chromium'…");
    if (run("apt-get", ["update", "-qq"]) === 0 && run("apt-get", ["install", "-y", "-qq", "chromium"]) === 0 && fs.existsSync(chromium)) return;
  }
  console.error(
    `\nChromium was not found at ${chromium}.\n` +
      "The end-to-end tests drive the system Chromium and never download a browser. Install it with\n" +
      "  sudo apt-get install chromium        (Debian/Ubuntu)\n" +
      "or point CHROMIUM_PATH at a Chromium or Chrome binary.\n",
  );
  process.exit(1);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "sr-report-"));
const failedSteps = [];

function step(name, fn) {
  console.log(`\n━━ ${name}`);
  if (fn() !== 0) failedSteps.push(name);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

if (!onlyE2e) {
  step("Lint (ESLint)", () => run("npx", ["eslint", ".", "--max-warnings", "0"]));
  step("Format (Prettier)", () => run("npx", ["prettier", "--check", "."]));
  step("Typecheck", () => run("npx", ["tsc", "--noEmit"]));
  step("Unit and integration tests (vitest)", () => {
    const out = path.join(reportDir, "vitest.json");
    const status = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...unitArgs]);
    const report = readJson(out);
    if (report) {
      totals.passed += report.numPassedTests;
      totals.failed += report.numFailedTests;
      totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    } else if (status !== 0) totals.failed += 1;
    return status;
  });
}

if (!onlyUnit) {
  ensureChromium();
  ensureBuild();
  step("End-to-end tests (Playwright, JavaScript on and off)", () => {
    const out = path.join(reportDir, "playwright.json");
    const status = run("npx", ["playwright", "test", "--reporter=list,json", ...e2eArgs], { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: out } });
    const report = readJson(out);
    if (report?.stats) {
      totals.passed += report.stats.expected + (report.stats.flaky ?? 0);
      totals.failed += report.stats.unexpected;
      totals.skipped += report.stats.skipped;
    } else if (status !== 0) totals.failed += 1;
    return status;
  });
}

fs.rmSync(reportDir, { recursive: true, force: true });
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failedSteps.length) console.log(`Failed: ${failedSteps.join(", ")}`);
process.exit(failedSteps.length || totals.failed > 0 ? 1 : 0);
