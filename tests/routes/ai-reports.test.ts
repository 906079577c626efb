import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@server/db";
import { createSession } from "@server/auth/session";
import { action, loader } from "~/routes/_app.ai.reports";
import { loader as reportLoader } from "~/routes/_app.ai.reports_.$id";
import { loader as pdfLoader } from "~/routes/ai.reports.$id.pdf";
import no from "../../locales/no/aiReports.json";
import { BASE, call, get } from "../helpers/requests";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { connectionsOf, DEMO_CUSTOMERS, seedWorld, viewerOf } from "../assistant/world";

/** /ai/reports: generate, list, open, download and delete supplier reports, scoped to the organisation, as browsers post them. */

const VINMONOPOLET = "817209882";
const w = {} as { nordvik: number; kystlys: number; tokenA: string; tokenNo: string; tokenB: string; tokenViewer: string; tokenRespondent: string };

const headers = (token?: string) => ({ Origin: BASE, "Content-Type": "application/x-www-form-urlencoded", ...(token ? { Cookie: `token=${token}` } : {}) });
const cookie = (token?: string): Record<string, string> => (token ? { Cookie: `token=${token}` } : {});

function post(token: string | undefined, fields: Record<string, string>): Promise<Response> {
  const request = new Request(`${BASE}/ai/reports`, { method: "POST", headers: headers(token), body: new URLSearchParams(fields).toString() });
  return call(action, { request, params: {}, context: {} });
}
const list = (path: string, token?: string) => call(loader, { request: get(path, cookie(token)), params: {}, context: {} });
const open = (id: string, token?: string) => call(reportLoader, { request: get(`/ai/reports/${id}`, cookie(token)), params: { id }, context: {} });
const pdf = (id: string, token?: string) => call(pdfLoader, { request: get(`/ai/reports/${id}/pdf`, cookie(token)), params: { id }, context: {} });

async function tokenOf(userId: number): Promise<string> {
  return (await createSession(userId, null)).token;
}

async function generate(token: string, orgNumber: string): Promise<number> {
  const response = await post(token, { intent: "generate", orgNumber, redirectTo: "/ai/reports" });
  expect(response.status).toBe(302);
  const location = response.headers.get("Location")!;
  expect(location).toMatch(/^\/ai\/reports\/\d+$/);
  return Number(location.split("/").pop());
}

beforeAll(async () => {
  await seedWorld();
  const a = await viewerOf(DEMO_CUSTOMERS[0]);
  const b = await viewerOf(DEMO_CUSTOMERS[2]);
  w.nordvik = a.organizationId;
  w.kystlys = b.organizationId;
  w.tokenA = await tokenOf(a.userId);
  w.tokenB = await tokenOf(b.userId);
  w.tokenNo = await signedIn("norsk@ai-reports.test", w.nordvik, 2);
  await db().updateTable("users").set({ language: "no" }).where("email", "=", "norsk@ai-reports.test").execute();
  w.tokenViewer = await signedIn("viewer@ai-reports.test", w.nordvik, 1);
  const supplierOrg = await makeOrg("Respondent Org AS", "supplier");
  w.tokenRespondent = await signedIn("respondent@ai-reports.test", supplierOrg, 2);
}, 120_000);

describe("who may", () => {
  it("refuses level 1 and respondents (403) and sends a visitor to the start page", async () => {
    expect((await list("/ai/reports", w.tokenViewer)).status).toBe(403);
    expect((await list("/ai/reports", w.tokenRespondent)).status).toBe(403);
    expect((await post(w.tokenViewer, { intent: "generate", orgNumber: VINMONOPOLET })).status).toBe(403);
    const visitor = await list("/ai/reports");
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
  });
});

