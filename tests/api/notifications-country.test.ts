import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { action as notificationsAction, loader as notificationsLoader } from "~/routes/api.notifications.byOrg.search";
import { action as countryAction, loader as countryLoader } from "~/routes/api.organization.country";
import { company, makeOrg, request, signedIn } from "../helpers/fixtures";
import { call, form } from "../helpers/requests";

const w = {} as { customer: number; supplier: number; noCountry: number; lowerCase: number; analyst: string; viewer: string; ids: Record<string, number> };

beforeAll(async () => {
  await db()
    .insertInto("countries")
    .values([
      {
        iso2: "NO",
        iso3: "NOR",
        name_en: "Norway",
        name_no: "Norge",
        region: "Europe & Central Asia",
        risk_score: 3,
        co2_per_gdp: -31.4,
        governance_percentile: 97.2,
      },
      {
        iso2: "CN",
        iso3: "CHN",
        name_en: "China",
        name_no: "Kina",
        region: "East Asia & Pacific",
        risk_score: 52,
        co2_per_gdp: -28.1,
        governance_percentile: 48.1,
      },
      { iso2: "AQ", iso3: "ATA", name_en: "Antarctica", name_no: "Antarktis", region: null, risk_score: null, co2_per_gdp: null, governance_percentile: null },
    ])
    .execute();
  w.customer = await makeOrg("Notify Customer AS", "customer", null, "NO");
  // The same number as a customer (created first) and as a supplier: the supplier is the local identity.
  await makeOrg("Risky Holding (as customer)", "customer", "950000001", "NO");
  w.supplier = await makeOrg("Risky Holding AS", "supplier", "950000001", "NO");
  w.noCountry = await makeOrg("Nowhere AS", "supplier", "950000009", "XX");
  w.lowerCase = await makeOrg("Lower Case Ltd", "supplier", null, "cn");
  w.analyst = await signedIn("analyst@notify.test", w.customer, 2);
  w.viewer = await signedIn("viewer@notify.test", w.customer, 1);

  const risky = await company("950000001", "RISKY HOLDING AS");
  const quiet = await company("950000002", "QUIET HOLDING AS");
  const note = async (companyId: number, values: { type: "announcement" | "search"; date: string; risk: number; title: string }) =>
    (
      await db()
        .insertInto("risk_notifications")
        .values({
          company_id: companyId,
          type: values.type,
          date: values.date,
          created_at: `${values.date}T06:00:00.000Z`,
          risk_score: values.risk,
          relevance_score: 80,
          title: values.title,
          source: values.type === "search" ? "e24.no" : "Brønnøysundregistrene",
          url: values.type === "search" ? "https://e24.no/example" : null,
          description: `${values.title} (risk ${values.risk})`,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  w.ids = {
    old: await note(risky, { type: "announcement", date: "2024-05-01", risk: 60, title: "Change of auditor" }),
    newest: await note(risky, { type: "search", date: "2025-04-02", risk: 85, title: "Fined for safety breach" }),
    middle: await note(risky, { type: "search", date: "2025-01-15", risk: 20, title: "Labour dispute" }),
    low: await note(risky, { type: "announcement", date: "2025-03-01", risk: 19, title: "New board member" }),
    zero: await note(risky, { type: "announcement", date: "2025-02-01", risk: 0, title: "Address change" }),
    otherCompany: await note(quiet, { type: "search", date: "2025-04-03", risk: 90, title: "Not about Risky" }),
  };
});

const notifications = (query: string, token?: string) => request(notificationsLoader, `/api/notifications/byOrg/search?${query}`, {}, token);
const countryOf = (query: string, token?: string) => request(countryLoader, `/api/organization/country?${query}`, {}, token);

describe("GET /api/notifications/byOrg/search", () => {
  it("returns the company's notifications from risk 20 up, newest first, in the spec's shape", async () => {
    const res = await notifications("organizationId=950000001", w.analyst);
    expect(res.status).toBe(200);
    const organization = { id: "950000001", local_organization_id: w.supplier, organization_name: "RISKY HOLDING AS" };
    expect(await res.json()).toEqual({
      data: [
        {
          id: w.ids.newest,
          type: "search",
          createdAt: "2025-04-02T06:00:00.000Z",
          date: "2025-04-02",
          risk_score: 85,
          relevance_score: 80,
          organization,
          content: {
            type: "search",
            source: "e24.no",
            url: "https://e24.no/example",
            title: "Fined for safety breach",
            date: "2025-04-02",
            risk: { description: "Fined for safety breach (risk 85)" },
          },
        },
        {
          id: w.ids.middle,
          type: "search",
          createdAt: "2025-01-15T06:00:00.000Z",
          date: "2025-01-15",
          risk_score: 20,
          relevance_score: 80,
          organization,
          content: {
            type: "search",
            source: "e24.no",
            url: "https://e24.no/example",
            title: "Labour dispute",
            date: "2025-01-15",
            risk: { description: "Labour dispute (risk 20)" },
          },
        },
        {
          id: w.ids.old,
          type: "announcement",
          createdAt: "2024-05-01T06:00:00.000Z",
          date: "2024-05-01",
          risk_score: 60,
          relevance_score: 80,
          organization,
          content: {
            type: "announcement",
            source: "Brønnøysundregistrene",
            url: null,
            title: "Change of auditor",
            date: "2024-05-01",
            risk: { description: "Change of auditor (risk 60)" },
          },
        },
      ],
    });
  });

  it("honours minRiskScore", async () => {
    const ids = async (query: string) => ((await (await notifications(query, w.analyst)).json()) as { data: Array<{ id: number }> }).data.map((n) => n.id);
    expect(await ids("organizationId=950000001&minRiskScore=0")).toEqual([w.ids.newest, w.ids.low, w.ids.zero, w.ids.middle, w.ids.old]);
    expect(await ids("organizationId=950000001&minRiskScore=61")).toEqual([w.ids.newest]);
    expect(await ids("organizationId=950000001&minRiskScore=100")).toEqual([]);
    expect(await ids("organizationId=950000002&minRiskScore=20")).toEqual([w.ids.otherCompany]);
  });

  it("gives local_organization_id null when no local organisation carries the number", async () => {
    const res = await notifications("organizationId=950000002", w.analyst);
    const body = (await res.json()) as { data: Array<{ organization: unknown }> };
    expect(body.data[0].organization).toEqual({ id: "950000002", local_organization_id: null, organization_name: "QUIET HOLDING AS" });
  });

  it("answers 404 for an organisation number not in the registry", async () => {
    const res = await notifications("organizationId=999999999", w.analyst);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "Not Found" });
  });

  it("answers 400 for missing or bad parameters", async () => {
    for (const query of [
      "",
      "organizationId=",
      "organizationId=95%27%20OR%201",
      "organizationId=950000001&minRiskScore=abc",
      "organizationId=950000001&minRiskScore=101",
      "organizationId=950000001&minRiskScore=-5",
      "organizationId=950000001&minRiskScore=2.5",
    ]) {
      const res = await notifications(query, w.analyst);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Bad Request" });
    }
  });

  it("is the organisation's supplier work: a supplier respondent is refused even at level 2 (403)", async () => {
    const respondent = await signedIn("respondent@notify.test", w.supplier, 2);
    const res = await notifications("organizationId=950000001", respondent);
    expect(res.status).toBe(403);
  });

  it("needs a session (401) and access level 2 (403)", async () => {
    expect((await notifications("organizationId=950000001")).status).toBe(401);
    const res = await notifications("organizationId=950000001", w.viewer);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "Forbidden" });
  });
});

