import { sql, type Kysely, type Selectable, type Transaction, type UpdateQueryBuilder, type UpdateResult } from "kysely";
import type { DB, JobTable } from "../db-types";
import { JobLeaseLost, PermanentJobError, type JobView } from "./types";

/**
 * The jobs table as a queue (docs/decisions/016). Every state change is one UPDATE guarded by the claim it belongs to — the job's id,
 * `status = 'running'`, the worker's id in `locked_by` and the attempt number — so a worker whose lease ran out and whose job another
 * worker claimed can no longer write anything to it. better-sqlite3 runs one statement at a time, and SQLite takes the write lock
 * before an UPDATE reads, so one statement is atomic across processes too.
 */

/** Milliseconds since the epoch; injectable so tests can move time. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

const iso = (ms: number) => new Date(ms).toISOString();

/** Narrows an UPDATE of the jobs table to the job while this claim holds it (the guard every state change of a claimed job has). */
function heldBy(lease: JobLease) {
  return <QB extends UpdateQueryBuilder<DB, "jobs", "jobs", UpdateResult>>(qb: QB): QB =>
    qb.where("id", "=", lease.id).where("status", "=", "running").where("locked_by", "=", lease.workerId).where("attempts", "=", lease.attempt) as QB;
}

/** Whether a guarded UPDATE changed the job: false when the claim no longer holds it. */
const held = (result: UpdateResult) => Number(result.numUpdatedRows) === 1;

/** The message key a user sees when a job failed for a reason that is not theirs (the detail goes to the operator's log). */
export const JOB_FAILED_KEY = "common:errors.serverError";

/** 5 s, 20 s, 80 s, 5 min 20 s, 21 min 20 s, … capped at one hour. */
export function backoffMs(attempt: number): number {
  return Math.min(5_000 * 4 ** Math.max(0, attempt - 1), 3_600_000);
}

export interface EnqueueInput {
  type: string;
  organizationId: number | null;
  userId: number | null;
  payload: unknown;
  maxAttempts?: number;
  /** ISO-8601; due now when left out. */
  runAt?: string;
}

