import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { action, loader } from "~/routes/api.suppliers.$supplierOrgId.sub-suppliers";
import { BASE, call } from "../helpers/requests";
import { follow, makeOrg, request, signedIn } from "../helpers/fixtures";

const w = {} as {
  customerA: number;
  customerB: number;
  shared: number;
  notShared: number;
  followedByBOnly: number;
  unfollowed: number;
  large: number;
  tokenA: string;
  tokenB: string;
  viewerA: string;
  subs: Record<string, number>;
};

const subSuppliersOf = (supplier: number | string, token?: string, searchTerm?: string) =>
  request(
    loader,
    `/api/suppliers/${supplier}/sub-suppliers${searchTerm === undefined ? "" : `?searchTerm=${encodeURIComponent(searchTerm)}`}`,
    { supplierOrgId: String(supplier) },
    token,
  );

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
        co2_per_gdp: -30,
        governance_percentile: 97,
      },
      {
        iso2: "SE",
        iso3: "SWE",
        name_en: "Sweden",
        name_no: "Sverige",
        region: "Europe & Central Asia",
        risk_score: 2,
        co2_per_gdp: -35,
        governance_percentile: 98,
      },
    ])
    .execute();
  w.customerA = await makeOrg("Customer A AS", "customer");
  w.customerB = await makeOrg("Customer B AS", "customer");
  w.shared = await makeOrg("Sharing Supplier AS", "supplier", "910000001", "NO", 1);
  w.notShared = await makeOrg("Private Supplier AS", "supplier", "910000002", "NO", 0);
  w.followedByBOnly = await makeOrg("B's Supplier AS", "supplier", "910000003", "NO", 1);
  w.unfollowed = await makeOrg("Unfollowed Supplier AS", "supplier", "910000004", "NO", 1);
  w.large = await makeOrg("Large Supplier AS", "supplier", "910000005", "NO", 1);
  w.tokenA = await signedIn("a@subs.test", w.customerA, 2);
  w.tokenB = await signedIn("b@subs.test", w.customerB, 2);
  w.viewerA = await signedIn("viewer@subs.test", w.customerA, 1);
  await follow(w.customerA, w.shared);
  await follow(w.customerA, w.notShared);
  await follow(w.customerA, w.large);
  await follow(w.customerB, w.followedByBOnly);
  await follow(w.customerB, w.shared);
  // A once followed this one and removed it.
  await follow(w.customerA, w.unfollowed, 1);

  w.subs = {
    ostland: await makeOrg("ØSTLANDSK BETONG AS", "supplier", "920000011", "NO"),
    asen: await makeOrg("Åsen Trelast AS", "supplier", "920000012", "NO"),
    bergen: await makeOrg("Bergen Bolt AS", "supplier", "920000013", "se"),
    stockholm: await makeOrg("Stockholm Stål AB", "supplier", null, "SE"),
    unknownCountry: await makeOrg("Atlantis Shipping Ltd", "supplier", "AT-77", "XX"),
    dropped: await makeOrg("Dropped Deliveries AS", "supplier", "920000016", "NO"),
    hidden: await makeOrg("Hidden Partner AS", "supplier", "920000017", "NO"),
    ofB: await makeOrg("Only B's Sub AS", "supplier", "920000018", "NO"),
  };
  for (const key of ["ostland", "asen", "bergen", "stockholm", "unknownCountry"]) await follow(w.shared, w.subs[key]);
  await follow(w.shared, w.subs.dropped, 1);
  await follow(w.notShared, w.subs.hidden);
  await follow(w.followedByBOnly, w.subs.ofB);
  await follow(w.unfollowed, w.subs.hidden);
  for (let i = 0; i < 205; i++) {
    await follow(w.large, await makeOrg(`Bulk ${String(i).padStart(3, "0")} AS`, "supplier", String(930_000_000 + i), "NO"));
  }
});

