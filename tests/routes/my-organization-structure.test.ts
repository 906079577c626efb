import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { loader as structureLoader } from "~/routes/_app.my-organization.structure";
import { loader as explorerLoader } from "~/routes/_app.org-structure-explorer";
import { company, makeOrg, signedIn } from "../helpers/fixtures";
import { call, get } from "../helpers/requests";

/**
 * /my-organization/structure and /org-structure-explorer against a real SQLite file: the own organisation's group
 * (owner, holdings with a lazily opened ownership tree, sub-units, which companies use this app), browsing any
 * company's group by number or name, and who may open them (registryRead: level 2 and up).
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as { admin: string; viewer: string; noNumber: string };
const open = async (loader: Fn, path: string, token?: string) =>
  call(loader, { request: get(path, token ? { Cookie: `token=${token}` } : {}), params: {}, context: {} });
const data = async (loader: Fn, path: string, token: string) => (await (await open(loader, path, token)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function holds(holder: number, owned: number, percent: number) {
  await db()
    .insertInto("shareholdings")
    .values({ company_id: owned, holder_company_id: holder, holder_person_id: null, percent, relation_type: null, updated_at: "2026-01-01T00:00:00.000Z" })
    .execute();
}

beforeAll(async () => {
  // Strukturholding AS owns 100 % of Struktur Kunde AS (the app's customer), which owns 60 % of Struktur Datter AS,
  // which owns 51 % of Struktur Barnebarn AS. Struktur Kunde AS has a sub-unit.
  const holding = await company("920000001", "Strukturholding AS");
  const customer = await company("920000002", "Struktur Kunde AS");
  const daughter = await company("920000003", "Struktur Datter AS");
  const grandchild = await company("920000004", "Struktur Barnebarn AS");
  await company("920000005", "Struktur Kunde AS avd. Bergen");
  await db().updateTable("companies").set({ parent_org_number: "920000002", municipality: "BERGEN" }).where("org_number", "=", "920000005").execute();
  await holds(holding, customer, 100);
  await holds(customer, daughter, 60);
  await holds(daughter, grandchild, 51);
  const orgA = await makeOrg("Struktur Kunde AS", "customer", "920000002");
  await makeOrg("Struktur Barnebarn AS", "customer", "920000004");
  // A supplier organisation row is not a customer of the app.
  await makeOrg("Strukturholding AS", "supplier", "920000001");
  w.admin = await signedIn("admin@structure.test", orgA, 2);
  w.viewer = await signedIn("viewer@structure.test", orgA, 1);
  w.noNumber = await signedIn("nonumber@structure.test", await makeOrg("No Number Org", "customer"), 2);
});

describe("who may open them", () => {
  it("level 2 and up; a level-1 member gets 403, a visitor is sent away", async () => {
    for (const [loader, path] of [
      [structureLoader, "/my-organization/structure"],
      [explorerLoader, "/org-structure-explorer"],
    ] as [Fn, string][]) {
      expect((await open(loader, path, w.admin)).status).toBe(200);
      expect((await open(loader, path, w.viewer)).status).toBe(403);
      const visitor = await open(loader, path);
      expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
    }
  });
});

describe("the organisation's own group", () => {
  it("shows the owner, the holdings, the sub-units and which companies use the app; trees open only when asked", async () => {
    const { group } = await data(structureLoader, "/my-organization/structure", w.admin);
    expect(group.company).toMatchObject({ orgNumber: "920000002", name: "Struktur Kunde AS" });
    expect(group.owners).toEqual([{ orgNumber: "920000001", name: "Strukturholding AS", ownership: 100 }]);
    expect(group.subsidiaries).toEqual([{ orgNumber: "920000003", name: "Struktur Datter AS", ownership: 60 }]);
    expect(group.subUnits).toEqual([{ orgNumber: "920000005", name: "Struktur Kunde AS avd. Bergen", municipality: "BERGEN" }]);
    expect(group.trees).toEqual({});
    expect(group.appOrganizations).toEqual(["920000002"]);
  });

  it("opens a holding's ownership tree from the URL, and then knows the customer further down", async () => {
    const { group } = await data(structureLoader, "/my-organization/structure?tree=920000003", w.admin);
    expect(group.trees["920000003"].children).toMatchObject([{ organization_id: "920000004", name: "Struktur Barnebarn AS", ownershipFraction: 0.51 }]);
    expect(group.appOrganizations).toEqual(["920000002", "920000004"]);
  });

  it("says so when the organisation has no organisation number", async () => {
    expect(await data(structureLoader, "/my-organization/structure", w.noNumber)).toMatchObject({ orgNumber: null, group: null });
  });
});

describe("the explorer", () => {
  it("starts at the user's own organisation and browses any company by number or name", async () => {
    expect((await data(explorerLoader, "/org-structure-explorer", w.admin)).group.company.orgNumber).toBe("920000002");
    const byNumber = await data(explorerLoader, "/org-structure-explorer?q=920%20000%20003", w.admin);
    expect(byNumber.group.owners).toEqual([{ orgNumber: "920000002", name: "Struktur Kunde AS", ownership: 60 }]);
    const byName = await data(explorerLoader, "/org-structure-explorer?q=Struktur%20Datter", w.admin);
    expect(byName.hits).toContainEqual({ orgNumber: "920000003", name: "Struktur Datter AS", active: true });
    expect(byName.group).toBeNull();
    const browsed = await data(explorerLoader, "/org-structure-explorer?org=920000001&tree=920000002", w.admin);
    expect(browsed.group.trees["920000002"].children[0]).toMatchObject({ organization_id: "920000003" });
  });

  it.each(["/org-structure-explorer?org=999999999", "/org-structure-explorer?org=%3Cscript%3E", "/org-structure-explorer?q=999999999&tree=x%00y"])(
    "answers %s with 'not found', never an error",
    async (path) => {
      const res = await open(explorerLoader, path, w.admin);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ group: null, missing: true });
    },
  );
});
