import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { hashPassword } from "@server/auth/password";
import { action as searchOrgsAction, loader as searchOrgs } from "~/routes/api.business-api.search_organizations";
import { action as searchPeopleAction, loader as searchPeople } from "~/routes/api.business-api.search_people";
import { action as statementsAction, loader as statements } from "~/routes/api.business-api.financial_statements";
import { action as boardAction, loader as boardApi } from "~/routes/api.business-api.board";
import { action as boardFormerAction, loader as boardFormerApi } from "~/routes/api.business-api.board_former";
import { action as personAction, loader as personApi } from "~/routes/api.business-api.person";
import { action as treeAction, loader as treeApi } from "~/routes/api.business-api.get_ownership_tree";
import { composeIntelligence, factsOfCompany } from "~/models/assistant/supplier-intelligence";
import { action as intelligenceAction, loader as intelligenceApi } from "~/routes/api.ai-reports.supplier-intelligence";
import { args, call, form, get } from "../helpers/requests";
import { createOrganization, createSignedInUser } from "../helpers/factory";

const now = new Date().toISOString();
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

async function company(orgNumber: string, name: string, extra: Record<string, unknown> = {}) {
  const row = await db()
    .insertInto("companies")
    .values({ org_number: orgNumber, legal_name: name, country_code: "NO", org_form: "AS", source: "seed", updated_at: now, ...extra })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function personRow(name: string, boardscore: number) {
  return (
    await db().insertInto("persons").values({ name, birth_year: 1970, sex: "F", country_code: "NO", boardscore }).returning("id").executeTakeFirstOrThrow()
  ).id;
}

async function userWithLevel(email: string, level: number) {
  const organizationId = await createOrganization({ name: email, createdAt: now });
  const { token } = await createSignedInUser({ email, organizationId, accessLevel: level, passwordHash: await hashPassword("x-password-1"), createdAt: now });
  tokens[email] = token;
}

const as = (email: string, path: string) => args(get(path, { Authorization: `Bearer ${tokens[email]}` }));

beforeAll(async () => {
  await userWithLevel("analyst@api.test", 2);
  await userWithLevel("viewer@api.test", 1);
  ids.holding = await company("910000001", "Fjordholding AS", { number_of_employees: 3 });
  ids.mid = await company("910000002", "Fjord Industri AS", {
    number_of_employees: 120,
    industry_code: "25.110",
    industry_description: "Produksjon av metallkonstruksjoner",
    purpose: "Sveising og montasje av stålkonstruksjoner.",
  });
  ids.leaf = await company("910000003", "Fjord Verksted AS", { number_of_employees: 40 });
  ids.leaf2 = await company("910000004", "Fjord Service AS");
  ids.deep = await company("910000005", "Fjord Smie AS");
  ids.other = await company("920000001", "Havbruk Nord AS", { is_active: 0, is_bankrupt: 1, date_of_bankruptcy: "2024-03-01" });
  for (const [owner, owned, percent] of [
    [ids.holding, ids.mid, 100],
    [ids.mid, ids.leaf, 60.5],
    [ids.mid, ids.leaf2, 33.333],
    [ids.leaf, ids.deep, 100],
  ]) {
    await db()
      .insertInto("shareholdings")
      .values({ company_id: owned, holder_company_id: owner, holder_person_id: null, percent, relation_type: "HFOR", updated_at: now })
      .execute();
  }
  for (const [year, income, profit] of [
    [2022, 1000, 100],
    [2024, 1400, 120],
    [2023, 1200, -50],
  ]) {
    await db()
      .insertInto("financial_statements")
      .values({
        company_id: ids.mid,
        financial_year: year,
        operating_income: income,
        operating_profit: profit,
        depreciation: 10,
        updated_at: now,
        financial_risk_score: JSON.stringify({ finalScore: 40, capitalRisk: 1, liquidityRisk: 2, coverageRisk: 3, profitabilityRisk: 4, growthRisk: 5 }),
      })
      .execute();
  }
  ids.kari = await personRow("Kari Nordmann Testesen", 80);
  ids.ola = await personRow("Ola Testesen", 20);
  ids.per = await personRow("Per Former", 50);
  await db()
    .insertInto("roles")
    .values([
      { person_id: ids.kari, company_id: ids.mid, position: "Styreleder", active_from: "2019-01-01", active_to: null },
      { person_id: ids.ola, company_id: ids.mid, position: "Daglig leder (CEO)", active_from: "2020-01-01", active_to: null },
      { person_id: ids.per, company_id: ids.mid, position: "Styremedlem", active_from: "2015-01-01", active_to: "2019-01-01" },
      { person_id: ids.kari, company_id: ids.other, position: "Styremedlem", active_from: "2018-01-01", active_to: null },
    ])
    .execute();
  await db()
    .insertInto("shareholdings")
    .values({ company_id: ids.leaf2, holder_company_id: null, holder_person_id: ids.kari, percent: 12.5, relation_type: null, updated_at: now })
    .execute();
  // A stored (invented) summary must not be what the API answers: it composes from the registry (decision 028).
  await db()
    .insertInto("supplier_intelligence")
    .values({ company_id: ids.mid, data: JSON.stringify({ overview: { description: "Makes consumer electronics." }, tags: ["steel"] }), generated_at: now })
    .execute();
});

describe("access to registry endpoints", () => {
  const endpoints: Array<[string, (a: ReturnType<typeof args>) => unknown, string]> = [
    ["search_organizations", searchOrgs, "/api/business-api/search_organizations?term=fjord"],
    ["search_people", searchPeople, "/api/business-api/search_people?term=kari"],
    ["financial_statements", statements, "/api/business-api/financial_statements?organization_id=910000002"],
    ["board", boardApi, "/api/business-api/board?organization_id=910000002"],
    ["board_former", boardFormerApi, "/api/business-api/board_former?organization_id=910000002"],
    ["person", personApi, "/api/business-api/person?person_id=1"],
    ["get_ownership_tree", treeApi, "/api/business-api/get_ownership_tree?organizationId=910000001&fraction=1"],
    ["supplier-intelligence", intelligenceApi, "/api/ai-reports/supplier-intelligence?organizationId=910000002"],
  ];
  it.each(endpoints)("%s: 401 JSON without a session, 403 below level 2", async (_name, loader, path) => {
    const anonymous = await call(loader as never, args(get(path)));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("Content-Type")).toContain("application/json");
    const viewer = await call(loader as never, as("viewer@api.test", path));
    expect(viewer.status).toBe(403);
    expect((await viewer.json()).error).toBe("Forbidden");
  });
});

