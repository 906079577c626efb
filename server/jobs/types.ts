import type { Transaction } from "kysely";
import type { DB } from "../db-types";

export type JobStatus = "queued" | "running" | "done" | "failed";

export interface JobContext<P = unknown> {
  job: { id: number; type: string; organizationId: number | null; userId: number | null; payload: P; attempt: number };
  /** Rows done of total; throttled writes; also renews the heartbeat. Throws JobLeaseLost once the job is no longer this worker's. */
  progress(done: number, total: number | null): Promise<void>;
  /** Aborted when the worker stops or loses the job's lease. */
  signal: AbortSignal;
  /**
   * Runs `write` and marks the job done with its return value as the result, in ONE SQLite transaction, only if this worker still
   * holds the job (else throws JobLeaseLost and nothing is written). The way a handler makes its effects exactly-once.
   */
  finish<R>(write: (trx: Transaction<DB>) => Promise<R>): Promise<R>;
}

/**
 * Does the work of one job type. It may run more than once for one job (a worker that died mid-job leaves it to another), so it
 * is written to be re-runnable, and puts its lasting effects in `ctx.finish`. Returning without calling `finish` marks the job done
 * with no result; throwing fails the attempt (retried with backoff) unless the error is a PermanentJobError.
 */
export type JobHandler<P = unknown> = (ctx: JobContext<P>) => Promise<void>;

/** A failure that must not be retried (malformed file): the job fails at once with this message key ("ns:key") and params. */
export class PermanentJobError extends Error {
  constructor(
    public messageKey: string,
    public params?: Record<string, unknown>,
  ) {
    super(messageKey);
    this.name = "PermanentJobError";
  }
}

/** The job is no longer this worker's (its lease ran out and another worker claimed it, or it was finished already). */
export class JobLeaseLost extends Error {
  constructor(jobId: number) {
    super(`Job ${jobId}: the lease is lost`);
    this.name = "JobLeaseLost";
  }
}

/** The worker is stopping: the job goes back to the queue, and this attempt does not count. */
export class JobInterrupted extends Error {
  constructor(jobId: number) {
    super(`Job ${jobId}: interrupted by the worker stopping`);
    this.name = "JobInterrupted";
  }
}

/** What a user may see of a job (never the operator's error detail). */
export interface JobView {
  id: number;
  type: string;
  status: JobStatus;
  progressDone: number;
  progressTotal: number | null;
  attempts: number;
  maxAttempts: number;
  /** The handler's `finish` return value, parsed. */
  result: unknown;
  /** Why it failed, as a message key ("ns:key") and its params; null unless failed. */
  error: { key: string; params: Record<string, unknown> } | null;
  createdAt: string;
  runAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** A recurring job, declared in code and upserted into job_schedules by the worker at start. */
export interface Schedule {
  /** Unique; the row's key. */
  name: string;
  /** Every N minutes. */
  every?: number;
  /** Daily at 'HH:MM', Europe/Oslo wall-clock time. */
  dailyAt?: string;
  type: string;
  payload?: unknown;
  organizationId?: number | null;
}
