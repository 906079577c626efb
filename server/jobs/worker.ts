import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../db-types";
import { claimNext, failJob, finishJob, heartbeat, pruneFinishedJobs, releaseJob, systemClock, writeProgress, type ClaimedJob, type Clock } from "./queue";
import { enqueueDueSchedules, upsertSchedules } from "./schedule";
import { JobInterrupted, JobLeaseLost, type JobContext, type JobHandler, type Schedule } from "./types";

/** How often a worker removes finished jobs past their keeping time (queue.ts pruneFinishedJobs). */
const PRUNE_EVERY_MS = 3_600_000;

export interface WorkerOptions {
  db: Kysely<DB>;
  handlers: Record<string, JobHandler<any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  schedules?: Schedule[];
  /** How often the queue is looked at when idle (default 1 s); a job's end looks again at once. */
  pollMs?: number;
  /** How long a claim lasts without a heartbeat (default 30 s); the heartbeat renews it every leaseMs / 3. */
  leaseMs?: number;
  /** Jobs run at once by this worker (default 1). */
  concurrency?: number;
  /** One line per job start, end and failure (default console.log). */
  log?: (line: string) => void;
  /** How long stop() waits for running handlers after aborting them (default 10 s). */
  stopTimeoutMs?: number;
  /** Wait before the next attempt after attempt n failed (default backoffMs: 5 s · 4^(n-1), at most 1 h). */
  backoff?: (attempt: number) => number;
  /** Progress is written at most this often (default 500 ms) — and always when done reaches total. */
  progressIntervalMs?: number;
  clock?: Clock;
  /** Names this worker in jobs.locked_by (default host:pid:random). */
  workerId?: string;
}

export interface Worker {
  readonly id: string;
  stop(): Promise<void>;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0];

/**
 * Runs the jobs of the given types (docs/decisions/016): polls the queue, claims a due job under a lease, runs its handler with a
 * heartbeat that keeps the lease, and records how it ended. A job whose worker died is claimed again when its lease runs out and its
 * handler runs again; handlers put their effects in `finish`, so they happen once. Also enqueues the jobs of due schedules.
 */
