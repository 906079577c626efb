import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { createApp } from "./app";
import { closeDb, db } from "./db";
import { env } from "./env";
import { jobsOfBuild } from "./jobs/from-build";
import { startWorker, type Worker } from "./jobs/worker";
import { migrateToLatest } from "./migrate";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isDatabaseEmpty, seedDemoWorld } from "./seed/demo";
import { ensureStarterTemplates } from "./seed/starter-templates";
import { enqueueJob } from "./jobs/queue";
import { RISK_RECOMPUTE_JOB } from "./monitoring/notify";

/** Migrations that add columns the overall-risk recomputation writes (decisions 036, 038): after them, recompute everything. */
const RECOMPUTE_AFTER = new Set(["0025_connection_facts"]);

/**
 * The production server: migrates the database, seeds the demo world into an
 * empty one, then serves the built app and runs the background job worker
 * (WORKER=off leaves jobs to `npm run worker`). One Node process, one SQLite file.
 */
async function main() {
  const config = env();
  const applied = await migrateToLatest(db());
  if (applied.length) console.log(`Database migrated: ${applied.join(", ")}`);
  // Every installation has the starter task and survey templates (decision 032), not only the demo.
  const starters = await ensureStarterTemplates(db());
  if (starters.created) console.log(`Starter templates added: ${starters.created}`);
  if (await isDatabaseEmpty(db())) {
    console.log("Empty database: seeding the demo world…");
    await seedDemoWorld(db(), { log: (line) => console.log(`  ${line}`) });
  } else if (applied.some((name) => RECOMPUTE_AFTER.has(name))) {
    // New columns written by the overall-risk recomputation: fill them now, not at the next daily run (decision 038).
    await enqueueJob(db(), { type: RISK_RECOMPUTE_JOB, organizationId: null, userId: null, payload: {} });
    console.log("Queued a recomputation of every followed supplier's stored risk and facts.");
  }

  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const buildFile = path.join(buildDir, "server/index.js");
  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;

  const app = createApp(build, { buildDir, trustProxy: config.TRUST_PROXY, appUrl: config.APP_URL });

  const server = app.listen(config.PORT, config.HOST, () => {
    const shownHost = config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST;
    console.log(`\nSupplier Risk is running at http://${shownHost}:${config.PORT}`);
    console.log(`Data folder: ${config.DATA_DIR} (database app.db, uploads/, mail outbox/)`);
    if (!config.APP_URL) {
      console.log(`Links in mails point at http://${shownHost}:${config.PORT}: set APP_URL to the address your users open.`);
    }
    console.log(`\nDemo accounts (password ${DEMO_PASSWORD}):`);
    for (const a of DEMO_ACCOUNTS) console.log(`  ${a.email.padEnd(22)} ${a.description}`);
    console.log("");
    worker = startJobWorker(build);
  });

  // Idle keep-alive sockets stay open longer than clients and proxies keep theirs (a load balancer's 60 s), so a client
  // never sends a request on a socket the server is closing at that moment (an ECONNRESET for it).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  let worker: Worker | undefined;
  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    console.log(`${signal}: shutting down`);
    // A running job gets 4 s to end; if it does not, its lease runs out and the next start (or `npm run worker`) runs it again.
    const stopped = worker ? worker.stop() : Promise.resolve();
    server.close(() => {
      void stopped.then(() => closeDb()).then(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

/** The job worker in this process, with the handlers the built app exports; none when WORKER=off. */
function startJobWorker(build: ServerBuild): Worker | undefined {
  if (env().WORKER === "off") {
    console.log("Background jobs: WORKER=off, run them with `npm run worker`.");
    return undefined;
  }
  const { handlers, schedules, missing } = jobsOfBuild(build);
  if (missing) console.warn("Background jobs: the build exports no jobHandlers; the worker has no job to run.");
  return startWorker({ db: db(), handlers, schedules, stopTimeoutMs: 4_000 });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
