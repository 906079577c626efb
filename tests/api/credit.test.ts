import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { db } from "@server/db";
import { reportPdfPath } from "@server/credit-files";
import { placeCreditOrder } from "~/models/credit/credit-reports.server";
import { loader as searchLoader } from "~/routes/api.credit-safe.search";
import { loader as languagesLoader } from "~/routes/api.credit-safe.report-languages";
import { action as orderAction, loader as orderGet } from "~/routes/api.credit-safe.order";
import { loader as downloadLoader } from "~/routes/api.credit-safe.$id.download";
import { loader as supplierReportsLoader } from "~/routes/api.credit-safe.supplier-reports";
import { loader as creditReportsLoader } from "~/routes/_app.credit_reports";
import { loader as csvLoader } from "~/routes/credit_reports[.]csv";
import { loader as supplierLoader } from "~/routes/_app.supplier";
import { company, makeOrg, request, signedIn } from "../helpers/fixtures";
import { BASE, call } from "../helpers/requests";

/**
 * The credit report API, /credit_reports and its CSV against the real local
 * provider (registry rows of this test's database, PDFs generated here).
 */

const ORG_NO = "923609016";
const ORG_NO_2 = "987654321";

const w = {} as {
  orgA: number;
  orgB: number;
  userA: number;
  tokenA: string;
  tokenA2: string;
  tokenViewerA: string;
  tokenB: string;
  tokenNoOrg: string;
  connectId: string;
  connectId2: string;
};

function reportsDir(): string {
  return path.join(process.env.DATA_DIR!, "credit-reports");
}

function filesOnDisk(): string[] {
  return fs.existsSync(reportsDir()) ? fs.readdirSync(reportsDir()).sort() : [];
}

function order(body: unknown, token?: string, headers: Record<string, string> = {}): Promise<Response> {
  const req = new Request(`${BASE}/api/credit-safe/order`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return call(orderAction, { request: req, params: {}, context: {} });
}

function validOrder(connectId = w.connectId) {
  return { connectId, companyName: "Kredittprøve AS", regNo: ORG_NO, countryCode: "NO", language: "NO" };
}

async function reportRows(organizationId?: number) {
  let q = db().selectFrom("credit_reports").selectAll().orderBy("id");
  if (organizationId !== undefined) q = q.where("organization_id", "=", organizationId);
  return q.execute();
}

let storageSeq = 0;
/** A report row written directly (old orders, other months), with a PDF on disk like a real order. */
async function insertReport(values: {
  org: number;
  user: number | null;
  createdAt: string;
  companyName?: string;
  regNo?: string | null;
  country?: string;
  price?: number;
}) {
  const storageKey = `${(++storageSeq).toString(16).padStart(32, "0")}.pdf`;
  fs.mkdirSync(reportsDir(), { recursive: true });
  fs.writeFileSync(reportPdfPath(storageKey), "%PDF-1.4\n% inserted by the test\n");
  const row = await db()
    .insertInto("credit_reports")
    .values({
      organization_id: values.org,
      user_id: values.user,
      company_name: values.companyName ?? "Kredittprøve AS",
      reg_no: values.regNo === undefined ? ORG_NO : values.regNo,
      country_code: values.country ?? "NO",
      language: "EN",
      provider: "local",
      provider_id: `inserted-${storageSeq}`,
      file_name: `inserted-${storageSeq}.pdf`,
      storage_key: storageKey,
      file_size: 32,
      price_nok: values.price ?? 80,
      idempotency_key: `inserted-${storageSeq}`,
      created_at: values.createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function deleteInserted(ids: number[]) {
  if (ids.length) await db().deleteFrom("credit_reports").where("id", "in", ids).execute();
}

beforeAll(async () => {
  w.orgA = await makeOrg("Kunde A AS", "customer");
  w.orgB = await makeOrg("Kunde B AS", "customer");
  w.tokenA = await signedIn("anna@credit.test", w.orgA, 2);
  w.userA = (await db().selectFrom("users").select("id").where("email", "=", "anna@credit.test").executeTakeFirstOrThrow()).id;
  w.tokenA2 = await signedIn("arne@credit.test", w.orgA, 3);
  w.tokenViewerA = await signedIn("viewer@credit.test", w.orgA, 1);
  w.tokenB = await signedIn("bob@credit.test", w.orgB, 2);
  w.tokenNoOrg = await signedIn("nobody@credit.test", null, 3);
  await company(ORG_NO, "KREDITTPRØVE AS");
  await company(ORG_NO_2, "ANDRE PRØVE AS");
});

// Runs first, before anything caches the local provider: with CREDIT_PROVIDER=creditsafe
// and no credentials every provider call fails (CreditError 'not_configured').
describe("when the credit provider fails (shared/spec/02-supplier-credit-connections.md §8)", () => {
  let errors: MockInstance<typeof console.error>;
  beforeAll(() => {
    errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    process.env.CREDIT_PROVIDER = "creditsafe";
  });
  afterAll(() => {
    delete process.env.CREDIT_PROVIDER;
    errors.mockRestore();
  });

  it("search answers an empty list and logs", async () => {
    const res = await request(searchLoader, "/api/credit-safe/search?country=NO&name=prøve", {}, w.tokenA);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ companies: [] });
    expect(errors).toHaveBeenCalledWith("credit search failed", expect.objectContaining({ country: "NO" }));
  });

  it("report languages offer only English", async () => {
    const res = await request(languagesLoader, "/api/credit-safe/report-languages?country=NO", {}, w.tokenA);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ languages: ["EN"] });
  });

  it("an order is a 502 'Order failed', stores nothing and bills nothing", async () => {
    const res = await order({ ...validOrder("any-id"), language: "EN" }, w.tokenA);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: "Bad Gateway", message: "Order failed – please try again." });
    expect(await reportRows()).toEqual([]);
    expect(filesOnDisk()).toEqual([]);
  });
});

