import { defineConfig } from "vitest/config";
import base from "../vite.config";

/**
 * `BENCH_ONLY=budgets npm run bench` runs scripts/bench-budgets.ts through vitest, with the test setup (a freshly
 * migrated database per file): the route modules need Vite (path aliases, `import.meta.glob`). Only that file runs.
 */
export default defineConfig({
  ...base,
  test: { ...base.test, include: ["scripts/bench-budgets.ts"], exclude: [], disableConsoleIntercept: true, testTimeout: 1_800_000, hookTimeout: 1_800_000 },
});
