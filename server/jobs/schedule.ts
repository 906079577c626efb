import type { Kysely } from "kysely";
import type { DB } from "../db-types";
import { OSLO_TIME_ZONE, osloInstant, osloParts } from "~/models/shared/oslo-time";
import { enqueueJob, systemClock, type Clock } from "./queue";
import type { Schedule } from "./types";

export type { Schedule } from "./types";

/** Daily times are wall-clock times in Norway, where the product's users are (docs/decisions/016). */
export const SCHEDULE_TIME_ZONE = OSLO_TIME_ZONE;

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function validateSchedule(schedule: Schedule): void {
  const hasEvery = schedule.every !== undefined;
  const hasDaily = schedule.dailyAt !== undefined;
  if (!schedule.name) throw new Error("A schedule needs a name");
  if (hasEvery === hasDaily) throw new Error(`Schedule ${schedule.name}: give exactly one of every (minutes) and dailyAt ('HH:MM')`);
  if (hasEvery && !(Number.isInteger(schedule.every) && schedule.every! >= 1)) throw new Error(`Schedule ${schedule.name}: every must be whole minutes ≥ 1`);
  if (hasDaily && !HH_MM.test(schedule.dailyAt!)) throw new Error(`Schedule ${schedule.name}: dailyAt must be 'HH:MM' (00:00–23:59)`);
}

/** The first run strictly after `afterMs`: the next HH:MM on Oslo's clock. */
export function nextDailyRun(atTime: string, afterMs: number): number {
  const [, hh, mm] = HH_MM.exec(atTime)!;
  const today = osloParts(afterMs);
  for (let addDays = 0; addDays < 3; addDays++) {
    // Date.UTC rolls day 32 over into the next month; only the calendar date is read back from it.
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + addDays));
    const candidate = osloInstant(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), +hh, +mm);
    if (candidate > afterMs) return candidate;
  }
  throw new Error(`No next run for ${atTime}`);
}

/**
 * The next run of an "every N minutes" schedule after `nowMs`, kept on the grid of its previous due time: a run missed while the
 * server was down is run once (now), never once per missed interval.
 */
export function nextEveryRun(everyMinutes: number, previousDueMs: number, nowMs: number): number {
  const step = everyMinutes * MINUTE;
  if (previousDueMs > nowMs) return previousDueMs;
  return previousDueMs + (Math.floor((nowMs - previousDueMs) / step) + 1) * step;
}

function firstRun(schedule: Schedule, nowMs: number): number {
  return schedule.every !== undefined ? nowMs + schedule.every * MINUTE : nextDailyRun(schedule.dailyAt!, nowMs);
}

/**
 * Writes the code's schedules into job_schedules (the worker does this at start). A new schedule's first run is one interval from
 * now, or the next HH:MM; a schedule whose timing changed gets a new next run; one that did not keeps its next run (and so a run due
 * during downtime happens at start).
 */
export async function upsertSchedules(db: Kysely<DB>, schedules: Schedule[], clock: Clock = systemClock): Promise<void> {
  schedules.forEach(validateSchedule);
  const names = new Set<string>();
  for (const s of schedules) {
    if (names.has(s.name)) throw new Error(`Schedule ${s.name} is declared twice`);
    names.add(s.name);
  }
  const nowMs = clock();
  const now = iso(nowMs);
  await db.transaction().execute(async (trx) => {
    for (const schedule of schedules) {
      const kind = schedule.every !== undefined ? "every" : "daily";
      const fields = {
        kind,
        every_minutes: schedule.every ?? null,
        at_time: schedule.dailyAt ?? null,
        type: schedule.type,
        payload: JSON.stringify(schedule.payload ?? null),
        organization_id: schedule.organizationId ?? null,
        updated_at: now,
      } as const;
      const existing = await trx
        .selectFrom("job_schedules")
        .select(["id", "kind", "every_minutes", "at_time"])
        .where("name", "=", schedule.name)
        .executeTakeFirst();
      if (!existing) {
        await trx
          .insertInto("job_schedules")
          .values({ name: schedule.name, ...fields, next_run_at: iso(firstRun(schedule, nowMs)), created_at: now })
          .execute();
        continue;
      }
      const timingChanged = existing.kind !== kind || existing.every_minutes !== fields.every_minutes || existing.at_time !== fields.at_time;
      await trx
        .updateTable("job_schedules")
        .set(timingChanged ? { ...fields, next_run_at: iso(firstRun(schedule, nowMs)) } : fields)
        .where("id", "=", existing.id)
        .execute();
    }
  });
}

/**
 * Enqueues a job for each of the named schedules that is due, and moves its next run on. At most one job per schedule is queued or
 * running: while the last one is, a due run is skipped (moved to the next time). Two workers cannot both enqueue one run: the move is
 * an UPDATE guarded by the next run it read, done first in the transaction. Returns the ids of the jobs enqueued.
 */
export async function enqueueDueSchedules(db: Kysely<DB>, names: string[], clock: Clock = systemClock): Promise<number[]> {
  if (names.length === 0) return [];
  const nowMs = clock();
  const now = iso(nowMs);
  const due = await db.selectFrom("job_schedules").selectAll().where("name", "in", names).where("next_run_at", "<=", now).orderBy("next_run_at").execute();
  const enqueued: number[] = [];
  for (const schedule of due) {
    const next =
      schedule.kind === "every" && schedule.every_minutes
        ? nextEveryRun(schedule.every_minutes, Date.parse(schedule.next_run_at), nowMs)
        : nextDailyRun(schedule.at_time ?? "00:00", nowMs);
    const jobId = await db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable("job_schedules")
        .set({ next_run_at: iso(next), updated_at: now })
        .where("id", "=", schedule.id)
        .where("next_run_at", "=", schedule.next_run_at)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return undefined;
      if (schedule.last_job_id !== null) {
        const last = await trx.selectFrom("jobs").select("status").where("id", "=", schedule.last_job_id).executeTakeFirst();
        if (last && (last.status === "queued" || last.status === "running")) return undefined;
      }
      const id = await enqueueJob(
        trx,
        { type: schedule.type, organizationId: schedule.organization_id, userId: null, payload: JSON.parse(schedule.payload) as unknown },
        () => nowMs,
      );
      await trx.updateTable("job_schedules").set({ last_job_id: id, last_run_at: now }).where("id", "=", schedule.id).execute();
      return id;
    });
    if (jobId !== undefined) enqueued.push(jobId);
  }
  return enqueued;
}
