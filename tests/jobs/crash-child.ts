/**
 * A worker in its own process, for the crash test (tests/jobs/crash.test.ts): `node --import tsx tests/jobs/crash-child.ts` with
 * DATABASE_FILE and LEASE_MS. Its one handler writes one row per item, slowly, resuming after the rows an earlier attempt wrote (so
 * a re-run never writes an item twice), then writes its marker in `finish`, which happens once.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { createDb } from "../../server/db";
import type { JobHandler } from "../../server/jobs/types";
import { startWorker } from "../../server/jobs/worker";

const db = createDb(process.env.DATABASE_FILE!);

const rows: JobHandler<{ total: number; delayMs: number }> = async (ctx) => {
  const { total, delayMs } = ctx.job.payload;
  const { rows: last } = await sql<{ item: number | null }>`select max(item) as item from crash_rows where job_id = ${ctx.job.id}`.execute(db);
  for (let item = (last[0].item ?? 0) + 1; item <= total; item++) {
    ctx.signal.throwIfAborted();
    await sleep(delayMs);
    await sql`insert into crash_rows (job_id, item, attempt) values (${ctx.job.id}, ${item}, ${ctx.job.attempt})`.execute(db);
    await ctx.progress(item, total);
  }
  await ctx.finish(async (trx) => {
    await sql`insert into crash_markers (job_id) values (${ctx.job.id})`.execute(trx);
    const { rows: count } = await sql<{ n: number }>`select count(*) as n from crash_rows where job_id = ${ctx.job.id}`.execute(trx);
    return { rows: count[0].n };
  });
};

const worker = startWorker({ db, handlers: { "crash-rows": rows }, leaseMs: Number(process.env.LEASE_MS ?? 1000), pollMs: 50 });
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    void worker
      .stop()
      .then(() => db.destroy())
      .then(() => process.exit(0));
  });
}