export async function enqueueJob(db: Kysely<DB> | Transaction<DB>, input: EnqueueInput, clock: Clock = systemClock): Promise<number> {
  const now = iso(clock());
  const row = await db
    .insertInto("jobs")
    .values({
      type: input.type,
      organization_id: input.organizationId,
      user_id: input.userId,
      payload: JSON.stringify(input.payload ?? null),
      max_attempts: input.maxAttempts ?? 5,
      run_at: input.runAt ? iso(Date.parse(input.runAt)) : now,
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** What identifies one claim of a job: the state-changing statements below only touch the job while it is still this claim. */
export interface JobLease {
  id: number;
  workerId: string;
  attempt: number;
}

export interface ClaimedJob {
  id: number;
  type: string;
  organizationId: number | null;
  userId: number | null;
  payload: unknown;
  attempt: number;
  maxAttempts: number;
  lease: JobLease;
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Claims the oldest due job of one of `types`: a queued one whose time has come, or a running one whose worker's lease ran out (that
 * worker died or hangs; its handler is run again). One UPDATE … WHERE id = (SELECT …) RETURNING, so two workers never claim one job.
 * A job whose worker died on every one of its attempts is failed here instead of being run once more.
 */
export async function claimNext(
  db: Kysely<DB>,
  options: { workerId: string; leaseMs: number; types: string[]; clock?: Clock },
): Promise<ClaimedJob | undefined> {
  if (options.types.length === 0) return undefined;
  const clock = options.clock ?? systemClock;
  for (;;) {
    const nowMs = clock();
    const now = iso(nowMs);
    const types = sql.join(options.types.map((type) => sql`${type}`));
    const { rows } = await sql<Selectable<JobTable>>`
      update jobs
      set status = 'running', attempts = attempts + 1, locked_by = ${options.workerId}, lease_until = ${iso(nowMs + options.leaseMs)},
          heartbeat_at = ${now}, started_at = coalesce(started_at, ${now})
      where id = (
        select id from jobs
        where type in (${types})
          and ((status = 'queued' and run_at <= ${now}) or (status = 'running' and lease_until < ${now}))
        order by run_at, id
        limit 1
      )
      returning *`.execute(db);
    const row = rows[0];
    if (!row) return undefined;
    const lease: JobLease = { id: row.id, workerId: options.workerId, attempt: row.attempts };
    if (row.attempts > row.max_attempts) {
      await markFailed(db, lease, JOB_FAILED_KEY, null, `The worker stopped (crashed or was killed) during each of its ${row.max_attempts} attempts`, nowMs);
      continue;
    }
    return {
      id: row.id,
      type: row.type,
      organizationId: row.organization_id,
      userId: row.user_id,
      payload: parseJson(row.payload),
      attempt: row.attempts,
      maxAttempts: row.max_attempts,
      lease,
    };
  }
}

/** Pushes the lease forward; false when the job is no longer this claim's. */
export async function heartbeat(db: Kysely<DB>, lease: JobLease, leaseMs: number, clock: Clock = systemClock): Promise<boolean> {
  const nowMs = clock();
  const result = await db
    .updateTable("jobs")
    .set({ heartbeat_at: iso(nowMs), lease_until: iso(nowMs + leaseMs) })
    .$call(heldBy(lease))
    .executeTakeFirst();
  return held(result);
}

/** Writes progress and renews the lease; false when the job is no longer this claim's. */
export async function writeProgress(
  db: Kysely<DB>,
  lease: JobLease,
  progress: { done: number; total: number | null },
  leaseMs: number,
  clock: Clock = systemClock,
): Promise<boolean> {
  const nowMs = clock();
  const result = await db
    .updateTable("jobs")
    .set({
      progress_done: Math.max(0, Math.floor(progress.done)),
      progress_total: progress.total === null ? null : Math.max(0, Math.floor(progress.total)),
      heartbeat_at: iso(nowMs),
      lease_until: iso(nowMs + leaseMs),
    })
    .$call(heldBy(lease))
    .executeTakeFirst();
  return held(result);
}

/**
 * Marks the job done and runs `write` in one transaction, only while the claim holds; the job's result is what `write` returns (as
 * JSON). The job's row is written first, so the transaction takes SQLite's write lock before it reads anything. `write` must use the
 * transaction it is given, never the database handle (which waits for the transaction: a deadlock).
 */
export async function finishJob<R>(db: Kysely<DB>, lease: JobLease, write: (trx: Transaction<DB>) => Promise<R>, clock: Clock = systemClock): Promise<R> {
  return db.transaction().execute(async (trx) => {
    const now = iso(clock());
    const claimed = await trx
      .updateTable("jobs")
      .set({ status: "done", finished_at: now, locked_by: null, lease_until: null, error_key: null, error_params: null })
      .$call(heldBy(lease))
      .executeTakeFirst();
    if (!held(claimed)) throw new JobLeaseLost(lease.id);
    const result = await write(trx);
    await trx
      .updateTable("jobs")
      .set({ result: JSON.stringify(result ?? null) })
      .where("id", "=", lease.id)
      .execute();
    return result;
  });
}

function describeError(error: unknown): string {
  if (error instanceof Error) return (error.stack ?? `${error.name}: ${error.message}`).slice(0, 8_000);
  return String(error).slice(0, 8_000);
}

async function markFailed(db: Kysely<DB>, lease: JobLease, key: string, params: Record<string, unknown> | null, detail: string, nowMs: number) {
  const result = await db
    .updateTable("jobs")
    .set({
      status: "failed",
      finished_at: iso(nowMs),
      locked_by: null,
      lease_until: null,
      error_key: key,
      error_params: params ? JSON.stringify(params) : null,
      error_detail: detail,
    })
    .$call(heldBy(lease))
    .executeTakeFirst();
  return held(result);
}

export type FailOutcome = { outcome: "retry"; runAt: string } | { outcome: "failed" } | { outcome: "lost" };

/**
 * An attempt failed. A PermanentJobError fails the job at once with its message key; any other error is retried after the backoff
 * while attempts remain, then fails the job with the generic message (its text goes to error_detail, the operator's log).
 */
export async function failJob(
  db: Kysely<DB>,
  lease: JobLease,
  error: unknown,
  options: { maxAttempts: number; backoff?: (attempt: number) => number; clock?: Clock },
): Promise<FailOutcome> {
  const nowMs = (options.clock ?? systemClock)();
  const detail = describeError(error);
  if (error instanceof PermanentJobError) {
    return (await markFailed(db, lease, error.messageKey, error.params ?? null, detail, nowMs)) ? { outcome: "failed" } : { outcome: "lost" };
  }
  if (lease.attempt >= options.maxAttempts) {
    return (await markFailed(db, lease, JOB_FAILED_KEY, null, detail, nowMs)) ? { outcome: "failed" } : { outcome: "lost" };
  }
  const runAt = iso(nowMs + (options.backoff ?? backoffMs)(lease.attempt));
  const result = await db
    .updateTable("jobs")
    .set({ status: "queued", run_at: runAt, locked_by: null, lease_until: null, error_detail: detail })
    .$call(heldBy(lease))
    .executeTakeFirst();
  return held(result) ? { outcome: "retry", runAt } : { outcome: "lost" };
}

/** The worker is stopping: the job goes back to the queue, due now, and this attempt is not counted. */
export async function releaseJob(db: Kysely<DB>, lease: JobLease, clock: Clock = systemClock): Promise<boolean> {
  const result = await db
    .updateTable("jobs")
    .set((eb) => ({ status: "queued", run_at: iso(clock()), locked_by: null, lease_until: null, attempts: eb("attempts", "-", 1) }))
    .$call(heldBy(lease))
    .executeTakeFirst();
  return held(result);
}

function toView(row: Selectable<JobTable>): JobView {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    progressDone: row.progress_done,
    progressTotal: row.progress_total,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    result: parseJson(row.result),
    error:
      row.status === "failed" ? { key: row.error_key ?? JOB_FAILED_KEY, params: (parseJson(row.error_params) as Record<string, unknown> | null) ?? {} } : null,
    createdAt: row.created_at,
    runAt: row.run_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/**
 * One job of the user who started it, in the organisation they started it in; undefined for any other (another organisation's or
 * another user's job, a system job, a missing id), so a route answers 404 alike.
 */
export async function jobForUser(db: Kysely<DB>, scope: { organizationId: number; userId: number; id: number }): Promise<JobView | undefined> {
  const row = await db
    .selectFrom("jobs")
    .selectAll()
    .where("id", "=", scope.id)
    .where("organization_id", "=", scope.organizationId)
    .where("user_id", "=", scope.userId)
    .executeTakeFirst();
  return row ? toView(row) : undefined;
}

/** The user's jobs in the organisation, newest first (optionally of one type). */
export async function listJobsForUser(
  db: Kysely<DB>,
  scope: { organizationId: number; userId: number; type?: string; statuses?: JobView["status"][]; limit?: number },
): Promise<JobView[]> {
  let query = db
    .selectFrom("jobs")
    .selectAll()
    .where("organization_id", "=", scope.organizationId)
    .where("user_id", "=", scope.userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(scope.limit ?? 50);
  if (scope.type) query = query.where("type", "=", scope.type);
  if (scope.statuses?.length) query = query.where("status", "in", scope.statuses);
  const rows = await query.execute();
  return rows.map(toView);
}

/** How long finished jobs are kept: done ones 30 days (their result is read soon after), failed ones 90 (an operator may look). */
export const KEEP_DONE_JOBS_MS = 30 * 86_400_000;
export const KEEP_FAILED_JOBS_MS = 90 * 86_400_000;

/**
 * Deletes finished jobs past their keeping time, so that recurring schedules (a monitor every 15 minutes, mails every 5)
 * do not grow the table without end. Queued and running jobs are never touched. Returns how many went.
 */
export async function pruneFinishedJobs(db: Kysely<DB>, clock: Clock = systemClock): Promise<number> {
  const now = clock();
  const result = await db
    .deleteFrom("jobs")
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "done"), eb("finished_at", "<", iso(now - KEEP_DONE_JOBS_MS))]),
        eb.and([eb("status", "=", "failed"), eb("finished_at", "<", iso(now - KEEP_FAILED_JOBS_MS))]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