describe("methods", () => {
  const actions: Array<[string, () => unknown]> = [
    ["search_organizations", searchOrgsAction],
    ["search_people", searchPeopleAction],
    ["financial_statements", statementsAction],
    ["board", boardAction],
    ["board_former", boardFormerAction],
    ["person", personAction],
    ["get_ownership_tree", treeAction],
    ["supplier-intelligence", intelligenceAction],
  ];
  it.each(actions)("%s: any method but GET is 405 JSON with Allow: GET", async (_name, action) => {
    const res = await call(action as never, args(form("/api/business-api/x", {})));
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET");
    expect(await res.json()).toMatchObject({ error: "Method Not Allowed" });
  });
});

describe("search", () => {
  it("finds organisations by name prefix, with the latest operating figures", async () => {
    const res = await call(searchOrgs, as("analyst@api.test", "/api/business-api/search_organizations?term=fjord ind"));
    const body = await res.json();
    expect(body.found).toBe(1);
    expect(body.hits[0].document).toMatchObject({ id: "910000002", name: "Fjord Industri AS", opInc: 1400, opProft: 120 });
  });

  it("an exact organisation number returns the organisation itself too", async () => {
    const body = await (await call(searchOrgs, as("analyst@api.test", "/api/business-api/search_organizations?term=910 000 002"))).json();
    expect(body).toMatchObject({ organization_id: "910000002", legal_name: "Fjord Industri AS", opInc: 1400, opProft: 120, found: 1 });
  });

  it.each(["NO 910000002 MVA", "NO910000002MVA", "910.000.002", "910 000 002 MVA"])("finds the organisation by its number written as %s", async (term) => {
    const body = await (await call(searchOrgs, as("analyst@api.test", `/api/business-api/search_organizations?term=${encodeURIComponent(term)}`))).json();
    expect(body).toMatchObject({ organization_id: "910000002", legal_name: "Fjord Industri AS", found: 1 });
  });

  it("no hits is an empty list; a blank term is a 400", async () => {
    expect(await (await call(searchOrgs, as("analyst@api.test", "/api/business-api/search_organizations?term=zzzqqq"))).json()).toEqual({ found: 0, hits: [] });
    const blank = await call(searchOrgs, as("analyst@api.test", "/api/business-api/search_organizations?term=%20"));
    expect(blank.status).toBe(400);
    expect((await blank.json()).message).toMatch(/^term:/);
  });

  it("search_people returns pId, name, scor and the main organisation", async () => {
    const body = await (await call(searchPeople, as("analyst@api.test", "/api/business-api/search_people?term=testesen"))).json();
    expect(body.found).toBe(2);
    const documents = body.hits.map((h: { document: { pId: number } }) => h.document).sort((a: { pId: number }, b: { pId: number }) => a.pId - b.pId);
    expect(documents).toEqual([
      { pId: ids.kari, name: "Kari Nordmann Testesen", scor: 80, orgNam: expect.any(String) },
      { pId: ids.ola, name: "Ola Testesen", scor: 20, orgNam: "Fjord Industri AS" },
    ]);
  });
});

