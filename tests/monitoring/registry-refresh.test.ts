import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { createBrregProvider } from "@server/providers/registry";
import { syncCompany } from "@server/providers/registry/sync";
import { follow, makeOrg } from "../helpers/fixtures";
import { brregFixture, readFixtureJson, startReplayServer } from "../helpers/replay-server";

// A valid organisation number (mod 11) the replay server answers with the recordings.
const ORG = "923609016";

type Unit = Record<string, unknown>;
type Roles = { rollegrupper: Array<{ roller: Array<{ person: { navn: { fornavn: string; etternavn: string } } }> }> };

function routes(unit: Unit, roles: Roles) {
  return [
    { path: `/enhetsregisteret/api/enheter/${ORG}`, json: unit },
    { path: `/enhetsregisteret/api/enheter/${ORG}/roller`, json: roles },
    { path: `/regnskapsregisteret/regnskap/${ORG}`, file: brregFixture("regnskap-OrgnrResponseDefault.json") },
  ];
}

const notifications = () => db().selectFrom("risk_notifications").select(["kind", "title", "title_no", "details"]).orderBy("id").execute();

describe("registry monitoring on the live refresh (REGISTRY_PROVIDER=brreg)", () => {
  it("raises the bankruptcy and the new chair of a followed company once; its first fetch raises nothing", async () => {
    const unit = readFixtureJson<Unit>(brregFixture("enheter-details-response.json"));
    const roles = readFixtureJson<Roles>(brregFixture("enheter-roller-person-response.json"));
    const customer = await makeOrg("Kunde AS", "customer");
    await follow(customer, await makeOrg("Sesam Stasjon", "supplier", ORG));

    const first = await startReplayServer(routes(unit, roles));
    expect(await syncCompany(db(), createBrregProvider({ baseUrl: first.baseUrl }), ORG)).toBe("fetched");
    expect(await notifications()).toEqual([]);

    const changedRoles = structuredClone(roles);
    changedRoles.rollegrupper[0].roller[0].person.navn = { fornavn: "Ingrid", etternavn: "Bakke" };
    const changed = await startReplayServer(routes({ ...unit, konkurs: true, konkursdato: "2026-11-20" }, changedRoles));
    const provider = createBrregProvider({ baseUrl: changed.baseUrl });
    expect(await syncCompany(db(), provider, ORG, 0)).toBe("fetched");
    const raised = await notifications();
    expect(raised.map((n) => [n.kind, n.title_no])).toEqual([
      ["bankruptcy", "Konkurs åpnet i SESAM STASJON"],
      ["chair_change", "Ny styreleder i SESAM STASJON"],
    ]);
    expect(JSON.parse(raised[1].details!)).toEqual({ from: "Ove Olsen", to: "Ingrid Bakke" });

    // Refreshed again with the same answers: nothing new.
    expect(await syncCompany(db(), provider, ORG, 0)).toBe("fetched");
    expect(await notifications()).toEqual(raised);
  });

  it("raises nothing for a company nobody follows (or whose connection is deleted)", async () => {
    const other = "974760673";
    const unit = { ...readFixtureJson<Unit>(brregFixture("enheter-details-response.json")), organisasjonsnummer: other };
    const customer = await makeOrg("Kunde 2 AS", "customer");
    await follow(customer, await makeOrg("Former supplier", "supplier", other), 1);
    const roles = { rollegrupper: [] } as unknown as Roles;
    const routesOf = (u: Unit) => [
      { path: `/enhetsregisteret/api/enheter/${other}`, json: u },
      { path: `/enhetsregisteret/api/enheter/${other}/roller`, json: roles },
    ];
    const before = (await notifications()).length;
    const a = await startReplayServer(routesOf(unit));
    await syncCompany(db(), createBrregProvider({ baseUrl: a.baseUrl }), other);
    const b = await startReplayServer(routesOf({ ...unit, konkurs: true }));
    await syncCompany(db(), createBrregProvider({ baseUrl: b.baseUrl }), other, 0);
    expect(await db().selectFrom("companies").select("is_bankrupt").where("org_number", "=", other).executeTakeFirstOrThrow()).toEqual({ is_bankrupt: 1 });
    expect((await notifications()).length).toBe(before);
  });
});