describe("GET /api/credit-safe/search", () => {
  it("401 without a session, 403 below access level 2 or without an organisation", async () => {
    expect((await request(searchLoader, "/api/credit-safe/search?country=NO&name=x")).status).toBe(401);
    expect((await request(searchLoader, "/api/credit-safe/search?country=NO&name=x", {}, w.tokenViewerA)).status).toBe(403);
    expect((await request(searchLoader, "/api/credit-safe/search?country=NO&name=x", {}, w.tokenNoOrg)).status).toBe(403);
  });

  it.each([
    ["an unknown country", "country=XX&name=prøve", "country"],
    ["no country", "name=prøve", "country"],
    ["blank name and registration number", "country=NO&name=%20%20&regNo=", "name or regNo"],
    ["neither name nor registration number", "country=NO", "name or regNo"],
  ])("400 for %s", async (_case, query, field) => {
    const res = await request(searchLoader, `/api/credit-safe/search?${query}`, {}, w.tokenA);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(new RegExp(`^${field}:`));
  });

  it("finds a company by registration number and by name, in the spec's shape", async () => {
    const byRegNo = await request(searchLoader, `/api/credit-safe/search?country=NO&regNo=${ORG_NO}`, {}, w.tokenA);
    expect(byRegNo.status).toBe(200);
    const { companies: data } = (await byRegNo.json()) as { companies: Array<Record<string, unknown>> };
    expect(data.length).toBeGreaterThan(0);
    expect(data[0]).toMatchObject({ name: "KREDITTPRØVE AS", country: "NO", regNo: ORG_NO });
    expect(Object.keys(data[0]).sort()).toEqual(["address", "country", "id", "legalForm", "name", "regNo", "status"]);
    expect(Object.keys(data[0].address as object).sort()).toEqual(["city", "houseNo", "postCode", "street"]);
    w.connectId = String(data[0].id);

    const byName = await request(searchLoader, `/api/credit-safe/search?country=NO&name=${encodeURIComponent("andre prøve")}`, {}, w.tokenA);
    const found = ((await byName.json()) as { companies: Array<{ id: string; regNo: string }> }).companies;
    expect(found.map((c) => c.regNo)).toContain(ORG_NO_2);
    w.connectId2 = found.find((c) => c.regNo === ORG_NO_2)!.id;
  });
});