export function startWorker(options: WorkerOptions): Worker {
  const db = options.db;
  const handlers = options.handlers;
  const types = Object.keys(handlers);
  const pollMs = options.pollMs ?? 1_000;
  const leaseMs = options.leaseMs ?? 30_000;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const log = options.log ?? ((line: string) => console.log(line));
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const progressIntervalMs = options.progressIntervalMs ?? 500;
  const clock = options.clock ?? systemClock;
  const workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const schedules = options.schedules ?? [];
  const scheduleNames = schedules.map((s) => s.name);

  const running = new Map<number, { controller: AbortController; done: Promise<void>; heartbeat: NodeJS.Timeout }>();
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking = false;
  let tickAgain = false;
  let schedulesWritten = schedules.length === 0;
  let prunedAt = Number.NEGATIVE_INFINITY;

  function wake(delayMs: number) {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), delayMs);
  }

  async function tick() {
    if (stopping) return;
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = true;
    try {
      if (!schedulesWritten) {
        await upsertSchedules(db, schedules, clock);
        schedulesWritten = true;
      }
      if (scheduleNames.length) {
        const enqueued = await enqueueDueSchedules(db, scheduleNames, clock);
        for (const id of enqueued) log(`job ${id}: enqueued by its schedule`);
      }
      // Once an hour, finished jobs past their keeping time go (the schedules would grow the table without end).
      if (clock() - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = clock();
        const pruned = await pruneFinishedJobs(db, clock);
        if (pruned) log(`worker ${workerId}: removed ${pruned} finished jobs past their keeping time`);
      }
      while (!stopping && running.size < concurrency) {
        const job = await claimNext(db, { workerId, leaseMs, types, clock });
        if (!job) break;
        if (stopping) {
          // stop() was called while this claim was under way.
          await releaseJob(db, job.lease, clock);
          break;
        }
        run(job);
      }
    } catch (error) {
      // A busy database or a closed handle: the next poll tries again.
      log(`worker ${workerId}: ${messageOf(error)}`);
    } finally {
      ticking = false;
    }
    wake(tickAgain ? 0 : pollMs);
    tickAgain = false;
  }

  function run(job: ClaimedJob) {
    const controller = new AbortController();
    const { signal } = controller;
    const lease = job.lease;
    const name = `job ${job.id} ${job.type} (attempt ${job.attempt}/${job.maxAttempts})`;
    const startedAt = clock();
    let finished = false;
    let lastProgressAt = Number.NEGATIVE_INFINITY;
    log(`${name}: started`);

    const leaseLost = () => {
      if (!signal.aborted) controller.abort(new JobLeaseLost(job.id));
    };
    const beat = setInterval(
      () =>
        void heartbeat(db, lease, leaseMs, clock).then(
          (held) => held || leaseLost(),
          (error) => log(`${name}: heartbeat failed: ${messageOf(error)}`),
        ),
      Math.max(10, Math.floor(leaseMs / 3)),
    );

    const ctx: JobContext<unknown> = {
      job: { id: job.id, type: job.type, organizationId: job.organizationId, userId: job.userId, payload: job.payload, attempt: job.attempt },
      signal,
      async progress(done, total) {
        signal.throwIfAborted();
        const at = clock();
        const complete = total !== null && done >= total;
        if (!complete && at - lastProgressAt < progressIntervalMs) return;
        lastProgressAt = at;
        if (!(await writeProgress(db, lease, { done, total }, leaseMs, clock))) {
          leaseLost();
          signal.throwIfAborted();
        }
      },
      async finish<R>(write: (trx: Transaction<DB>) => Promise<R>) {
        if (signal.reason instanceof JobLeaseLost) throw signal.reason;
        try {
          const result = await finishJob(db, lease, write, clock);
          finished = true;
          return result;
        } catch (error) {
          if (error instanceof JobLeaseLost) leaseLost();
          throw error;
        }
      },
    };

    const done = (async () => {
      try {
        await handlers[job.type](ctx);
        if (!finished) await ctx.finish(async () => undefined);
        log(`${name}: done in ${seconds(clock() - startedAt)}`);
      } catch (error) {
        await settleFailure(job, name, error, signal);
      } finally {
        clearInterval(beat);
        running.delete(job.id);
        wake(0);
      }
    })();
    running.set(job.id, { controller, done, heartbeat: beat });
  }

  async function settleFailure(job: ClaimedJob, name: string, error: unknown, signal: AbortSignal) {
    try {
      if (error instanceof JobLeaseLost || signal.reason instanceof JobLeaseLost) {
        log(`${name}: lease lost, left to the worker that holds it now`);
        return;
      }
      if (signal.reason instanceof JobInterrupted) {
        const released = await releaseJob(db, job.lease, clock);
        log(`${name}: ${released ? "interrupted by the worker stopping, back in the queue" : "interrupted, and no longer this worker's"}`);
        return;
      }
      const outcome = await failJob(db, job.lease, error, { maxAttempts: job.maxAttempts, backoff: options.backoff, clock });
      if (outcome.outcome === "retry") log(`${name}: failed, retry at ${outcome.runAt}: ${messageOf(error)}`);
      else if (outcome.outcome === "failed") log(`${name}: failed: ${messageOf(error)}`);
      else log(`${name}: failed after its lease was lost: ${messageOf(error)}`);
    } catch (writeError) {
      log(`${name}: failed (${messageOf(error)}), and its failure could not be recorded: ${messageOf(writeError)}`);
    }
  }

  wake(0);

  return {
    id: workerId,
    async stop() {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      // A tick under way finishes its statement first, so no handler starts after this point.
      while (ticking) await new Promise((resolve) => setTimeout(resolve, 5));
      const jobs = [...running.entries()];
      for (const [id, { controller }] of jobs) controller.abort(new JobInterrupted(id));
      let timeout: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        Promise.allSettled(jobs.map(([, r]) => r.done)).then(() => true),
        new Promise<false>((resolve) => (timeout = setTimeout(() => resolve(false), stopTimeoutMs))),
      ]);
      clearTimeout(timeout);
      if (!waited) {
        // Handlers that ignore the signal: stop their heartbeats so their leases run out and another worker takes the jobs over.
        for (const [id, r] of running) {
          clearInterval(r.heartbeat);
          log(`job ${id}: still running after ${seconds(stopTimeoutMs)}; its lease will run out`);
        }
      }
    },
  };
}
