import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { saveFile } from "@server/storage";
import { action } from "~/routes/api.supplier_upload.analyzeFile";
import { BASE, call } from "../helpers/requests";
import { makeOrg, signedIn } from "../helpers/fixtures";

const FIXTURE = path.resolve("tests/fixtures/spreadsheets/suppliers-headers.xlsx");

function post(token: string | null, body: unknown, contentType = "application/json"): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": contentType };
  if (token) headers.Authorization = `Bearer ${token}`;
  return call(action, {
    request: new Request(`${BASE}/api/supplier_upload/analyzeFile`, { method: "POST", body: JSON.stringify(body), headers }),
    params: {},
    context: {},
  });
}

let token: string;
let viewer: string;
let otherOrg: string;
let colleague: string;
let fileId: number;

beforeAll(async () => {
  const org = await makeOrg("Analyser AS", "customer");
  token = await signedIn("analyser@example.com", org, 2);
  colleague = await signedIn("colleague@example.com", org, 2);
  viewer = await signedIn("viewer@example.com", org, 1);
  otherOrg = await signedIn("stranger@example.com", await makeOrg("Stranger AS", "customer"), 2);
  const user = await db().selectFrom("users").select("id").where("email", "=", "analyser@example.com").executeTakeFirstOrThrow();
  fileId = (await saveFile(fs.readFileSync(FIXTURE), { fileName: "suppliers.xlsx", mimeType: "x", organizationId: org, userId: user.id })).id;
});

const good = () => ({ fileId, orgId: 0, orgName: 1, countryCode: null, hasHeaders: true });

describe("POST /api/supplier_upload/analyzeFile", () => {
  it("401 for a visitor, 403 for a viewer (importing creates suppliers)", async () => {
    expect((await post(null, good())).status).toBe(401);
    expect((await post(viewer, good())).status).toBe(403);
  });

  it("404 for another organization's file and for a colleague's file", async () => {
    for (const who of [otherOrg, colleague]) {
      const res = await post(who, good());
      expect(res.status).toBe(404);
    }
    expect((await post(token, { ...good(), fileId: fileId + 999 })).status).toBe(404);
  });

  it("400 for a bad mapping, with the spec's message when a column is missing; nothing is created", async () => {
    const before = await db()
      .selectFrom("supplier_imports")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const missing = await post(token, { ...good(), orgName: null });
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe("Please select both an Org ID column and an Org Name column first.");
    const noOrgId = await post(token, { fileId, orgName: 1, hasHeaders: true });
    expect((await noOrgId.json()).message).toBe("Please select both an Org ID column and an Org Name column first.");
    for (const bad of [
      { orgId: 0, orgName: 0 },
      { orgId: 0, orgName: 40 },
      { orgId: 0, orgName: 1, countryCode: 1 },
      { orgId: -1 },
      { orgId: "A" },
      { fileId: "x" },
    ]) {
      const res = await post(token, { ...good(), ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(typeof (await res.json()).message).toBe("string");
    }
    expect((await post(token, good(), "text/plain")).status).toBe(415);
    const after = await db()
      .selectFrom("supplier_imports")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it("202 with the import, its job and its page; the job is queued for this user", async () => {
    const res = await post(token, { ...good(), countryCode: 2 });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toEqual({ importId: expect.any(Number), jobId: expect.any(Number), href: `/suppliers/imports/${body.importId}` });
    const job = await db().selectFrom("jobs").selectAll().where("id", "=", body.jobId).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ type: "supplier-analysis", status: "queued" });
    expect(JSON.parse(job.payload)).toEqual({ importId: body.importId });
    const imp = await db().selectFrom("supplier_imports").selectAll().where("id", "=", body.importId).executeTakeFirstOrThrow();
    expect(JSON.parse(imp.mapping)).toEqual({ orgId: 0, orgName: 1, countryCode: 2, hasHeaders: true, sheet: 0 });
    expect(imp.job_id).toBe(body.jobId);
  });
});
