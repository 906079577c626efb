import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { claimNext, finishJob, type Clock } from "@server/jobs/queue";
import { enqueueDueSchedules, nextDailyRun, nextEveryRun, upsertSchedules, validateSchedule } from "@server/jobs/schedule";
import { startWorker } from "@server/jobs/worker";

const ms = (text: string) => Date.parse(text);
const iso = (n: number) => new Date(n).toISOString();

/** A clock the test moves by hand. */
function manualClock(start: string) {
  let now = ms(start);
  const clock: Clock = () => now;
  return { clock, set: (text: string) => (now = ms(text)) };
}

const schedule = (name: string) => db().selectFrom("job_schedules").selectAll().where("name", "=", name).executeTakeFirstOrThrow();
const jobsOf = (type: string) => db().selectFrom("jobs").selectAll().where("type", "=", type).orderBy("id").execute();

async function completeAll(type: string, clock: Clock) {
  for (;;) {
    const job = await claimNext(db(), { workerId: "t", leaseMs: 60_000, types: [type], clock });
    if (!job) return;
    await finishJob(db(), job.lease, async () => null, clock);
  }
}

describe("daily times on Oslo's clock", () => {
  it.each([
    // Winter (UTC+1) and summer (UTC+2).
    ["07:00", "2026-01-15T05:00:00.000Z", "2026-01-15T06:00:00.000Z"],
    ["07:00", "2026-01-15T06:00:00.000Z", "2026-01-16T06:00:00.000Z"],
    ["07:00", "2026-07-15T04:59:00.000Z", "2026-07-15T05:00:00.000Z"],
    ["00:30", "2026-07-15T23:00:00.000Z", "2026-07-16T22:30:00.000Z"],
    // Across the end of a month and a year.
    ["23:59", "2026-12-31T23:00:00.000Z", "2027-01-01T22:59:00.000Z"],
    // The spring change (29 March 2026, 02:00 → 03:00): the day before is winter time, the day after summer time.
    ["06:00", "2026-03-28T12:00:00.000Z", "2026-03-29T04:00:00.000Z"],
    ["06:00", "2026-03-29T04:00:00.000Z", "2026-03-30T04:00:00.000Z"],
    // A time the spring change skips runs an hour later that day (03:30 summer time).
    ["02:30", "2026-03-29T00:00:00.000Z", "2026-03-29T01:30:00.000Z"],
    // The autumn change (25 October 2026, 03:00 → 02:00).
    ["06:00", "2026-10-24T12:00:00.000Z", "2026-10-25T05:00:00.000Z"],
  ])("%s after %s is %s", (at, after, expected) => {
    expect(iso(nextDailyRun(at, ms(after)))).toBe(expected);
  });

  it("keeps an every-N-minutes schedule on its grid and skips the runs missed in downtime", () => {
    const due = ms("2026-01-01T10:00:00.000Z");
    expect(iso(nextEveryRun(15, due, due))).toBe("2026-01-01T10:15:00.000Z");
    expect(iso(nextEveryRun(15, due, due + 20_000))).toBe("2026-01-01T10:15:00.000Z");
    expect(iso(nextEveryRun(15, due, ms("2026-01-01T13:07:00.000Z")))).toBe("2026-01-01T13:15:00.000Z");
  });

  it("refuses a schedule with both or neither timing, a bad time or a bad interval", () => {
    expect(() => validateSchedule({ name: "x", type: "t" })).toThrow(/exactly one/);
    expect(() => validateSchedule({ name: "x", type: "t", every: 5, dailyAt: "07:00" })).toThrow(/exactly one/);
    expect(() => validateSchedule({ name: "x", type: "t", dailyAt: "24:00" })).toThrow(/HH:MM/);
    expect(() => validateSchedule({ name: "x", type: "t", dailyAt: "7:00" })).toThrow(/HH:MM/);
    expect(() => validateSchedule({ name: "x", type: "t", every: 0 })).toThrow(/minutes/);
    expect(() => validateSchedule({ name: "x", type: "t", every: 1.5 })).toThrow(/minutes/);
  });
});

