/**
 * A worker in its own process running the real "supplier-analysis" handler, for tests/imports/analysis-crash.test.ts:
 * `node --import tsx tests/imports/analysis-child.ts` with DATABASE_FILE, DATA_DIR and LEASE_MS.
 */
import { db } from "@server/db";
import { startWorker } from "@server/jobs/worker";
import { supplierAnalysis } from "~/models/files/supplier-analysis-job.server";

const worker = startWorker({
  db: db(),
  handlers: { "supplier-analysis": supplierAnalysis },
  leaseMs: Number(process.env.LEASE_MS ?? 1000),
  pollMs: 50,
  progressIntervalMs: 0,
  log: (line) => console.log(line),
});
console.log(`worker ${worker.id} ready`);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => void worker.stop().then(() => process.exit(0)));
}
