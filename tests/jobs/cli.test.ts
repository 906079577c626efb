import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { jobsOfBuild } from "@server/jobs/from-build";
import { enqueueJob } from "@server/jobs/queue";

const buildWith = (module: Record<string, unknown>) => ({ entry: { module } }) as unknown as ServerBuild;

describe("the handlers reach the worker through the server build", () => {
  it("reads jobHandlers and jobSchedules from entry.server, and says when there are no handlers", () => {
    const handler = async () => {};
    expect(jobsOfBuild(buildWith({ jobHandlers: { a: handler } }))).toEqual({ handlers: { a: handler }, schedules: [], missing: false });
    expect(jobsOfBuild(buildWith({}))).toEqual({ handlers: {}, schedules: [], missing: true });
    const schedules = [{ name: "nightly", dailyAt: "02:00", type: "a" }];
    expect(jobsOfBuild(buildWith({ jobHandlers: { a: handler }, jobSchedules: schedules })).schedules).toEqual(schedules);
    expect(() => jobsOfBuild(buildWith({ jobHandlers: { a: "not a function" } }))).toThrow(/object of functions/);
    expect(() => jobsOfBuild(buildWith({ jobHandlers: {}, jobSchedules: [{ name: "x", type: "a" }] }))).toThrow(/exactly one/);
  });

  it("npm run worker (server/cli/worker.ts) runs the build's handlers until SIGTERM, then stops cleanly", async () => {
    // A stand-in for build/server/index.js: an entry module that exports jobHandlers.
    const buildDir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, "build-"));
    fs.mkdirSync(path.join(buildDir, "server"));
    fs.writeFileSync(
      path.join(buildDir, "server/index.js"),
      `export const entry = { module: { jobHandlers: { "cli-echo": async (ctx) => { await ctx.finish(async () => ({ echo: ctx.job.payload })); } } } };\n`,
    );
    const id = await enqueueJob(db(), { type: "cli-echo", organizationId: null, userId: null, payload: "hello" });
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("server/cli/worker.ts")], {
      env: { ...process.env, BUILD_DIR: buildDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

    let status = "queued";
    for (let i = 0; i < 300 && status !== "done"; i++) {
      await sleep(25);
      status = (await db().selectFrom("jobs").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;
    }
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(status).toBe("done");
    expect((await db().selectFrom("jobs").select("result").where("id", "=", id).executeTakeFirstOrThrow()).result).toBe('{"echo":"hello"}');
    expect(output).toMatch(/job types cli-echo/);
    expect(output).toMatch(new RegExp(`job ${id} cli-echo \\(attempt 1/5\\): done in`));
    expect(output).toMatch(/SIGTERM: stopping the worker/);
  }, 20_000);
});