describe("generate, open, download", () => {
  it("writes the report of a followed supplier and opens it; the PDF holds its name and the Norwegian headings", async () => {
    const id = await generate(w.tokenNo, VINMONOPOLET);
    const row = await db().selectFrom("ai_reports").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ organization_id: w.nordvik, org_number: VINMONOPOLET, language: "no", provider: "local", status: "ready", error: null });
    expect(row.markdown).toContain(`## ${no.report.riskOverview}`);
    expect(row.finished_at).not.toBeNull();

    const page = await open(String(id), w.tokenA);
    expect(page.status).toBe(200);
    const data = (await page.json()) as { report: { status: string; companyName: string }; html: string };
    expect(data.report.status).toBe("ready");
    // Each table scrolls in its own box, a focusable region named by its section's heading.
    expect(data.html).toMatch(
      /<h2 id="report-section-4">[^<]+<\/h2>\n<p>[^<]+<\/p>\n<div class="report-table" role="region" tabindex="0" aria-labelledby="report-section-4"><table>/,
    );
    expect(data.html).toContain(`<h2 id="report-section-4">${no.report.financials}</h2>`);

    const file = await pdf(String(id), w.tokenA);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("application/pdf");
    expect(file.headers.get("Content-Disposition")).toMatch(/^attachment; filename="Leverandrrapport|^attachment; filename="Leverand/);
    expect(file.headers.get("Content-Disposition")).toContain("filename*=UTF-8''Leverand%C3%B8rrapport");
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    expect(text).toContain(row.company_name);
    expect(text).toContain(no.report.riskOverview);
    expect(text).toContain(no.report.registry);
    expect(text).toContain("Åpenhetsloven");
  });

  it("keeps a report the provider could not write as failed, and its page says so (an unconfigured model here)", async () => {
    const saved = { provider: process.env.LLM_PROVIDER, base: process.env.LLM_BASE_URL };
    process.env.LLM_PROVIDER = "openai";
    delete process.env.LLM_BASE_URL;
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    let id: number;
    try {
      id = await generate(w.tokenA, VINMONOPOLET);
      // The operator's log gets the kind and message; the page only "failed".
      expect(logged).toHaveBeenCalledWith("supplier report failed", expect.objectContaining({ provider: "openai", kind: "not_configured" }));
    } finally {
      logged.mockRestore();
      if (saved.provider === undefined) delete process.env.LLM_PROVIDER;
      else process.env.LLM_PROVIDER = saved.provider;
      if (saved.base !== undefined) process.env.LLM_BASE_URL = saved.base;
    }
    const row = await db().selectFrom("ai_reports").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "failed", provider: "openai", error: "not_configured", markdown: null });
    const page = (await (await open(String(id), w.tokenA)).json()) as { report: { status: string }; html: string | null };
    expect(page).toMatchObject({ report: { status: "failed" }, html: null });
    expect((await pdf(String(id), w.tokenA)).status).toBe(404);
  });

  it("refuses a malformed number (400) and a supplier the organisation does not follow (404), keeping nothing", async () => {
    const before = (
      await db()
        .selectFrom("ai_reports")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;
    for (const orgNumber of ["", "12345", "abcdefghi", "8172098820"]) {
      const response = await post(w.tokenA, { intent: "generate", orgNumber });
      expect([orgNumber, response.status]).toEqual([orgNumber, 400]);
    }
    expect((await post(w.tokenA, { intent: "generate" })).status).toBe(400);
    const followed = new Set((await connectionsOf(w.nordvik)).map((c) => c.org_number).filter((n): n is string => n != null));
    const other = await db()
      .selectFrom("companies")
      .select("org_number")
      .where("org_number", "not in", [...followed])
      .executeTakeFirstOrThrow();
    const refused = await post(w.tokenA, { intent: "generate", orgNumber: other.org_number });
    expect(refused.status).toBe(404);
    const after = (
      await db()
        .selectFrom("ai_reports")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;
    expect(after).toBe(before);
    expect((await post(w.tokenA, { intent: "nonsense" })).status).toBe(400);
  });

  it("keeps another organisation's report out of reach: page, PDF and delete are 404, nothing changed", async () => {
    const id = await generate(w.tokenB, VINMONOPOLET);
    expect((await open(String(id), w.tokenA)).status).toBe(404);
    expect((await pdf(String(id), w.tokenA)).status).toBe(404);
    expect((await post(w.tokenA, { intent: "delete", id: String(id), redirectTo: "/ai/reports" })).status).toBe(404);
    expect(await db().selectFrom("ai_reports").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();
    expect((await list(`/ai/reports?delete=${id}`, w.tokenA)).status).toBe(404);
    expect((await open("abc", w.tokenA)).status).toBe(400);
    expect((await pdf("0", w.tokenA)).status).toBe(400);
  });
});

describe("the list", () => {
  it("shows the organisation's reports only, newest first, paged by 20", async () => {
    for (let i = 0; i < 21; i++) {
      await db()
        .insertInto("ai_reports")
        .values({
          organization_id: w.nordvik,
          user_id: null,
          org_number: VINMONOPOLET,
          company_name: `Old report ${String(i).padStart(2, "0")}`,
          language: "en",
          provider: "local",
          status: "ready",
          markdown: "# Old",
          created_at: `2020-01-${String(i + 1).padStart(2, "0")}T00:00:00.000Z`,
          finished_at: null,
        })
        .execute();
    }
    const first = (await (await list("/ai/reports", w.tokenA)).json()) as {
      reports: { rows: Array<{ companyName: string; createdAt: string }>; total: number; pageCount: number };
    };
    const own = await db()
      .selectFrom("ai_reports")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("organization_id", "=", w.nordvik)
      .executeTakeFirstOrThrow();
    expect(first.reports.total).toBe(Number(own.n));
    expect(first.reports.rows).toHaveLength(20);
    const times = first.reports.rows.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const second = (await (await list("/ai/reports?page=2", w.tokenA)).json()) as typeof first;
    expect(second.reports.rows.map((r) => r.companyName)).toContain("Old report 00");
    const others = (await (await list("/ai/reports", w.tokenB)).json()) as typeof first;
    expect(others.reports.rows.every((r) => !r.companyName.startsWith("Old report"))).toBe(true);
    expect(others.reports.total).toBe(1);
    expect((await list("/ai/reports?page=0", w.tokenA)).status).toBe(400);
  });

  it("offers the followed suppliers to choose from, narrowed by the search, and preselects ?orgNumber=", async () => {
    const data = (await (await list(`/ai/reports?q=vinmonopolet&orgNumber=${VINMONOPOLET}`, w.tokenA)).json()) as {
      choices: Array<{ orgNumber: string; name: string }>;
      selected: string | null;
    };
    expect(data.choices.map((c) => c.orgNumber)).toEqual([VINMONOPOLET]);
    expect(data.selected).toBe(VINMONOPOLET);
    const all = (await (await list("/ai/reports", w.tokenA)).json()) as typeof data;
    const followed = (await connectionsOf(w.nordvik)).filter((c) => c.org_number);
    expect(all.choices.length).toBe(Math.min(followed.length, 50));
    expect((await list("/ai/reports?orgNumber=12", w.tokenA)).status).toBe(400);
  });

  it("deletes the organisation's own report after the confirmation step", async () => {
    const id = await generate(w.tokenA, VINMONOPOLET);
    const confirm = (await (await list(`/ai/reports?delete=${id}`, w.tokenA)).json()) as { toDelete: { id: number } };
    expect(confirm.toDelete.id).toBe(id);
    const response = await post(w.tokenA, { intent: "delete", id: String(id), redirectTo: `/ai/reports?delete=${id}` });
    expect([response.status, response.headers.get("Location")]).toEqual([302, "/ai/reports"]);
    expect(await db().selectFrom("ai_reports").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
    expect((await post(w.tokenA, { intent: "delete", id: "x" })).status).toBe(400);
  });
});
