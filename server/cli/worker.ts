import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { closeDb, databaseFile, db } from "../db";
import { jobsOfBuild } from "../jobs/from-build";
import { startWorker } from "../jobs/worker";
import { migrateToLatest } from "../migrate";

/**
 * npm run worker — the job worker alone, without the web server (docs/decisions/016). Runs the handlers that the built app exports
 * (`jobHandlers` of app/entry.server.tsx, in BUILD_DIR, default build/) until SIGTERM or SIGINT. Any number of these and of servers
 * may run against one database: a job is claimed by one of them at a time.
 */

const applied = await migrateToLatest(db());
if (applied.length) console.log(`Database migrated: ${applied.join(", ")}`);

const buildFile = path.join(path.resolve(process.env.BUILD_DIR ?? "build"), "server/index.js");
const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
const { handlers, schedules, missing } = jobsOfBuild(build);
if (missing) console.warn(`${buildFile} exports no jobHandlers: this worker has no job to run.`);

const worker = startWorker({ db: db(), handlers, schedules });
console.log(
  `Worker ${worker.id} on ${databaseFile()}: job types ${Object.keys(handlers).join(", ") || "(none)"}` +
    (schedules.length ? `; schedules ${schedules.map((s) => s.name).join(", ")}` : ""),
);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the worker`);
    void worker
      .stop()
      .then(() => closeDb())
      .then(() => process.exit(0));
  });
}
