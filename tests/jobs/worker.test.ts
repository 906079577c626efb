import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, databaseFile, db } from "@server/db";
import { enqueueJob, JOB_FAILED_KEY } from "@server/jobs/queue";
import { JobLeaseLost, PermanentJobError, type JobHandler } from "@server/jobs/types";
import { startWorker, type Worker } from "@server/jobs/worker";
import { until } from "../helpers/until";

const row = (id: number) => db().selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

const workers: Worker[] = [];
function worker(options: Parameters<typeof startWorker>[0]): Worker {
  const w = startWorker({ pollMs: 20, ...options });
  workers.push(w);
  return w;
}
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

describe("the worker", () => {
  it("runs a job: writes its progress (throttled) and heartbeat, finishes it with its result, and logs its start and end", async () => {
    const lines: string[] = [];
    const progressSeen: Array<[number, number | null]> = [];
    const handler: JobHandler<{ total: number }> = async (ctx) => {
      for (let i = 1; i <= ctx.job.payload.total; i++) {
        await sleep(10);
        await ctx.progress(i, ctx.job.payload.total);
        const r = await row(ctx.job.id);
        progressSeen.push([r.progress_done, r.progress_total]);
      }
      await ctx.finish(async () => ({ rows: ctx.job.payload.total }));
    };
    const w = worker({ db: db(), handlers: { "w-basic": handler }, leaseMs: 150, progressIntervalMs: 100, log: (l) => lines.push(l) });
    const id = await enqueueJob(db(), { type: "w-basic", organizationId: null, userId: null, payload: { total: 30 } });
    const done = await until(
      () => row(id),
      (r) => r.status === "done",
    );
    expect(done).toMatchObject({ attempts: 1, progress_done: 30, progress_total: 30, result: '{"rows":30}', locked_by: null });
    expect(done.heartbeat_at! > done.started_at!).toBe(true);
    // Throttled: the first call wrote, later ones at most every 100 ms, and the last one (done == total) always.
    expect(progressSeen[0]).toEqual([1, 30]);
    expect(progressSeen.at(-1)).toEqual([30, 30]);
    const writes = new Set(progressSeen.map(([d]) => d)).size;
    expect(writes).toBeGreaterThan(1);
    expect(writes).toBeLessThan(15);
    expect(lines.filter((l) => l.startsWith(`job ${id} `))).toEqual([
      `job ${id} w-basic (attempt 1/5): started`,
      expect.stringMatching(new RegExp(`^job ${id} w-basic \\(attempt 1/5\\): done in \\d+\\.\\d s$`)),
    ]);
    await w.stop();
  });

  it("renews the lease with a heartbeat while a quiet handler runs, so no other worker takes the job", async () => {
    const runs: number[] = [];
    const slow: JobHandler = async (ctx) => {
      runs.push(ctx.job.attempt);
      await sleep(600);
    };
    const other = createDb(databaseFile());
    const a = worker({ db: db(), handlers: { "w-quiet": slow }, leaseMs: 150, log: () => {} });
    const id = await enqueueJob(db(), { type: "w-quiet", organizationId: null, userId: null, payload: null });
    await until(
      () => row(id),
      (r) => r.status === "running",
    );
    const b = worker({ db: other, handlers: { "w-quiet": slow }, leaseMs: 150, log: () => {} });
    const lease1 = (await row(id)).lease_until!;
    await sleep(300);
    expect((await row(id)).lease_until! > lease1).toBe(true);
    await until(
      () => row(id),
      (r) => r.status === "done",
    );
    expect(runs).toEqual([1]);
    await Promise.all([a.stop(), b.stop()]);
    await other.destroy();
  });

  it("retries a failing handler after the backoff, then fails the job with its message in the operator's detail", async () => {
    const lines: string[] = [];
    const attempts: number[] = [];
    const failing: JobHandler = async (ctx) => {
      attempts.push(ctx.job.attempt);
      throw new Error(`broken on attempt ${ctx.job.attempt}`);
    };
    const w = worker({ db: db(), handlers: { "w-fail": failing }, backoff: (n) => n * 50, log: (l) => lines.push(l) });
    const id = await enqueueJob(db(), { type: "w-fail", organizationId: null, userId: null, payload: null, maxAttempts: 3 });
    const failed = await until(
      () => row(id),
      (r) => r.status === "failed",
    );
    expect(attempts).toEqual([1, 2, 3]);
    expect(failed).toMatchObject({ attempts: 3, error_key: JOB_FAILED_KEY });
    expect(failed.error_detail).toMatch(/^Error: broken on attempt 3/);
    expect(lines.filter((l) => l.includes("failed"))).toEqual([
      expect.stringMatching(/attempt 1\/3\): failed, retry at .*: broken on attempt 1$/),
      expect.stringMatching(/attempt 2\/3\): failed, retry at .*: broken on attempt 2$/),
      expect.stringMatching(/attempt 3\/3\): failed: broken on attempt 3$/),
    ]);
    await w.stop();
  });

  it("fails the job at once on a PermanentJobError, with its key and params, and nothing of finish written", async () => {
    await sql`create table w_perm (n integer)`.execute(db());
    const calls: number[] = [];
    const malformed: JobHandler = async (ctx) => {
      calls.push(ctx.job.attempt);
      await ctx.progress(0, 10);
      throw new PermanentJobError("files:errors.unreadable", { sheet: 2 });
    };
    const w = worker({ db: db(), handlers: { "w-perm": malformed }, backoff: () => 0, log: () => {} });
    const id = await enqueueJob(db(), { type: "w-perm", organizationId: null, userId: null, payload: null });
    const failed = await until(
      () => row(id),
      (r) => r.status === "failed",
    );
    expect(calls).toEqual([1]);
    expect(failed).toMatchObject({ attempts: 1, error_key: "files:errors.unreadable", error_params: '{"sheet":2}', result: null });
    expect((await sql`select count(*) as n from w_perm`.execute(db())).rows).toEqual([{ n: 0 }]);
    await w.stop();
  });

  it("two workers (two database connections, three jobs at a time each) never run the same job", async () => {
    const other = createDb(databaseFile());
    const runs = new Map<number, number>();
    const handler: JobHandler = async (ctx) => {
      runs.set(ctx.job.id, (runs.get(ctx.job.id) ?? 0) + 1);
      await sleep(5 + (ctx.job.id % 7));
      await ctx.finish(async (trx) => {
        await sql`insert into w_runs (job_id) values (${ctx.job.id})`.execute(trx);
      });
    };
    await sql`create table w_runs (job_id integer not null)`.execute(db());
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push(await enqueueJob(db(), { type: "w-race", organizationId: null, userId: null, payload: i }));
    const a = worker({ db: db(), handlers: { "w-race": handler }, concurrency: 3, pollMs: 5, log: () => {} });
    const b = worker({ db: other, handlers: { "w-race": handler }, concurrency: 3, pollMs: 5, log: () => {} });
    await until(
      () => db().selectFrom("jobs").select("id").where("type", "=", "w-race").where("status", "!=", "done").execute(),
      (left) => left.length === 0,
      10_000,
    );
    await Promise.all([a.stop(), b.stop()]);
    await other.destroy();
    expect([...runs.keys()].sort((x, y) => x - y)).toEqual(ids);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    const rows = (await sql<{ job_id: number; n: number }>`select job_id, count(*) as n from w_runs group by job_id`.execute(db())).rows;
    expect(rows).toHaveLength(40);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    expect((await db().selectFrom("jobs").select("attempts").where("type", "=", "w-race").execute()).every((r) => r.attempts === 1)).toBe(true);
  });

  it("stop() aborts the running handler's signal, waits for it, and puts the job back in the queue without counting the attempt", async () => {
    const lines: string[] = [];
    let started = false;
    const longJob: JobHandler = async (ctx) => {
      started = true;
      await new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)));
    };
    const w = worker({ db: db(), handlers: { "w-stop": longJob }, log: (l) => lines.push(l) });
    const id = await enqueueJob(db(), { type: "w-stop", organizationId: null, userId: null, payload: null });
    await until(
      async () => started,
      (s) => s,
    );
    await w.stop();
    expect(await row(id)).toMatchObject({ status: "queued", attempts: 0, locked_by: null, lease_until: null });
    expect(lines.at(-1)).toMatch(/interrupted by the worker stopping, back in the queue$/);
  });

  it("a worker that loses its job's lease (another worker claimed it) aborts the handler's signal and can write nothing of it", async () => {
    await sql`create table w_lost (job_id integer not null)`.execute(db());
    const lines: string[] = [];
    let reason: unknown;
    let finishError: unknown;
    const handler: JobHandler = async (ctx) => {
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
      reason = ctx.signal.reason;
      try {
        await ctx.finish(async (trx) => sql`insert into w_lost (job_id) values (${ctx.job.id})`.execute(trx));
      } catch (error) {
        finishError = error;
        throw error;
      }
    };
    const w = worker({ db: db(), handlers: { "w-lost": handler }, leaseMs: 90, log: (l) => lines.push(l) });
    const id = await enqueueJob(db(), { type: "w-lost", organizationId: null, userId: null, payload: null });
    await until(
      () => row(id),
      (r) => r.status === "running",
    );
    // What a second worker's claim does to the row once the first one's lease has run out.
    await db().updateTable("jobs").set({ locked_by: "someone-else", attempts: 2 }).where("id", "=", id).execute();
    await until(
      async () => finishError,
      (e) => e !== undefined,
    );
    expect(reason).toBeInstanceOf(JobLeaseLost);
    expect(finishError).toBeInstanceOf(JobLeaseLost);
    await sleep(50);
    expect(await row(id)).toMatchObject({ status: "running", locked_by: "someone-else", attempts: 2, error_detail: null });
    expect((await sql`select count(*) as n from w_lost`.execute(db())).rows).toEqual([{ n: 0 }]);
    expect(lines.at(-1)).toMatch(/lease lost, left to the worker that holds it now$/);
    await w.stop();
  });

  it("stop() waits for a handler that ignores the signal only up to its bound, and stops its heartbeat so the lease runs out", async () => {
    const lines: string[] = [];
    const stubborn: JobHandler = async () => {
      await sleep(600);
    };
    const w = worker({ db: db(), handlers: { "w-stubborn": stubborn }, leaseMs: 150, stopTimeoutMs: 100, log: (l) => lines.push(l) });
    const id = await enqueueJob(db(), { type: "w-stubborn", organizationId: null, userId: null, payload: null });
    await until(
      () => row(id),
      (r) => r.status === "running",
    );
    const started = Date.now();
    await w.stop();
    expect(Date.now() - started).toBeLessThan(400);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^job ${id}: still running after 0\\.1 s; its lease will run out$`)));
    const leaseAtStop = (await row(id)).lease_until!;
    await sleep(250);
    expect((await row(id)).lease_until).toBe(leaseAtStop);
    expect(leaseAtStop < new Date().toISOString()).toBe(true);
  });

  it("a handler that returns without finish leaves the job done with no result; a worker claims only the types it has handlers for", async () => {
    const w = worker({ db: db(), handlers: { "w-plain": async () => {} }, log: () => {} });
    const plain = await enqueueJob(db(), { type: "w-plain", organizationId: null, userId: null, payload: null });
    const foreign = await enqueueJob(db(), { type: "w-nobody", organizationId: null, userId: null, payload: null });
    expect(
      await until(
        () => row(plain),
        (r) => r.status === "done",
      ),
    ).toMatchObject({ result: "null", attempts: 1 });
    await sleep(100);
    expect(await row(foreign)).toMatchObject({ status: "queued", attempts: 0 });
    await w.stop();
  });
});
