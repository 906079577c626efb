import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import {
  backoffMs,
  claimNext,
  enqueueJob,
  failJob,
  finishJob,
  heartbeat,
  JOB_FAILED_KEY,
  jobForUser,
  listJobsForUser,
  pruneFinishedJobs,
  writeProgress,
  type Clock,
} from "@server/jobs/queue";
import { JobLeaseLost, PermanentJobError } from "@server/jobs/types";
import { makeOrg } from "../helpers/fixtures";
import { createUser } from "../helpers/factory";

const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const at =
  (ms: number): Clock =>
  () =>
    ms;

async function makeUser(email: string, organizationId: number): Promise<number> {
  return createUser({ email, organizationId, createdAt: "2026-01-01T00:00:00.000Z" });
}

const row = (id: number) => db().selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

let orgA: number;
let orgB: number;
let userA: number;
let userA2: number;
let userB: number;

beforeAll(async () => {
  orgA = await makeOrg("Queue Org A", "customer");
  orgB = await makeOrg("Queue Org B", "customer");
  userA = await makeUser("queue-a@example.com", orgA);
  userA2 = await makeUser("queue-a2@example.com", orgA);
  userB = await makeUser("queue-b@example.com", orgB);
});

describe("enqueue, claim, finish", () => {
  it("claims a due job once, under a lease, and finishes it with the result and the handler's writes in one transaction", async () => {
    const id = await enqueueJob(db(), { type: "q-basic", organizationId: orgA, userId: userA, payload: { rows: 3 } }, at(T0));
    expect(await row(id)).toMatchObject({ status: "queued", attempts: 0, max_attempts: 5, payload: '{"rows":3}', run_at: new Date(T0).toISOString() });

    // Not yet due a second before run_at; of another type never.
    expect(await claimNext(db(), { workerId: "w1", leaseMs: 30_000, types: ["q-basic"], clock: at(T0 - 1000) })).toBeUndefined();
    expect(await claimNext(db(), { workerId: "w1", leaseMs: 30_000, types: ["q-other"], clock: at(T0) })).toBeUndefined();

    const job = (await claimNext(db(), { workerId: "w1", leaseMs: 30_000, types: ["q-basic"], clock: at(T0) }))!;
    expect(job).toMatchObject({ id, type: "q-basic", organizationId: orgA, userId: userA, payload: { rows: 3 }, attempt: 1 });
    expect(await row(id)).toMatchObject({ status: "running", attempts: 1, locked_by: "w1", lease_until: new Date(T0 + 30_000).toISOString() });
    // Running under a live lease: nobody else gets it.
    expect(await claimNext(db(), { workerId: "w2", leaseMs: 30_000, types: ["q-basic"], clock: at(T0 + 1000) })).toBeUndefined();

    await sql`create table q_effects (job_id integer not null, note text not null)`.execute(db());
    const result = await finishJob(
      db(),
      job.lease,
      async (trx) => {
        await sql`insert into q_effects (job_id, note) values (${id}, 'written')`.execute(trx);
        return { imported: 3 };
      },
      at(T0 + 2000),
    );
    expect(result).toEqual({ imported: 3 });
    expect(await row(id)).toMatchObject({ status: "done", result: '{"imported":3}', locked_by: null, finished_at: new Date(T0 + 2000).toISOString() });
    expect((await sql`select count(*) as n from q_effects`.execute(db())).rows).toEqual([{ n: 1 }]);

    // A second finish of the same claim is refused and writes nothing.
    await expect(
      finishJob(db(), job.lease, async (trx) => sql`insert into q_effects (job_id, note) values (${id}, 'again')`.execute(trx)),
    ).rejects.toBeInstanceOf(JobLeaseLost);
    expect((await sql`select count(*) as n from q_effects`.execute(db())).rows).toEqual([{ n: 1 }]);
  });

  it("a job whose lease ran out is claimed again by another worker; the first worker's heartbeat, progress and finish are then refused", async () => {
    const id = await enqueueJob(db(), { type: "q-lease", organizationId: null, userId: null, payload: null }, at(T0));
    const first = (await claimNext(db(), { workerId: "dead", leaseMs: 1000, types: ["q-lease"], clock: at(T0) }))!;
    expect(await heartbeat(db(), first.lease, 1000, at(T0 + 500))).toBe(true);
    expect((await row(id)).lease_until).toBe(new Date(T0 + 1500).toISOString());
    expect(await claimNext(db(), { workerId: "second", leaseMs: 1000, types: ["q-lease"], clock: at(T0 + 1400) })).toBeUndefined();

    const second = (await claimNext(db(), { workerId: "second", leaseMs: 1000, types: ["q-lease"], clock: at(T0 + 1501) }))!;
    expect(second).toMatchObject({ id, attempt: 2 });
    expect(await heartbeat(db(), first.lease, 1000, at(T0 + 1600))).toBe(false);
    expect(await writeProgress(db(), first.lease, { done: 5, total: 10 }, 1000, at(T0 + 1600))).toBe(false);
    await expect(finishJob(db(), first.lease, async () => "stale")).rejects.toBeInstanceOf(JobLeaseLost);

    expect(await writeProgress(db(), second.lease, { done: 7, total: 10 }, 1000, at(T0 + 1700))).toBe(true);
    expect(await row(id)).toMatchObject({ progress_done: 7, progress_total: 10, heartbeat_at: new Date(T0 + 1700).toISOString(), locked_by: "second" });
    await finishJob(db(), second.lease, async () => "fresh");
    expect(await row(id)).toMatchObject({ status: "done", attempts: 2, result: '"fresh"' });
  });

  it("a job whose worker died on every attempt is failed when its last lease runs out, not run again", async () => {
    const id = await enqueueJob(db(), { type: "q-crashy", organizationId: null, userId: null, payload: null, maxAttempts: 2 }, at(T0));
    await claimNext(db(), { workerId: "a", leaseMs: 1000, types: ["q-crashy"], clock: at(T0) });
    await claimNext(db(), { workerId: "b", leaseMs: 1000, types: ["q-crashy"], clock: at(T0 + 2000) });
    expect(await claimNext(db(), { workerId: "c", leaseMs: 1000, types: ["q-crashy"], clock: at(T0 + 4000) })).toBeUndefined();
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 3, error_key: JOB_FAILED_KEY });
    expect((await row(id)).error_detail).toMatch(/each of its 2 attempts/);
  });
});

