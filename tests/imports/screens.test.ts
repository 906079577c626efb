import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { saveFile } from "@server/storage";
import { action as analyzeAction, loader as analyzeLoader } from "~/routes/_app.files_.$fileId.analyze";
import { action as importAction, loader as importLoader } from "~/routes/_app.suppliers_.imports.$importId";
import { BASE, call, form } from "../helpers/requests";
import { company, makeOrg, signedIn } from "../helpers/fixtures";

const FIXTURE = path.resolve("tests/fixtures/spreadsheets/org-numbers-invalid-duplicate.xlsx");
let token: string;
let stranger: string;
let fileId: number;
let userId: number;
let orgId: number;

const auth = (tok: string) => ({ Authorization: `Bearer ${tok}` });

function analyze(tok: string, fields: Record<string, string>) {
  return call(analyzeAction, { request: form(`/files/${fileId}/analyze`, fields, auth(tok)), params: { fileId: String(fileId) }, context: {} });
}

beforeAll(async () => {
  orgId = await makeOrg("Screens AS", "customer");
  token = await signedIn("screens@example.com", orgId, 2);
  stranger = await signedIn("screens-stranger@example.com", await makeOrg("Elsewhere AS", "customer"), 2);
  userId = (await db().selectFrom("users").select("id").where("email", "=", "screens@example.com").executeTakeFirstOrThrow()).id;
  fileId = (await saveFile(fs.readFileSync(FIXTURE), { fileName: "list.xlsx", mimeType: "x", organizationId: orgId, userId })).id;
  await company("832175692", "WAYS AS");
});

describe("/files/:fileId/analyze", () => {
  it("guesses the mapping from the headers and shows the preview; a GET without has-headers reads the first line as data", async () => {
    const res = await call(analyzeLoader, {
      request: new Request(`${BASE}/files/${fileId}/analyze`, { headers: auth(token) }),
      params: { fileId: String(fileId) },
      context: {},
    });
    const data = await res.json();
    expect(data.view.mapping).toEqual({ orgId: 0, orgName: 1, countryCode: null });
    expect(data.view.columns[0].label).toBe("Org.nr (A)");
    expect(data.view.preview[0]).toEqual(["Org.nr", "Leverandør", "Merknad"]);
    const plain = await call(analyzeLoader, {
      request: new Request(`${BASE}/files/${fileId}/analyze?mapped=1&orgId=0&orgName=2`, { headers: auth(token) }),
      params: { fileId: String(fileId) },
      context: {},
    });
    const view = (await plain.json()).view;
    expect(view.hasHeaders).toBe(false);
    expect(view.columns[0].label).toBe("A");
    expect(view.mapping).toEqual({ orgId: 0, orgName: 2, countryCode: null });
  });

  it("is a 404 for another organization's file", async () => {
    const res = await call(analyzeLoader, {
      request: new Request(`${BASE}/files/${fileId}/analyze`, { headers: auth(stranger) }),
      params: { fileId: String(fileId) },
      context: {},
    });
    expect(res.status).toBe(404);
    expect((await analyze(stranger, { intent: "analyze", orgId: "0", orgName: "1", hasHeaders: "1" })).status).toBe(404);
  });

  it("refuses a missing column with the spec's message", async () => {
    const res = await analyze(token, { intent: "analyze", orgId: "0", orgName: "", hasHeaders: "1" });
    expect(res.status).toBe(400);
    expect((await res.json()).result.error[""]).toEqual(["Please select both an Org ID column and an Org Name column first."]);
  });

  it("starts the analysis: a plain post goes to the import's page, with JavaScript the answer names it", async () => {
    const plain = await analyze(token, { intent: "analyze", orgId: "0", orgName: "1", hasHeaders: "1", sheet: "0" });
    expect(plain.status).toBe(302);
    expect(plain.headers.get("Location")).toMatch(/^\/suppliers\/imports\/\d+$/);
    const js = await analyze(token, { intent: "analyze", orgId: "0", orgName: "1", hasHeaders: "1", js: "1" });
    expect(js.status).toBe(202);
    expect((await js.json()).started.href).toMatch(/^\/suppliers\/imports\/\d+$/);
  });
});