describe("GET /api/credit-safe/report-languages", () => {
  it("401, 403, and 400 for an unknown or missing country", async () => {
    expect((await request(languagesLoader, "/api/credit-safe/report-languages?country=NO")).status).toBe(401);
    expect((await request(languagesLoader, "/api/credit-safe/report-languages?country=NO", {}, w.tokenViewerA)).status).toBe(403);
    expect((await request(languagesLoader, "/api/credit-safe/report-languages?country=ZZ", {}, w.tokenA)).status).toBe(400);
    expect((await request(languagesLoader, "/api/credit-safe/report-languages", {}, w.tokenA)).status).toBe(400);
  });

  it("Norway offers Norwegian first, then English", async () => {
    const res = await request(languagesLoader, "/api/credit-safe/report-languages?country=NO", {}, w.tokenA);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ languages: ["NO", "EN"] });
  });

  it("every answer includes English", async () => {
    const res = await request(languagesLoader, "/api/credit-safe/report-languages?country=SE", {}, w.tokenA);
    expect(((await res.json()) as { languages: string[] }).languages).toContain("EN");
  });
});

describe("POST /api/credit-safe/order", () => {
  it("GET is a 405", async () => {
    const res = await call(orderGet, { request: new Request(`${BASE}/api/credit-safe/order`), params: {}, context: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
  });

  it("401 without a session, 403 below access level 2", async () => {
    expect((await order(validOrder())).status).toBe(401);
    expect((await order(validOrder(), w.tokenViewerA)).status).toBe(403);
    expect((await order(validOrder(), w.tokenNoOrg)).status).toBe(403);
  });

  it("415 for a body that is not JSON", async () => {
    const res = await order(new URLSearchParams(validOrder()).toString(), w.tokenA, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(415);
  });

  // Bodies are built when the test runs: the connect id comes from the search test.
  it.each<[string, () => unknown, string]>([
    ["broken JSON", () => "{not json", "body"],
    ["no connectId", () => ({ ...validOrder(), connectId: undefined }), "connectId"],
    ["a numeric company name", () => ({ ...validOrder(), companyName: 42 }), "companyName"],
    ["a NUL in a text", () => ({ ...validOrder(), regNo: "923\u0000609016" }), "regNo"],
    ["an unknown country", () => ({ ...validOrder(), countryCode: "XX" }), "countryCode"],
    ["a lower-case country", () => ({ ...validOrder(), countryCode: "no" }), "countryCode"],
    ["an unknown language", () => ({ ...validOrder(), language: "DE" }), "language"],
    ["a numeric regNo", () => ({ ...validOrder(), regNo: 923609016 }), "regNo"],
    ["an array", () => [validOrder()], "body"],
  ])("400 for %s, naming the field", async (_case, body, field) => {
    const res = await order(body(), w.tokenA);
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { message: string; field?: string };
    if (field === "body") {
      expect(answer.message).not.toBe("");
    } else {
      expect(answer.message.startsWith(`${field}:`)).toBe(true);
      expect(answer.field).toBe(field);
    }
    expect(await reportRows()).toEqual([]);
  });

  it("400 when the language is not offered for the country", async () => {
    const res = await order({ ...validOrder(), countryCode: "SE", language: "NO" }, w.tokenA);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { field: string }).field).toBe("language");
  });

  it("400 for a malformed Idempotency-Key", async () => {
    const res = await order(validOrder(), w.tokenA, { "Idempotency-Key": "x".repeat(201) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { field: string }).field).toBe("Idempotency-Key");
  });

  it("an order stores one row and one PDF on disk, priced NOK 80", async () => {
    const before = filesOnDisk();
    const res = await order(validOrder(), w.tokenA, { "Idempotency-Key": "confirm-1" });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { id: number; fileName: string; companyName: string } };
    expect(Object.keys(data).sort()).toEqual(["companyName", "fileName", "id"]);
    // The provider's name for the connectId, not the one the client sent ('Kredittprøve AS').
    expect(data.companyName).toBe("KREDITTPRØVE AS");
    expect(data.fileName).toMatch(/\.pdf$/);
    // /admin/integrations: the credit provider's last success is this order (the built-in provider's too).
    const status = await db().selectFrom("integration_status").select("last_success_at").where("code", "=", "credit").executeTakeFirst();
    expect(status?.last_success_at).toBeTruthy();

    const rows = await reportRows();
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).toMatchObject({
      id: data.id,
      organization_id: w.orgA,
      user_id: w.userA,
      company_name: "KREDITTPRØVE AS",
      reg_no: ORG_NO,
      country_code: "NO",
      language: "NO",
      provider: "local",
      provider_id: w.connectId,
      file_name: data.fileName,
      price_nok: 80,
      idempotency_key: "confirm-1",
    });
    expect(Date.now() - Date.parse(row.created_at)).toBeLessThan(60_000);
    const after = filesOnDisk();
    expect(after).toHaveLength(before.length + 1);
    expect(after).toContain(row.storage_key);
    const bytes = fs.readFileSync(reportPdfPath(row.storage_key));
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.length).toBe(row.file_size);
  });

  it("the same idempotency key again returns the first order: one row, same id, nothing new on disk", async () => {
    const first = (await reportRows(w.orgA))[0];
    const before = filesOnDisk();
    const res = await order({ ...validOrder(), language: "EN" }, w.tokenA, { "Idempotency-Key": "confirm-1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(((await res.json()) as { data: { id: number } }).data.id).toBe(first.id);
    expect(await reportRows(w.orgA)).toHaveLength(1);
    expect(filesOnDisk()).toEqual(before);

    const again = await placeCreditOrder({
      organizationId: w.orgA,
      userId: w.userA,
      idempotencyKey: "confirm-1",
      connectId: w.connectId,
      countryCode: "NO",
      language: "NO",
    });
    expect(again).toEqual({ id: first.id, fileName: first.file_name, companyName: "KREDITTPRØVE AS", created: false });
  });

  it("two submits of one form at the same moment make one order", async () => {
    const [a, b] = await Promise.all([
      order({ ...validOrder(w.connectId2), regNo: ORG_NO_2 }, w.tokenA, { "Idempotency-Key": "double-click" }),
      order({ ...validOrder(w.connectId2), regNo: ORG_NO_2 }, w.tokenA, { "Idempotency-Key": "double-click" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    const ids = [((await a.json()) as { data: { id: number } }).data.id, ((await b.json()) as { data: { id: number } }).data.id];
    expect(ids[0]).toBe(ids[1]);
    expect((await reportRows(w.orgA)).filter((r) => r.idempotency_key === "double-click")).toHaveLength(1);
  });

  it("keys belong to an organisation: B's use of A's key is B's own new order", async () => {
    const res = await order(validOrder(), w.tokenB, { "Idempotency-Key": "confirm-1" });
    expect(res.status).toBe(201);
    expect(await reportRows(w.orgB)).toHaveLength(1);
  });

  it("takes the company's name and number from the provider: a changed name is ignored, another company's number refused", async () => {
    const before = await reportRows();
    const refused = await order({ ...validOrder(), regNo: ORG_NO_2 }, w.tokenA, { "Idempotency-Key": "tampered-regno" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ field: "regNo", message: expect.stringMatching(/^regNo:/) });
    expect(await reportRows()).toEqual(before);

    const renamed = await order({ ...validOrder(w.connectId2), companyName: "Kredittprøve AS", regNo: null }, w.tokenA, { "Idempotency-Key": "tampered-name" });
    expect(renamed.status).toBe(201);
    const { data } = (await renamed.json()) as { data: { id: number; companyName: string } };
    expect(data.companyName).toBe("ANDRE PRØVE AS");
    const row = (await reportRows()).find((r) => r.id === data.id)!;
    expect({ company_name: row.company_name, reg_no: row.reg_no, provider_id: row.provider_id }).toEqual({
      company_name: "ANDRE PRØVE AS",
      reg_no: ORG_NO_2,
      provider_id: w.connectId2,
    });

    // The number written with spaces is the same company; no name at all is fine.
    const spaced = await order({ connectId: w.connectId2, regNo: "987 654 321", countryCode: "NO", language: "EN" }, w.tokenA, { "Idempotency-Key": "spaced" });
    expect(spaced.status).toBe(201);
  });

  it("404 for a connectId the provider does not know, or one of another country, with nothing ordered", async () => {
    const before = await reportRows();
    for (const body of [
      { ...validOrder("local:000000000"), regNo: null },
      { ...validOrder(), countryCode: "SE", language: "EN" },
    ]) {
      const res = await order(body, w.tokenA);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { field: string }).field).toBe("connectId");
    }
    expect(await reportRows()).toEqual(before);
  });

  it("without an Idempotency-Key every request is a new order", async () => {
    const before = (await reportRows(w.orgA)).length;
    expect((await order({ ...validOrder(), language: "EN" }, w.tokenA2)).status).toBe(201);
    expect((await order({ ...validOrder(), language: "EN" }, w.tokenA2)).status).toBe(201);
    expect(await reportRows(w.orgA)).toHaveLength(before + 2);
  });
});

describe("GET /api/credit-safe/{id}/download", () => {
  it("the ordering organisation gets the PDF as an attachment under its file name", async () => {
    const row = (await reportRows(w.orgA))[0];
    for (const token of [w.tokenA, w.tokenA2]) {
      const res = await request(downloadLoader, `/api/credit-safe/${row.id}/download`, { id: String(row.id) }, token);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("application/pdf");
      expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="[^"]+\.pdf"; filename\*=UTF-8''/);
      expect(res.headers.get("Content-Disposition")).toContain(encodeURIComponent(row.file_name));
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(reportPdfPath(row.storage_key)))).toBe(true);
    }
  });

  it("401 without a session, 403 below level 2", async () => {
    const row = (await reportRows(w.orgA))[0];
    expect((await request(downloadLoader, `/api/credit-safe/${row.id}/download`, { id: String(row.id) })).status).toBe(401);
    expect((await request(downloadLoader, `/api/credit-safe/${row.id}/download`, { id: String(row.id) }, w.tokenViewerA)).status).toBe(403);
  });

  it("404 for another organisation's report and an unknown id, 400 for a malformed id", async () => {
    const row = (await reportRows(w.orgA))[0];
    for (const id of [String(row.id), "999999"]) {
      const res = await request(downloadLoader, `/api/credit-safe/${id}/download`, { id }, id === String(row.id) ? w.tokenB : w.tokenA);
      expect(res.status, id).toBe(404);
    }
    for (const id of ["0", "abc", "1e3", "-1", " 5", "0x10", "05"]) {
      const res = await request(downloadLoader, `/api/credit-safe/${encodeURIComponent(id)}/download`, { id }, w.tokenA);
      expect(res.status, id).toBe(400);
    }
  });
});