describe("failures", () => {
  it("backs off 5 s · 4^(attempt-1), capped at one hour", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(backoffMs)).toEqual([5_000, 20_000, 80_000, 320_000, 1_280_000, 3_600_000, 3_600_000]);
  });

  it("a failed attempt is queued again after the backoff; the last one fails the job with the generic message and the error in the detail", async () => {
    const id = await enqueueJob(db(), { type: "q-fail", organizationId: orgA, userId: userA, payload: null, maxAttempts: 2 }, at(T0));
    const first = (await claimNext(db(), { workerId: "w", leaseMs: 30_000, types: ["q-fail"], clock: at(T0) }))!;
    expect(await failJob(db(), first.lease, new Error("disk on fire"), { maxAttempts: 2, clock: at(T0 + 100) })).toEqual({
      outcome: "retry",
      runAt: new Date(T0 + 100 + 5_000).toISOString(),
    });
    expect(await row(id)).toMatchObject({ status: "queued", attempts: 1, locked_by: null, run_at: new Date(T0 + 5_100).toISOString() });
    expect((await row(id)).error_detail).toMatch(/^Error: disk on fire/);
    expect(await claimNext(db(), { workerId: "w", leaseMs: 30_000, types: ["q-fail"], clock: at(T0 + 5_000) })).toBeUndefined();

    const second = (await claimNext(db(), { workerId: "w", leaseMs: 30_000, types: ["q-fail"], clock: at(T0 + 5_100) }))!;
    expect(await failJob(db(), second.lease, new Error("still on fire"), { maxAttempts: 2, clock: at(T0 + 6_000) })).toEqual({ outcome: "failed" });
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 2, error_key: JOB_FAILED_KEY, finished_at: new Date(T0 + 6_000).toISOString() });
    expect((await row(id)).error_detail).toMatch(/still on fire/);
    const view = await jobForUser(db(), { organizationId: orgA, userId: userA, id });
    expect(view).toMatchObject({ status: "failed", error: { key: JOB_FAILED_KEY, params: {} } });
    expect(JSON.stringify(view)).not.toMatch(/fire/);
  });

  it("a PermanentJobError fails the job at once with its message key and params", async () => {
    const id = await enqueueJob(db(), { type: "q-perm", organizationId: orgA, userId: userA, payload: null }, at(T0));
    const job = (await claimNext(db(), { workerId: "w", leaseMs: 30_000, types: ["q-perm"], clock: at(T0) }))!;
    const outcome = await failJob(db(), job.lease, new PermanentJobError("files:analysis.notASpreadsheet", { fileName: "x.xlsx" }), {
      maxAttempts: 5,
      clock: at(T0),
    });
    expect(outcome).toEqual({ outcome: "failed" });
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 1, error_key: "files:analysis.notASpreadsheet", error_params: '{"fileName":"x.xlsx"}' });
    expect((await jobForUser(db(), { organizationId: orgA, userId: userA, id }))!.error).toEqual({
      key: "files:analysis.notASpreadsheet",
      params: { fileName: "x.xlsx" },
    });
  });
});