describe("/suppliers/imports/:importId", () => {
  async function readyImport(): Promise<number> {
    const imp = await db()
      .insertInto("supplier_imports")
      .values({
        organization_id: orgId,
        user_id: userId,
        file_upload_id: fileId,
        mapping: JSON.stringify({ orgId: 0, orgName: 1, countryCode: null, hasHeaders: true, sheet: 0 }),
        status: "ready",
        counts: JSON.stringify({ total: 1, matched: 1, ambiguous: 0, not_found: 0, invalid: 0, existing: 0, duplicate: 0 }),
        created_at: new Date().toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const ways = await db().selectFrom("companies").select("id").where("org_number", "=", "832175692").executeTakeFirstOrThrow();
    await db()
      .insertInto("supplier_import_rows")
      .values({ import_id: imp.id, row_number: 2, cells: '["832175692","WAYS AS"]', status: "matched", company_id: ways.id, reason: "exact-number" })
      .execute();
    return imp.id;
  }

  const post = (tok: string, importId: number, fields: Record<string, string>) =>
    call(importAction, { request: form(`/suppliers/imports/${importId}`, fields, auth(tok)), params: { importId: String(importId) }, context: {} });

  it("shows the report to its owner only", async () => {
    const importId = await readyImport();
    const mine = await call(importLoader, {
      request: new Request(`${BASE}/suppliers/imports/${importId}?status=matched`, { headers: auth(token) }),
      params: { importId: String(importId) },
      context: {},
    });
    const data = await mine.json();
    expect(data).toMatchObject({ imp: { status: "ready" }, status: "matched", toCreate: 1, rows: { total: 1 } });
    const theirs = await call(importLoader, {
      request: new Request(`${BASE}/suppliers/imports/${importId}`, { headers: auth(stranger) }),
      params: { importId: String(importId) },
      context: {},
    });
    expect(theirs.status).toBe(404);
    expect((await post(stranger, importId, { intent: "confirm" })).status).toBe(404);
  });

  it("confirms with a new tag and goes to /suppliers filtered by it; a second confirm is refused", async () => {
    const importId = await readyImport();
    const res = await post(token, importId, { intent: "confirm", newTag: "Fra Excel", redirectTo: `/suppliers/imports/${importId}` });
    expect(res.status).toBe(302);
    const tag = await db()
      .selectFrom("organization_tags")
      .select("id")
      .where("organization_id", "=", orgId)
      .where("title", "=", "Fra Excel")
      .executeTakeFirstOrThrow();
    expect(res.headers.get("Location")).toBe(`/suppliers?tag=${tag.id}`);
    const again = await post(token, importId, { intent: "confirm" });
    expect(again.status).toBe(409);
    expect((await again.json()).result.error[""]).toEqual(["This import has already been confirmed; nothing was changed."]);
    expect((await post(token, importId, { intent: "nonsense" })).status).toBe(400);
  });
});

describe("/files/:fileId/analyze for a viewer", () => {
  it("shows the file but not Analyze, and refuses the post", async () => {
    const viewer = await signedIn("screens-viewer@example.com", orgId, 1);
    const viewerId = (await db().selectFrom("users").select("id").where("email", "=", "screens-viewer@example.com").executeTakeFirstOrThrow()).id;
    const own = (await saveFile(fs.readFileSync(FIXTURE), { fileName: "mine.xlsx", mimeType: "x", organizationId: orgId, userId: viewerId })).id;
    const res = await call(analyzeLoader, {
      request: new Request(`${BASE}/files/${own}/analyze`, { headers: auth(viewer) }),
      params: { fileId: String(own) },
      context: {},
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ canImport: false, view: { fileName: "mine.xlsx" } });
    const post = await call(analyzeAction, {
      request: form(`/files/${own}/analyze`, { intent: "analyze", orgId: "0", orgName: "1" }, auth(viewer)),
      params: { fileId: String(own) },
      context: {},
    });
    expect(post.status).toBe(403);
  });
});