describe("GET /api/credit-safe/supplier-reports", () => {
  it("401, 403, and 400 unless both regNo and a known country are given", async () => {
    const url = `/api/credit-safe/supplier-reports?regNo=${ORG_NO}&country=NO`;
    expect((await request(supplierReportsLoader, url)).status).toBe(401);
    expect((await request(supplierReportsLoader, url, {}, w.tokenViewerA)).status).toBe(403);
    for (const query of ["country=NO", `regNo=${ORG_NO}`, `regNo=%20&country=NO`, `regNo=${ORG_NO}&country=XX`]) {
      expect((await request(supplierReportsLoader, `/api/credit-safe/supplier-reports?${query}`, {}, w.tokenA)).status, query).toBe(400);
    }
  });

  it("lists the organisation's reports on the company from the last 24 months, newest first, with the orderer's email", async () => {
    const day = 24 * 3600 * 1000;
    const old = await insertReport({ org: w.orgA, user: w.userA, createdAt: new Date(Date.now() - 2 * 365 * day - 40 * day).toISOString() });
    const inside = await insertReport({ org: w.orgA, user: null, createdAt: new Date(Date.now() - 700 * day).toISOString() });
    const otherCountry = await insertReport({ org: w.orgA, user: w.userA, createdAt: new Date().toISOString(), country: "SE" });
    try {
      const res = await request(supplierReportsLoader, `/api/credit-safe/supplier-reports?regNo=${ORG_NO}&country=NO`, {}, w.tokenA);
      expect(res.status).toBe(200);
      const { data } = (await res.json()) as {
        data: Array<{ id: number; companyName: string; fileName: string; createdAt: string; user: { email: string | null } }>;
      };
      const expected = (await reportRows(w.orgA))
        .filter((r) => r.reg_no === ORG_NO && r.country_code === "NO" && r.id !== old)
        .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
      expect(data.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      expect(data.map((r) => r.id)).toContain(inside);
      expect(data.map((r) => r.id)).not.toContain(old);
      expect(data.map((r) => r.id)).not.toContain(otherCountry);
      expect(data[data.length - 1]).toEqual({
        id: inside,
        companyName: "Kredittprøve AS",
        fileName: expect.stringMatching(/\.pdf$/),
        createdAt: expect.any(String),
        user: { email: null },
      });
      expect(data[0].user).toEqual({ email: expect.stringMatching(/@credit\.test$/) });
      expect(Object.keys(data[0]).sort()).toEqual(["companyName", "createdAt", "fileName", "id", "user"]);
      // A registration number written with spaces is the same company.
      const spaced = await request(supplierReportsLoader, `/api/credit-safe/supplier-reports?regNo=923%20609%20016&country=NO`, {}, w.tokenA);
      expect(((await spaced.json()) as { data: unknown[] }).data).toHaveLength(data.length);
    } finally {
      await deleteInserted([old, inside, otherCountry]);
    }
  });

  it("another organisation does not see them", async () => {
    const res = await request(supplierReportsLoader, `/api/credit-safe/supplier-reports?regNo=${ORG_NO}&country=NO`, {}, w.tokenB);
    const { data } = (await res.json()) as { data: Array<{ id: number }> };
    const ofB = (await reportRows(w.orgB)).map((r) => r.id);
    expect(data.map((r) => r.id)).toEqual(ofB);
  });
});

describe("/credit_reports", () => {
  type Screen = {
    orders: Array<{ id: number; companyName: string; priceNok: number; user: { email: string | null } }>;
    months: Array<{ month: string; count: number; totalNok: number }>;
  };

  it("needs a session and access level 2", async () => {
    const anonymous = await request(creditReportsLoader, "/credit_reports");
    expect(anonymous.status).toBe(302);
    expect((await request(creditReportsLoader, "/credit_reports", {}, w.tokenViewerA)).status).toBe(403);
  });

  it("lists the organisation's orders newest first with monthly totals in Oslo months", async () => {
    const org = await makeOrg("Kunde C AS", "customer");
    const token = await signedIn("cecilie@credit.test", org, 2);
    const ids = [
      await insertReport({ org, user: null, createdAt: "2026-01-15T12:00:00.000Z" }),
      // 23:30 UTC on 31 January is February in Oslo.
      await insertReport({ org, user: null, createdAt: "2026-01-31T23:30:00.000Z", companyName: "Sent i januar AS" }),
      await insertReport({ org, user: null, createdAt: "2026-02-10T09:00:00.000Z" }),
      await insertReport({ org, user: null, createdAt: "2025-11-02T09:00:00.000Z", price: 80 }),
    ];
    const res = await request(creditReportsLoader, "/credit_reports", {}, token);
    expect(res.status).toBe(200);
    const screen = (await res.json()) as Screen;
    expect(screen.orders.map((o) => o.id)).toEqual([ids[2], ids[1], ids[0], ids[3]]);
    expect(screen.months).toEqual([
      { month: "2026-02", count: 2, totalNok: 160 },
      { month: "2026-01", count: 1, totalNok: 80 },
      { month: "2025-11", count: 1, totalNok: 80 },
    ]);
  });

  it("shows only the organisation's own orders", async () => {
    const a = (await (await request(creditReportsLoader, "/credit_reports", {}, w.tokenA)).json()) as Screen;
    const b = (await (await request(creditReportsLoader, "/credit_reports", {}, w.tokenB)).json()) as Screen;
    expect(a.orders.map((o) => o.id).sort()).toEqual((await reportRows(w.orgA)).map((r) => r.id).sort());
    expect(b.orders.map((o) => o.id)).toEqual((await reportRows(w.orgB)).map((r) => r.id));
    expect(a.months.reduce((sum, m) => sum + m.count, 0)).toBe(a.orders.length);
    expect(a.months.reduce((sum, m) => sum + m.totalNok, 0)).toBe(80 * a.orders.length);
  });

  it("an organisation without orders gets the empty list", async () => {
    const org = await makeOrg("Kunde D AS", "customer");
    const token = await signedIn("dag@credit.test", org, 2);
    expect(await (await request(creditReportsLoader, "/credit_reports", {}, token)).json()).toMatchObject({ orders: [], months: [] });
  });
});

describe("/credit_reports.csv", () => {
  it("needs a session and access level 2", async () => {
    expect((await request(csvLoader, "/credit_reports.csv")).status).toBe(302);
    expect((await request(csvLoader, "/credit_reports.csv", {}, w.tokenViewerA)).status).toBe(403);
  });

  it("is a UTF-8 CSV with a byte order mark, a header row and the organisation's orders only", async () => {
    const org = await makeOrg("Kunde E AS", "customer");
    const token = await signedIn("eva@credit.test", org, 2);
    const user = (await db().selectFrom("users").select("id").where("email", "=", "eva@credit.test").executeTakeFirstOrThrow()).id;
    await insertReport({ org, user, createdAt: "2026-01-31T23:30:00.000Z", companyName: "Ærlig Øst Å AS", regNo: "911111111" });
    await insertReport({ org, user: null, createdAt: "2025-03-05T08:00:00.000Z", companyName: '=HYPERLINK("http://x")', regNo: null, country: "SE" });
    const res = await request(csvLoader, "/credit_reports.csv", {}, token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="credit-reports-\d{4}-\d{2}-\d{2}\.csv"/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
    expect(lines[0]).toBe("Date,Month,Company,Registration number,Country,Language,Ordered by,Price (NOK),File name");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^2026-02-01 00:30,2026-02,Ærlig Øst Å AS,911111111,NO,EN,eva@credit\.test,80,inserted-\d+\.pdf$/);
    // A company name that starts like a formula is not one in Excel.
    expect(lines[2]).toMatch(/^2025-03-05 09:00,2025-03,"'=HYPERLINK\(""http:\/\/x""\)",,SE,EN,,80,inserted-\d+\.pdf$/);
  });

  it("does not contain another organisation's orders", async () => {
    const res = await request(csvLoader, "/credit_reports.csv", {}, w.tokenB);
    const lines = Buffer.from(await res.arrayBuffer())
      .subarray(3)
      .toString("utf8")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(1 + (await reportRows(w.orgB)).length);
    expect(lines.slice(1).every((l) => l.includes("bob@credit.test"))).toBe(true);
  });
});

describe("the supplier screen's credit risk section", () => {
  it("carries the organisation's reports on the supplier", async () => {
    const res = await request(supplierLoader, `/supplier?externalId=${ORG_NO}`, {}, w.tokenA);
    expect(res.status).toBe(200);
    const screen = (await res.json()) as { creditReports: Array<{ id: number; user: { email: string | null } }> };
    const expected = (await reportRows(w.orgA)).filter((r) => r.reg_no === ORG_NO).map((r) => r.id);
    expect(screen.creditReports.map((r) => r.id).sort()).toEqual(expected.sort());

    const ofB = (await (await request(supplierLoader, `/supplier?externalId=${ORG_NO}`, {}, w.tokenB)).json()) as typeof screen;
    expect(ofB.creditReports.map((r) => r.id)).toEqual((await reportRows(w.orgB)).map((r) => r.id));
  });
});
