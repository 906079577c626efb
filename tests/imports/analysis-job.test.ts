import fs from "node:fs";
import path from "node:path";
import readXlsxFile from "read-excel-file/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobStore } from "@server/blob-store";
import { db } from "@server/db";
import { jobForUser } from "@server/jobs/queue";
import { startWorker, type Worker } from "@server/jobs/worker";
import { saveFile } from "@server/storage";
import { supplierAnalysis } from "~/models/files/supplier-analysis-job.server";
import { createImport, getImport, importRows, type ImportMapping } from "~/models/files/supplier-imports.server";
import { company, follow, makeOrg } from "../helpers/fixtures";
import { createUser } from "../helpers/factory";

const FIXTURES = path.resolve("tests/fixtures/spreadsheets");
const AT = "2025-01-01T00:00:00.000Z";
let orgId: number;
let userId: number;
let worker: Worker;

async function upload(fixture: string, name = fixture): Promise<number> {
  const stored = await saveFile(fs.readFileSync(path.join(FIXTURES, fixture)), {
    fileName: name,
    mimeType: "application/octet-stream",
    organizationId: orgId,
    userId,
  });
  return stored.id;
}

async function analysed(fileId: number, mapping: ImportMapping) {
  const { importId, jobId } = await createImport({ organizationId: orgId, userId, fileId, mapping });
  for (let i = 0; i < 200; i++) {
    const job = await jobForUser(db(), { organizationId: orgId, userId, id: jobId });
    if (job && (job.status === "done" || job.status === "failed")) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const job = await jobForUser(db(), { organizationId: orgId, userId, id: jobId });
  const view = await getImport({ organizationId: orgId, userId, importId });
  const rows = (await importRows({ organizationId: orgId, userId, importId, size: 100 }))!.rows;
  return { importId, job: job!, view: view!, rows };
}

const statuses = (rows: Array<{ rowNumber: number; status: string; reason: string | null }>) => rows.map((r) => [r.rowNumber, r.status, r.reason]);

beforeAll(async () => {
  orgId = await makeOrg("List Owner AS", "customer", "923609016");
  userId = await createUser({ email: "lists@example.com", organizationId: orgId, accessLevel: 2, language: "no", createdAt: AT });
  // The registry units of R's fixtures (real numbers from server/seed-data/brreg).
  await company("832175692", "WAYS AS");
  await company("993020923", "TØNSBERGLIVET AS");
  await company("918847065", "TRYGVE J SJØEN AS");
  await company("994617206", "SLØVÅG NÆRINGSBYGG AS");
  await company("924557028", "DIGERNESET ELEKTRO & KJØKKEN AS");
  await company("920024785", "BERNHARD MOE AS");
  await follow(orgId, await makeOrg("TRYGVE J SJØEN AS", "supplier", "918847065"));
  worker = startWorker({ db: db(), handlers: { "supplier-analysis": supplierAnalysis }, pollMs: 20, log: () => {} });
});

afterAll(async () => {
  await worker.stop();
});

describe("the supplier-analysis job", () => {
  it("reads the list with invalid and duplicate numbers, and writes the result file in the user's language", async () => {
    const fileId = await upload("org-numbers-invalid-duplicate.xlsx", "leverandører.xlsx");
    const { job, view, rows } = await analysed(fileId, { orgId: 0, orgName: 1, countryCode: null, hasHeaders: true, sheet: 0 });
    expect(job.status).toBe("done");
    expect(view.status).toBe("ready");
    expect(statuses(rows)).toEqual([
      [2, "matched", "exact-number"],
      [3, "invalid", "org-check-digit"],
      [4, "matched", "exact-number"],
      [5, "existing", "already-supplier"],
      [6, "matched", "exact-number"],
      [7, "duplicate", "duplicate-in-file"],
      [8, "invalid", "org-wrong-length"],
      [9, "matched", "exact-name"],
    ]);
    expect(view.counts).toEqual({ total: 8, matched: 4, invalid: 2, existing: 1, duplicate: 1, ambiguous: 0, not_found: 0 });
    expect(job.progressDone).toBe(8);
    expect(job.progressTotal).toBe(8);

    const file = await db().selectFrom("file_uploads").selectAll().where("id", "=", view.resultFileId!).executeTakeFirstOrThrow();
    expect(file).toMatchObject({ organization_id: orgId, user_id: userId, file_name: "leverandører – analyse.xlsx" });
    const sheet = await readXlsxFile(blobStore("uploads").path(file.storage_key));
    const data = (sheet as unknown as Array<{ data: unknown[][] }>)[0]?.data ?? (sheet as unknown as unknown[][]);
    expect(data[0]).toEqual(["Org.nr", "Leverandør", "Merknad", "Importstatus", "Funnet organisasjonsnummer", "Funnet navn", "Begrunnelse"]);
    expect(data[2]?.slice(3, 5)).toEqual(["Ugyldig", null]);
    expect(String(data[4]?.[3])).toBe("Allerede leverandør");
    expect(data[8]?.slice(3, 6)).toEqual(["Funnet", "924557028", "DIGERNESET ELEKTRO & KJØKKEN AS"]);
  });

  it("reads a list without headers from its first line", async () => {
    const fileId = await upload("suppliers-no-headers.xlsx");
    const { view, rows } = await analysed(fileId, { orgId: 0, orgName: 1, countryCode: null, hasHeaders: false, sheet: 0 });
    expect(view.status).toBe("ready");
    expect(rows[0].rowNumber).toBe(1);
    expect(rows.every((r) => r.status !== "invalid")).toBe(true);
  });

  it("reads a Windows-1252 CSV (tab) and keeps its letters", async () => {
    const fileId = await upload("suppliers-windows1252-tab.csv");
    const { view, rows } = await analysed(fileId, { orgId: 0, orgName: 1, countryCode: null, hasHeaders: true, sheet: 0 });
    expect(view.status).toBe("ready");
    expect(rows.map((r) => [r.status, r.cells[2]])).toEqual([
      ["matched", "Ørsta"],
      ["existing", "Bærum"],
      ["matched", "Å"],
    ]);
  });

  it("fails the import with the readers' message on a legacy or fake file, writing nothing", async () => {
    for (const [fixture, key] of [
      ["legacy.xls", "files:readError.legacy-xls"],
      ["fake.xlsx", "files:readError.not-a-spreadsheet"],
    ]) {
      const before = await db()
        .selectFrom("file_uploads")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      const fileId = await upload(fixture);
      const { job, view, rows } = await analysed(fileId, { orgId: 0, orgName: 1, countryCode: null, hasHeaders: true, sheet: 0 });
      expect(job.status).toBe("failed");
      expect(job.attempts).toBe(1);
      expect(job.error?.key).toBe(key);
      expect(view).toMatchObject({ status: "failed", error: { key }, resultFileId: null });
      expect(rows).toEqual([]);
      const after = await db()
        .selectFrom("file_uploads")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n) + 1); // the upload only, no result file
    }
  });

  it("run again for the same import (a retry after a crash), makes no second result file", async () => {
    const fileId = await upload("suppliers-utf8-bom-semicolon.csv");
    const { importId, view } = await analysed(fileId, { orgId: 0, orgName: 1, countryCode: 2, hasHeaders: true, sheet: 0 });
    expect(view.status).toBe("ready");
    // As if the worker died after writing the file but before finishing: back to analysing, and the handler runs again.
    await db().updateTable("supplier_imports").set({ status: "analysing", result_file_id: null }).where("id", "=", importId).execute();
    const results: unknown[] = [];
    await supplierAnalysis({
      job: { id: 0, type: "supplier-analysis", organizationId: orgId, userId, payload: { importId }, attempt: 2 },
      progress: async () => {},
      signal: new AbortController().signal,
      finish: async (write) => {
        const r = await db().transaction().execute(write);
        results.push(r);
        return r;
      },
    });
    const again = await getImport({ organizationId: orgId, userId, importId });
    expect(again?.resultFileId).toBe(view.resultFileId);
    const named = await db()
      .selectFrom("file_uploads")
      .select("id")
      .where("user_id", "=", userId)
      .where("file_name", "like", "suppliers-utf8-bom-semicolon%")
      .execute();
    expect(named).toHaveLength(2); // the upload and one result
  });
});