describe("company data", () => {
  it("financial_statements: newest first, with deprecation as an alias and the risk score object", async () => {
    const body = await (await call(statements, as("analyst@api.test", "/api/business-api/financial_statements?organization_id=910000002"))).json();
    expect(body.map((s: { financial_year: number }) => s.financial_year)).toEqual([2024, 2023, 2022]);
    expect(body[0]).toMatchObject({ operating_income: 1400, depreciation: 10, deprecation: 10, financial_risk_score: { finalScore: 40, growthRisk: 5 } });
  });

  it("unknown organisations are 404, malformed ids 400", async () => {
    expect((await call(statements, as("analyst@api.test", "/api/business-api/financial_statements?organization_id=999999999"))).status).toBe(404);
    expect((await call(statements, as("analyst@api.test", "/api/business-api/financial_statements"))).status).toBe(400);
    expect((await call(boardApi, as("analyst@api.test", "/api/business-api/board?organization_id=%3Cscript%3E"))).status).toBe(400);
    expect((await call(personApi, as("analyst@api.test", "/api/business-api/person?person_id=abc"))).status).toBe(400);
    // An id is written plainly: " 1", "0x1", "1e0", "01" and "1.0" are not ids (they used to read as person 1).
    for (const id of ["%201", "0x1", "1e0", "01", "1.0", "1%00"]) {
      const res = await call(personApi, as("analyst@api.test", `/api/business-api/person?person_id=${id}`));
      expect(res.status, id).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/^person_id/);
    }
    expect((await call(personApi, as("analyst@api.test", "/api/business-api/person?person_id=999999"))).status).toBe(404);
  });

  it("board and board_former split on active_to and sort by boardscore", async () => {
    const current = await (await call(boardApi, as("analyst@api.test", "/api/business-api/board?organization_id=910000002"))).json();
    expect(current.map((m: { name: string }) => m.name)).toEqual(["Kari Nordmann Testesen", "Ola Testesen"]);
    expect(current[0]).toEqual({
      person: `/people/${ids.kari}`,
      name: "Kari Nordmann Testesen",
      position: "Styreleder",
      boardscore: 80,
      organization_name: "Fjord Industri AS",
      active_from: "2019-01-01",
      active_to: null,
    });
    const former = await (await call(boardFormerApi, as("analyst@api.test", "/api/business-api/board_former?organization_id=910000002"))).json();
    expect(former).toHaveLength(1);
    expect(former[0]).toMatchObject({ name: "Per Former", active_to: "2019-01-01" });
  });

  it("person: roles, inactive roles with the organisation's status, and shares", async () => {
    const body = await (await call(personApi, as("analyst@api.test", `/api/business-api/person?person_id=${ids.kari}`))).json();
    expect(body.name).toBe("Kari Nordmann Testesen");
    expect(body.age).toBe(new Date().getUTCFullYear() - 1970);
    expect(body.roles).toHaveLength(2);
    expect(body.roles).toContainEqual({
      organization: "/organizations/920000001",
      organization_name: "Havbruk Nord AS",
      position: "Styremedlem",
      active_from: "2018-01-01",
      active_to: null,
      organization_status: { date_of_bankruptcy: "2024-03-01", is_active: false },
    });
    expect(body.shares).toEqual([{ name: "Fjord Service AS", ownership: 12.5, country_code: "NO", reference: "/organizations/910000004" }]);
  });

  it("get_ownership_tree: three levels below the root, fractions 0–1", async () => {
    const tree = await (await call(treeApi, as("analyst@api.test", "/api/business-api/get_ownership_tree?organizationId=910000001&fraction=0.5"))).json();
    expect(tree).toEqual({
      name: "Fjordholding AS",
      organization_id: "910000001",
      ownershipFraction: 0.5,
      children: [
        {
          name: "Fjord Industri AS",
          organization_id: "910000002",
          ownershipFraction: 1,
          children: [
            // Level 3 is the last: Fjord Smie AS (level 4) is not included.
            { name: "Fjord Verksted AS", organization_id: "910000003", ownershipFraction: 0.605, children: [] },
            { name: "Fjord Service AS", organization_id: "910000004", ownershipFraction: 0.33333, children: [] },
          ],
        },
      ],
    });
    expect((await call(treeApi, as("analyst@api.test", "/api/business-api/get_ownership_tree?organizationId=910000001&fraction=2"))).status).toBe(400);
  });

  it("supplier intelligence: {data} composed from the registry's facts in the user's language, or 404 when it says neither industry nor purpose", async () => {
    const facts = await db().selectFrom("companies").selectAll().where("id", "=", ids.mid).executeTakeFirstOrThrow();
    const ok = await call(intelligenceApi, as("analyst@api.test", "/api/ai-reports/supplier-intelligence?organizationId=910000002"));
    expect(ok.status).toBe(200);
    const { data } = await ok.json();
    expect(data).toEqual(composeIntelligence(factsOfCompany(facts), "en"));
    expect(data.overview.description).toContain("Fjord Industri AS");
    expect(data.overview.description).not.toContain("consumer electronics");
    expect(data.products).toEqual([{ name: "Produksjon av metallkonstruksjoner", description: "Sveising og montasje av stålkonstruksjoner." }]);
    expect(data.certifications_and_compliance).toEqual([]);
    expect(data.source.url).toBe("https://virksomhet.brreg.no/nb/oppslag/enheter/910000002");

    await db().updateTable("users").set({ language: "no" }).where("email", "=", "analyst@api.test").execute();
    try {
      const no = await call(intelligenceApi, as("analyst@api.test", "/api/ai-reports/supplier-intelligence?organizationId=910000002"));
      const body = await no.json();
      expect(body.data.language).toBe("no");
      expect(body.data.label).toBe("Satt sammen fra registerdata");
      expect(body.data.source.title).toBe("Brønnøysundregistrene");
    } finally {
      await db().updateTable("users").set({ language: "en" }).where("email", "=", "analyst@api.test").execute();
    }

    const none = await call(intelligenceApi, as("analyst@api.test", "/api/ai-reports/supplier-intelligence?organizationId=910000001"));
    expect(none.status).toBe(404);
    expect((await none.json()).message).toBe("No Supplier Intelligence found for this organization.");
  });
});