describe("a user's jobs", () => {
  it("jobForUser and listJobsForUser show a job only to the user who started it, in its organisation", async () => {
    const mine = await enqueueJob(db(), { type: "q-scope", organizationId: orgA, userId: userA, payload: { secret: 1 } }, at(T0));
    const colleagues = await enqueueJob(db(), { type: "q-scope", organizationId: orgA, userId: userA2, payload: null }, at(T0 + 1));
    const system = await enqueueJob(db(), { type: "q-scope", organizationId: null, userId: null, payload: null }, at(T0 + 2));
    const others = await enqueueJob(db(), { type: "q-scope", organizationId: orgB, userId: userB, payload: null }, at(T0 + 3));

    expect(await jobForUser(db(), { organizationId: orgA, userId: userA, id: mine })).toMatchObject({
      id: mine,
      type: "q-scope",
      status: "queued",
      progressDone: 0,
      progressTotal: null,
      result: null,
      error: null,
    });
    expect(await jobForUser(db(), { organizationId: orgA, userId: userA, id: colleagues })).toBeUndefined();
    expect(await jobForUser(db(), { organizationId: orgA, userId: userA, id: system })).toBeUndefined();
    expect(await jobForUser(db(), { organizationId: orgA, userId: userA, id: others })).toBeUndefined();
    // The other organisation's user, and the same user id under another organisation id.
    expect(await jobForUser(db(), { organizationId: orgB, userId: userB, id: mine })).toBeUndefined();
    expect(await jobForUser(db(), { organizationId: orgB, userId: userA, id: mine })).toBeUndefined();
    expect(await jobForUser(db(), { organizationId: orgA, userId: userA, id: 999_999 })).toBeUndefined();

    const list = await listJobsForUser(db(), { organizationId: orgA, userId: userA, type: "q-scope" });
    expect(list.map((j) => j.id)).toEqual([mine]);
    expect((await listJobsForUser(db(), { organizationId: orgB, userId: userB })).map((j) => j.id)).toEqual([others]);
  });
});

describe("pruneFinishedJobs", () => {
  it("removes done jobs after 30 days and failed ones after 90, never queued or running ones", async () => {
    const day = 86_400_000;
    const make = async (type: string, status: "queued" | "running" | "done" | "failed", finishedDaysAgo: number | null) => {
      const id = await enqueueJob(db(), { type, organizationId: null, userId: null, payload: {} }, at(T0 - 200 * day));
      await db()
        .updateTable("jobs")
        .set({ status, finished_at: finishedDaysAgo == null ? null : new Date(T0 - finishedDaysAgo * day).toISOString() })
        .where("id", "=", id)
        .execute();
      return id;
    };
    const kept = [
      await make("prune.done-recent", "done", 29),
      await make("prune.failed-recent", "failed", 89),
      await make("prune.queued-old", "queued", null),
      await make("prune.running-old", "running", null),
    ];
    const gone = [await make("prune.done-old", "done", 31), await make("prune.failed-old", "failed", 91)];
    expect(await pruneFinishedJobs(db(), at(T0))).toBeGreaterThanOrEqual(2);
    const left = (
      await db()
        .selectFrom("jobs")
        .select("id")
        .where("id", "in", [...kept, ...gone])
        .execute()
    ).map((r) => r.id);
    expect(left.sort()).toEqual(kept.sort());
  });
});