describe("schedules enqueue jobs", () => {
  it("every N minutes: one job per due time, none while the last is queued or running, and one (not N) after downtime", async () => {
    const t = manualClock("2026-02-02T08:00:00.000Z");
    await upsertSchedules(db(), [{ name: "s-every", every: 10, type: "s-every-job", payload: { kind: "digest" } }], t.clock);
    expect(await schedule("s-every")).toMatchObject({ kind: "every", every_minutes: 10, next_run_at: "2026-02-02T08:10:00.000Z", last_job_id: null });

    t.set("2026-02-02T08:09:59.000Z");
    expect(await enqueueDueSchedules(db(), ["s-every"], t.clock)).toEqual([]);

    t.set("2026-02-02T08:10:00.000Z");
    const [first] = await enqueueDueSchedules(db(), ["s-every"], t.clock);
    expect(first).toBeGreaterThan(0);
    expect(await schedule("s-every")).toMatchObject({ next_run_at: "2026-02-02T08:20:00.000Z", last_job_id: first, last_run_at: "2026-02-02T08:10:00.000Z" });
    expect(await jobsOf("s-every-job")).toMatchObject([{ id: first, status: "queued", payload: '{"kind":"digest"}', organization_id: null, user_id: null }]);
    // Asked again at the same time (a second worker): nothing more.
    expect(await enqueueDueSchedules(db(), ["s-every"], t.clock)).toEqual([]);

    // Due again while the first job still waits: skipped, moved on.
    t.set("2026-02-02T08:20:30.000Z");
    expect(await enqueueDueSchedules(db(), ["s-every"], t.clock)).toEqual([]);
    expect((await schedule("s-every")).next_run_at).toBe("2026-02-02T08:30:00.000Z");
    await completeAll("s-every-job", t.clock);

    // Down for five hours: one run at start, then back on the grid.
    t.set("2026-02-02T13:34:00.000Z");
    expect(await enqueueDueSchedules(db(), ["s-every"], t.clock)).toHaveLength(1);
    expect((await schedule("s-every")).next_run_at).toBe("2026-02-02T13:40:00.000Z");
    expect(await enqueueDueSchedules(db(), ["s-every"], t.clock)).toEqual([]);
    expect(await jobsOf("s-every-job")).toHaveLength(2);

    // A schedule not among the names given (no longer in the code) is left alone.
    t.set("2026-02-02T15:00:00.000Z");
    await completeAll("s-every-job", t.clock);
    expect(await enqueueDueSchedules(db(), ["s-other"], t.clock)).toEqual([]);
  });

  it("daily at HH:MM: runs once a day, once after days of downtime, and keeps its next run when the worker restarts unchanged", async () => {
    const t = manualClock("2026-05-04T10:00:00.000Z"); // 12:00 in Oslo
    const daily = { name: "s-daily", dailyAt: "06:30", type: "s-daily-job", organizationId: null };
    await upsertSchedules(db(), [daily], t.clock);
    expect(await schedule("s-daily")).toMatchObject({ kind: "daily", at_time: "06:30", next_run_at: "2026-05-05T04:30:00.000Z" });

    t.set("2026-05-05T04:30:00.000Z");
    expect(await enqueueDueSchedules(db(), ["s-daily"], t.clock)).toHaveLength(1);
    expect((await schedule("s-daily")).next_run_at).toBe("2026-05-06T04:30:00.000Z");
    await completeAll("s-daily-job", t.clock);

    // The server is down from the 5th to the 9th at noon, then restarts: the schedule keeps its overdue next run, runs once.
    t.set("2026-05-09T10:00:00.000Z");
    await upsertSchedules(db(), [daily], t.clock);
    expect((await schedule("s-daily")).next_run_at).toBe("2026-05-06T04:30:00.000Z");
    expect(await enqueueDueSchedules(db(), ["s-daily"], t.clock)).toHaveLength(1);
    expect(await enqueueDueSchedules(db(), ["s-daily"], t.clock)).toEqual([]);
    expect((await schedule("s-daily")).next_run_at).toBe("2026-05-10T04:30:00.000Z");
    expect(await jobsOf("s-daily-job")).toHaveLength(2);

    // Its time changed in the code: the next run follows the new time.
    await upsertSchedules(db(), [{ ...daily, dailyAt: "18:00" }], t.clock);
    expect(await schedule("s-daily")).toMatchObject({ at_time: "18:00", next_run_at: "2026-05-09T16:00:00.000Z" });
  });

  it("the worker writes its schedules at start and enqueues and runs their jobs", async () => {
    const ran: unknown[] = [];
    const w = startWorker({
      db: db(),
      handlers: { "s-worker-job": async (ctx) => void ran.push(ctx.job.payload) },
      schedules: [{ name: "s-worker", every: 1, type: "s-worker-job", payload: "tick" }],
      pollMs: 20,
      log: () => {},
    });
    // A new schedule's first run is one interval after it is written; make it due now.
    for (let i = 0; i < 50 && !(await db().selectFrom("job_schedules").select("id").where("name", "=", "s-worker").executeTakeFirst()); i++) await sleep(20);
    await db()
      .updateTable("job_schedules")
      .set({ next_run_at: iso(Date.now() - 1000) })
      .where("name", "=", "s-worker")
      .execute();
    for (let i = 0; i < 100 && ran.length === 0; i++) await sleep(20);
    await w.stop();
    expect(ran).toEqual(["tick"]);
    expect(await jobsOf("s-worker-job")).toMatchObject([{ status: "done" }]);
  });
});
