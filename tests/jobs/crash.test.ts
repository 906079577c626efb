import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { db } from "@server/db";
import { enqueueJob } from "@server/jobs/queue";
import { until } from "../helpers/until";

/**
 * kill -9 in the middle of a job: a real worker process (tests/jobs/crash-child.ts) is killed with SIGKILL while its job is half
 * done; a second worker process takes the job over when the lease (1 s here) runs out, and the job ends done once, its marker
 * written once, no item written twice.
 */

const CHILD = path.resolve("tests/jobs/crash-child.ts");
const children: ChildProcess[] = [];

function startChild(name: string): { child: ChildProcess; output: () => string; exited: Promise<NodeJS.Signals | number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], {
    env: { ...process.env, DATABASE_FILE: process.env.DATABASE_FILE, LEASE_MS: "1000" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += `[${name}] ${chunk}`));
  child.stderr!.on("data", (chunk) => (output += `[${name} stderr] ${chunk}`));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)));
  return { child, output: () => output, exited };
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

const job = (id: number) => db().selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

it("a worker killed with SIGKILL mid-job: another worker finishes the job exactly once, with no duplicate rows", async () => {
  await sql`create table crash_rows (job_id integer not null, item integer not null, attempt integer not null)`.execute(db());
  await sql`create table crash_markers (job_id integer not null)`.execute(db());
  const TOTAL = 200;
  const id = await enqueueJob(db(), { type: "crash-rows", organizationId: null, userId: null, payload: { total: TOTAL, delayMs: 15 } });

  const first = startChild("first");
  const midway = await until(
    () => job(id),
    (j) => j.status === "running" && j.progress_done > 0,
    10_000,
    first.output,
  );
  first.child.kill("SIGKILL");
  expect(await first.exited).toBe("SIGKILL");
  const killed = await job(id);
  expect(killed).toMatchObject({ status: "running", attempts: 1 });
  expect(midway.progress_done).toBeLessThan(TOTAL);
  const rowsAtKill = (await sql<{ n: number }>`select count(*) as n from crash_rows`.execute(db())).rows[0].n;
  expect(rowsAtKill).toBeGreaterThan(0);
  expect(rowsAtKill).toBeLessThan(TOTAL);

  const second = startChild("second");
  const done = await until(
    () => job(id),
    (j) => j.status === "done" || j.status === "failed",
    15_000,
    second.output,
  );
  second.child.kill("SIGTERM");
  expect(await second.exited).toBe(0);

  expect(done).toMatchObject({ status: "done", attempts: 2, progress_done: TOTAL, progress_total: TOTAL, result: JSON.stringify({ rows: TOTAL }) });
  expect((await sql`select job_id from crash_markers`.execute(db())).rows).toEqual([{ job_id: id }]);
  const items = (
    await sql<{ item: number; n: number }>`select item, count(*) as n from crash_rows where job_id = ${id} group by item order by item`.execute(db())
  ).rows;
  expect(items.map((r) => r.item)).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
  expect(items.filter((r) => r.n !== 1)).toEqual([]);
  // Both processes wrote some of the rows: the second resumed where the first was killed.
  const byAttempt = (await sql<{ attempt: number; n: number }>`select attempt, count(*) as n from crash_rows group by attempt order by attempt`.execute(db()))
    .rows;
  expect(byAttempt).toEqual([
    { attempt: 1, n: rowsAtKill },
    { attempt: 2, n: TOTAL - rowsAtKill },
  ]);
  expect(second.output()).toMatch(new RegExp(`job ${id} crash-rows \\(attempt 2/5\\): done in`));
}, 30_000);