describe("GET /api/suppliers/{supplierOrgId}/sub-suppliers", () => {
  it("lists a sharing supplier's active sub-suppliers by name, in the spec's shape", async () => {
    const res = await subSuppliersOf(w.shared, w.tokenA);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: [
        {
          organizationId: "AT-77",
          localOrganizationId: w.subs.unknownCountry,
          organizationName: "Atlantis Shipping Ltd",
          country: { country_name: null, country_name_no: null, iso_2: null },
        },
        {
          organizationId: "920000013",
          localOrganizationId: w.subs.bergen,
          organizationName: "Bergen Bolt AS",
          country: { country_name: "Sweden", country_name_no: "Sverige", iso_2: "SE" },
        },
        {
          organizationId: null,
          localOrganizationId: w.subs.stockholm,
          organizationName: "Stockholm Stål AB",
          country: { country_name: "Sweden", country_name_no: "Sverige", iso_2: "SE" },
        },
        // Norwegian order: Ø and Å come after Z, Ø before Å.
        {
          organizationId: "920000011",
          localOrganizationId: w.subs.ostland,
          organizationName: "ØSTLANDSK BETONG AS",
          country: { country_name: "Norway", country_name_no: "Norge", iso_2: "NO" },
        },
        {
          organizationId: "920000012",
          localOrganizationId: w.subs.asen,
          organizationName: "Åsen Trelast AS",
          country: { country_name: "Norway", country_name_no: "Norge", iso_2: "NO" },
        },
      ],
    });
  });

  it("searches names case-insensitively, Norwegian letters included, and org numbers", async () => {
    const names = async (term: string) =>
      ((await (await subSuppliersOf(w.shared, w.tokenA, term)).json()) as { data: Array<{ organizationName: string }> }).data.map((s) => s.organizationName);
    expect(await names("østlandsk")).toEqual(["ØSTLANDSK BETONG AS"]);
    expect(await names("ÅSEN")).toEqual(["Åsen Trelast AS"]);
    expect(await names("  bolt ")).toEqual(["Bergen Bolt AS"]);
    expect(await names("920000012")).toEqual(["Åsen Trelast AS"]);
    expect(await names("92000001")).toEqual(["Bergen Bolt AS", "ØSTLANDSK BETONG AS", "Åsen Trelast AS"]);
    expect(await names("%")).toEqual([]);
    expect(await names("_")).toEqual([]);
    expect(await names("dropped")).toEqual([]);
    expect(await names("")).toHaveLength(5);
  });

  it("gives at most 200, by name", async () => {
    const { data } = (await (await subSuppliersOf(w.large, w.tokenA)).json()) as { data: Array<{ organizationName: string }> };
    expect(data).toHaveLength(200);
    expect(data[0].organizationName).toBe("Bulk 000 AS");
    expect(data[199].organizationName).toBe("Bulk 199 AS");
  });

  it("answers 403 with the spec's message when the supplier has not shared its data", async () => {
    const res = await subSuppliersOf(w.notShared, w.tokenA);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Forbidden", message: "This organization has not shared access to its data." });
  });

  it("answers 404 for suppliers the organisation does not follow, whatever their sharing", async () => {
    for (const id of [w.followedByBOnly, w.unfollowed, w.notShared + 10_000, w.customerB, w.customerA]) {
      const res = await subSuppliersOf(id, w.tokenA);
      expect(res.status).toBe(404);
      const body = JSON.stringify(await res.json());
      expect(body).not.toContain("Only B's Sub");
      expect(body).not.toContain("shared access");
    }
    // B does not follow the private supplier: it cannot learn that it does not share.
    expect((await subSuppliersOf(w.notShared, w.tokenB)).status).toBe(404);
    expect((await subSuppliersOf(w.followedByBOnly, w.tokenB)).status).toBe(200);
  });

  it("answers 400 for a bad id or an overlong search term", async () => {
    for (const id of ["abc", "0", "-1", "2.5", ` ${w.shared}`, `0${w.shared}`, "0x10", "1e3"]) {
      const res = await subSuppliersOf(id, w.tokenA);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "Bad Request", message: "supplierOrgId must be a positive whole number" });
    }
    const long = await subSuppliersOf(w.shared, w.tokenA, "x".repeat(101));
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ message: "searchTerm: must be at most 100 characters" });
    const nul = await subSuppliersOf(w.shared, w.tokenA, "bolt\u0000");
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({ field: "searchTerm" });
  });

  it("answers 405 with Allow: GET to any other method", async () => {
    const res = await call(action, {
      request: new Request(`${BASE}/api/suppliers/${w.shared}/sub-suppliers`, { method: "POST", headers: { Authorization: `Bearer ${w.tokenA}` } }),
      params: { supplierOrgId: String(w.shared) },
      context: {},
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET");
  });

  it("needs a session (401) and registry access level 2 (403)", async () => {
    const anonymous = await subSuppliersOf(w.shared);
    expect(anonymous.status).toBe(401);
    const viewer = await subSuppliersOf(w.shared, w.viewerA);
    expect(viewer.status).toBe(403);
    expect(await viewer.json()).toMatchObject({ error: "Forbidden", message: "This needs organization access level 2 or higher." });
  });
});
