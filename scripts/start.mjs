// npm start: install what is missing, build, then run the server (which migrates and seeds).
import { spawn } from "node:child_process";
import path from "node:path";
import { ensureBuild, ensureDependencies, root } from "./lib.mjs";

ensureDependencies();
// The Vite build and the brotli and gzip copies of its assets, when the sources are newer than the build.
ensureBuild();

const child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "server/main.ts"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "production" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
