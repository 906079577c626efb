import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { createBrregProvider } from "@server/providers/registry";
import { syncCompany, syncSearch } from "@server/providers/registry/sync";
import { brregFixture, startReplayServer } from "../helpers/replay-server";

// Valid organisation numbers (mod 11); the replay server answers them with the recordings.
const ORG = "923609016";
const DELETED = "974760673";

function routesFor(org: string) {
  return [
    { path: `/enhetsregisteret/api/enheter/${org}`, file: brregFixture("enheter-details-response.json") },
    { path: `/enhetsregisteret/api/enheter/${org}/roller`, file: brregFixture("enheter-roller-person-response.json") },
    { path: `/regnskapsregisteret/regnskap/${org}`, file: brregFixture("regnskap-OrgnrResponseDefault.json") },
  ];
}

describe("refreshing the store from the live register", () => {
  it("caches the unit, its board roles and its statements, and does not ask again while fresh", async () => {
    const server = await startReplayServer(routesFor(ORG));
    const provider = createBrregProvider({ baseUrl: server.baseUrl });
    expect(await syncCompany(db(), provider, ORG)).toBe("fetched");

    const company = await db().selectFrom("companies").selectAll().where("org_number", "=", ORG).executeTakeFirstOrThrow();
    expect(company).toMatchObject({ legal_name: "SESAM STASJON", source: "brreg-api", country_code: "NO" });
    const roles = await db()
      .selectFrom("roles")
      .innerJoin("persons", "persons.id", "roles.person_id")
      .select(["persons.name", "roles.position", "roles.active_to"])
      .where("roles.company_id", "=", company.id)
      .execute();
    expect(roles.length).toBeGreaterThan(0);
    expect(roles.some((r) => /styrets leder/i.test(r.position))).toBe(true);
    const statements = await db().selectFrom("financial_statements").selectAll().where("company_id", "=", company.id).execute();
    // The recording's currency is a placeholder, which the adapter reads as NOK; whole kroner become thousands.
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ financial_year: 2019, source: "brreg-api", currency: "NOK", total_equity_and_liabilities: 2.027, equity: 2.028 });

    const before = server.requests.length;
    expect(await syncCompany(db(), provider, ORG)).toBe("fresh");
    expect(server.requests.length).toBe(before);
    // An old cache is fetched again, and updates in place.
    expect(await syncCompany(db(), provider, ORG, 0)).toBe("fetched");
    expect(await db().selectFrom("companies").select("id").where("org_number", "=", ORG).execute()).toHaveLength(1);
  });

  it("replaces the company's roles with the register's on refresh", async () => {
    const server = await startReplayServer(routesFor(ORG));
    const provider = createBrregProvider({ baseUrl: server.baseUrl });
    await syncCompany(db(), provider, ORG, 0);
    const count = async () =>
      (
        await db()
          .selectFrom("roles")
          .innerJoin("companies", "companies.id", "roles.company_id")
          .select("roles.id")
          .where("companies.org_number", "=", ORG)
          .execute()
      ).length;
    const first = await count();
    await syncCompany(db(), provider, ORG, 0);
    expect(await count()).toBe(first);
  });

  it("stores a deleted unit as deleted and inactive", async () => {
    const server = await startReplayServer([
      { path: `/enhetsregisteret/api/enheter/${DELETED}`, status: 410, file: brregFixture("enheter-details-deleted-response.json") },
    ]);
    expect(await syncCompany(db(), createBrregProvider({ baseUrl: server.baseUrl }), DELETED)).toBe("fetched");
    const row = await db().selectFrom("companies").select(["deleted_at", "is_active"]).where("org_number", "=", DELETED).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row.is_active).toBe(0);
  });

  it("an unknown number stores nothing", async () => {
    const server = await startReplayServer([{ path: "/enhetsregisteret/api/enheter/915429785", status: 404, json: { status: 404 } }]);
    expect(await syncCompany(db(), createBrregProvider({ baseUrl: server.baseUrl }), "915429785")).toBe("unknown");
    expect(await db().selectFrom("companies").select("id").where("org_number", "=", "915429785").executeTakeFirst()).toBeUndefined();
  });

  it("a live name search caches its hits so the local search finds them", async () => {
    const server = await startReplayServer([{ path: "/enhetsregisteret/api/enheter", file: brregFixture("enheter-search-response.json") }]);
    const cached = await syncSearch(db(), createBrregProvider({ baseUrl: server.baseUrl }), "sesam");
    expect(cached).toBeGreaterThan(0);
    expect(server.requests[0].query.navn).toBe("sesam");
  });
});
