import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { db } from "@server/db";
import { saveFile } from "@server/storage";
import { createImport } from "~/models/files/supplier-imports.server";
import { company, makeOrg } from "../helpers/fixtures";
import { until } from "../helpers/until";
import { createUser } from "../helpers/factory";

/**
 * kill -9 in the middle of an analysis: a real worker process running the supplier-analysis handler is killed with
 * SIGKILL while the lines are half written; a second worker takes the job over when the lease (1 s) runs out, and the
 * import ends ready once: every line once, one result file, the job done after two attempts.
 */

const CHILD = path.resolve("tests/imports/analysis-child.ts");
const children: ChildProcess[] = [];
const LINES = 30_000;

function startChild(name: string) {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], {
    env: { ...process.env, LEASE_MS: "1000" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += `[${name}] ${chunk}`));
  child.stderr!.on("data", (chunk) => (output += `[${name} stderr] ${chunk}`));
  return { child, output: () => output };
}

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

it("a worker killed with SIGKILL mid-analysis: the next one finishes the import once", async () => {
  const orgId = await makeOrg("Crash Importer AS", "customer");
  const user = { id: await createUser({ email: "crash@example.com", organizationId: orgId, accessLevel: 2, createdAt: "2025-01-01T00:00:00.000Z" }) };
  await company("832175692", "WAYS AS");
  const lines = ["Orgnr;Navn"];
  for (let i = 0; i < LINES; i++) lines.push(i % 2 ? `832175692;WAYS AS` : `${100000000 + i};Line ${i}`);
  const file = await saveFile(Buffer.from(lines.join("\r\n")), { fileName: "big.csv", mimeType: "text/csv", organizationId: orgId, userId: user.id });
  const { importId, jobId } = await createImport({
    organizationId: orgId,
    userId: user.id,
    fileId: file.id,
    mapping: { orgId: 0, orgName: 1, countryCode: null, hasHeaders: true, sheet: 0 },
  });
  const job = () => db().selectFrom("jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();

  const first = startChild("first");
  const rowsNow = async () =>
    Number(
      (
        await db()
          .selectFrom("supplier_import_rows")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("import_id", "=", importId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  // Some lines written, far from all: kill it there.
  await until(rowsNow, (n) => n >= 1000, 30_000, first.output);
  first.child.kill("SIGKILL");
  await new Promise((resolve) => first.child.once("exit", resolve));
  const half = await rowsNow();
  expect(half).toBeLessThan(LINES);
  expect((await job()).status).toBe("running");

  const second = startChild("second");
  const done = await until(
    job,
    (j) => j.status === "done" || j.status === "failed",
    60_000,
    () => first.output() + second.output(),
  );
  expect(done.status, second.output()).toBe("done");
  expect(done.attempts).toBe(2);

  const imp = await db().selectFrom("supplier_imports").selectAll().where("id", "=", importId).executeTakeFirstOrThrow();
  expect(imp.status).toBe("ready");
  const counts = JSON.parse(imp.counts!);
  expect(counts).toMatchObject({ total: LINES, matched: 1, duplicate: LINES / 2 - 1 });
  // The other half: numbers the registry does not have, most of them with a wrong check digit.
  expect(counts.invalid + counts.not_found).toBe(LINES / 2);
  expect(await rowsNow()).toBe(LINES);
  const results = await db().selectFrom("file_uploads").select("id").where("user_id", "=", user.id).where("file_name", "like", "big – analysis%").execute();
  expect(results).toEqual([{ id: imp.result_file_id }]);
  second.child.kill("SIGTERM");
}, 120_000);
