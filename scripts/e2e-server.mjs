// The server Playwright tests against: the production build, a fresh data folder, loopback only.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root } from "./lib.mjs";

const port = process.env.PORT ?? "3210";
const dataDir = path.join(root, `.cache/e2e-data-${port}`);
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });

const child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "server/main.ts"], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: port,
    DATA_DIR: dataDir,
    SESSION_SECRET: "e2e-session-secret-not-for-production",
    // Many sign-ins come from one address in a test run.
    LOGIN_MAX_FAILURES_PER_ADDRESS: "1000",
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