describe("GET /api/organization/country", () => {
  it("returns the organisation's country, also under country_data", async () => {
    const res = await countryOf(`localOrganizationId=${w.supplier}`, w.analyst);
    expect(res.status).toBe(200);
    const norway = { country_name: "Norway", region: "Europe & Central Asia", iso_2: "NO", risk_score: 3, co2_per_gdp: -31.4 };
    expect(await res.json()).toEqual({ data: { ...norway, country_data: norway } });
  });

  it("reads a lower-case country code", async () => {
    const res = await countryOf(`localOrganizationId=${w.lowerCase}`, w.analyst);
    const china = { country_name: "China", region: "East Asia & Pacific", iso_2: "CN", risk_score: 52, co2_per_gdp: -28.1 };
    expect(await res.json()).toEqual({ data: { ...china, country_data: china } });
  });

  it("answers 404 for an unknown organisation or a country without data", async () => {
    for (const id of [w.noCountry, 999_999]) {
      const res = await countryOf(`localOrganizationId=${id}`, w.analyst);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Not Found", message: "No country data found for this organization." });
    }
  });

  it("answers 400 for a missing or non-numeric id", async () => {
    for (const query of [
      "",
      "localOrganizationId=",
      "localOrganizationId=abc",
      "localOrganizationId=0",
      "localOrganizationId=-1",
      "localOrganizationId=1.5",
      "localOrganizationId=950000001x",
    ]) {
      const res = await countryOf(query, w.analyst);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Bad Request" });
    }
  });

  it("needs a session (401) and access level 2 (403)", async () => {
    expect((await countryOf(`localOrganizationId=${w.supplier}`)).status).toBe(401);
    expect((await countryOf(`localOrganizationId=${w.supplier}`, w.viewer)).status).toBe(403);
  });

  it("reads the id strictly: ' 5', '0x5', '05' and a NUL are 400, never another organisation", async () => {
    for (const id of [`%20${w.supplier}`, `0x${w.supplier.toString(16)}`, `0${w.supplier}`, `${w.supplier}%00`]) {
      const res = await countryOf(`localOrganizationId=${id}`, w.analyst);
      expect(res.status, id).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/^localOrganizationId/);
    }
  });
});

describe("methods", () => {
  it("both endpoints answer 405 with Allow: GET to other methods", async () => {
    for (const action of [notificationsAction, countryAction]) {
      const res = await call(action as never, { request: form("/api/x", {}), params: {}, context: {} });
      expect(res.status).toBe(405);
      expect(res.headers.get("Allow")).toBe("GET");
    }
  });
});
