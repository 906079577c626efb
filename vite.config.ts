/// <reference types="vitest/config" />
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import remixConfig from "./remix.config.js";

export default defineConfig({
  plugins: [
    tailwindcss(),
    // Vitest runs models and routes directly; the Remix plugin is for the app build.
    !process.env.VITEST && remix(remixConfig),
    tsconfigPaths(),
  ],
  // The Vite manifest stays in build/client/.vite/: the page-weight budget (tests/e2e/weight.spec.ts) reads it.
  build: { manifest: true },
  optimizeDeps: { exclude: ["better-sqlite3"] },
  ssr: { external: ["better-sqlite3"] },
  server: { port: 3000 },
  test: {
    include: ["tests/**/*.test.ts", "app/**/*.test.ts", "server/**/*.test.ts"],
    exclude: ["tests/e2e/**", "node_modules/**"],
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/per-file.ts"],
    pool: "forks",
    testTimeout: 20_000,
  },
});
