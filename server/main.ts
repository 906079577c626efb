import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { createApp } from "./app";
import { closeDb, db } from "./db";
import { env } from "./env";
import { migrateToLatest } from "./migrate";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isDatabaseEmpty, seedDemoWorld } from "./seed/demo";

/**
 * The production server: migrates the database, seeds the demo world into an
 * empty one, then serves the built app. One Node process, one SQLite file.
 */
async function main() {
  const config = env();
  const applied = await migrateToLatest(db());
  if (applied.length) console.log(`Database migrated: ${applied.join(", ")}`);
  if (await isDatabaseEmpty(db())) {
    console.log("Empty database: seeding the demo world…");
    await seedDemoWorld(db(), { log: (line) => console.log(`  ${line}`) });
  }

  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const buildFile = path.join(buildDir, "server/index.js");
  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;

  const app = createApp(build, { buildDir, trustProxy: config.TRUST_PROXY, appUrl: config.APP_URL });

  const server = app.listen(config.PORT, config.HOST, () => {
    const shownHost = config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST;
    console.log(`\nSupplier Risk is running at http://${shownHost}:${config.PORT}`);
    console.log(`Data folder: ${config.DATA_DIR} (database app.db, uploads/, mail outbox/)`);
    console.log(`\nDemo accounts (password ${DEMO_PASSWORD}):`);
    for (const a of DEMO_ACCOUNTS) console.log(`  ${a.email.padEnd(22)} ${a.description}`);
    console.log("");
  });

  const shutdown = (signal: string) => {
    console.log(`${signal}: shutting down`);
    server.close(() => {
      void closeDb().then(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
