import { beforeAll, describe, expect, it } from "vitest";
import Papa from "papaparse";
import { db } from "@server/db";
import { exportSuppliers, listSuppliers, supplierListQuery } from "~/models/suppliers/supplier-list.server";
import { action as csvAction, loader as csvLoader } from "~/routes/suppliers[.]csv";
import { loader as pageLoader } from "~/routes/_app.suppliers";
import { makeOrg, request, signedIn } from "./helpers/fixtures";
import { call, form } from "./helpers/requests";
import { createConnection } from "./helpers/factory";

/**
 * "My suppliers" (/suppliers and /suppliers.csv): the organisation's active
 * connections, searched, filtered, sorted and paged in SQL, and never
 * another organisation's.
 */

const w = {} as {
  a: number;
  b: number;
  tokenA: string;
  tokenB: string;
  viewerA: string;
  names: Record<string, number>;
  tags: Record<string, number>;
  tagOfB: number;
  connections: Record<string, number>;
};

async function connect(parent: number, child: number, values: { priority?: 0 | 1; dd?: 0 | 1; deleted?: 0 | 1; createdAt: string }): Promise<number> {
  return createConnection({
    parent,
    child,
    priority: values.priority ?? 0,
    dueDiligence: values.dd ?? 0,
    deleted: values.deleted ?? 0,
    createdAt: values.createdAt,
  });
}

async function tag(organizationId: number, title: string): Promise<number> {
  return (
    await db()
      .insertInto("organization_tags")
      .values({ organization_id: organizationId, title, created_at: "2025-01-01T00:00:00.000Z" })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

async function link(connectionId: number, tagId: number) {
  await db()
    .insertInto("organization_connection_tags")
    .values({ connection_id: connectionId, tag_id: tagId, created_at: "2025-01-01T00:00:00.000Z" })
    .execute();
}

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
      {
        iso2: "DK",
        iso3: "DNK",
        name_en: "Denmark",
        name_no: "Danmark",
        region: "Europe & Central Asia",
        risk_score: 2,
        co2_per_gdp: -35,
        governance_percentile: 98,
      },
    ])
    .execute();
  w.a = await makeOrg("Customer A AS", "customer");
  w.b = await makeOrg("Customer B AS", "customer");
  w.tokenA = await signedIn("a@list.test", w.a, 2);
  w.tokenB = await signedIn("b@list.test", w.b, 2);
  w.viewerA = await signedIn("viewer@list.test", w.a, 1);
  w.names = {
    ostland: await makeOrg("ØSTLANDSK BETONG AS", "supplier", "920000011", "NO"),
    asen: await makeOrg("Åsen Trelast AS", "supplier", "920000012", "NO"),
    bergen: await makeOrg("Bergen Bolt AS", "supplier", "920000013", "SE"),
    mjosa: await makeOrg("MJØSA MILJØ AS", "supplier", "920000014", "NO"),
    aker: await makeOrg("Aker Transport AS", "supplier", "920000015", "DK"),
    dropped: await makeOrg("Dropped Deliveries AS", "supplier", "920000016", "NO"),
    ofB: await makeOrg("Only B's Supplier AS", "supplier", "920000017", "NO"),
    formula: await makeOrg('=HYPERLINK("x") AS', "supplier", "920000018", "NO"),
  };
  w.tags = { critical: await tag(w.a, "Critical"), logistics: await tag(w.a, "Logistics") };
  w.tagOfB = await tag(w.b, "Secret B tag");
  w.connections = {
    ostland: await connect(w.a, w.names.ostland, { priority: 1, createdAt: "2025-01-05T10:00:00.000Z" }),
    asen: await connect(w.a, w.names.asen, { dd: 1, createdAt: "2025-01-03T10:00:00.000Z" }),
    bergen: await connect(w.a, w.names.bergen, { priority: 1, dd: 1, createdAt: "2025-01-04T10:00:00.000Z" }),
    mjosa: await connect(w.a, w.names.mjosa, { createdAt: "2025-01-01T10:00:00.000Z" }),
    aker: await connect(w.a, w.names.aker, { createdAt: "2025-01-02T10:00:00.000Z" }),
    dropped: await connect(w.a, w.names.dropped, { priority: 1, deleted: 1, createdAt: "2025-01-06T10:00:00.000Z" }),
    formula: await connect(w.a, w.names.formula, { createdAt: "2024-12-31T10:00:00.000Z" }),
    bOfB: await connect(w.b, w.names.ofB, { priority: 1, createdAt: "2025-01-01T10:00:00.000Z" }),
    bOstland: await connect(w.b, w.names.ostland, { createdAt: "2025-01-01T10:00:00.000Z" }),
  };
  await link(w.connections.ostland, w.tags.critical);
  await link(w.connections.aker, w.tags.logistics);
  await link(w.connections.aker, w.tags.critical);
  await link(w.connections.dropped, w.tags.critical);
  await link(w.connections.bOstland, w.tagOfB);
});

const names = async (input: Partial<Parameters<typeof listSuppliers>[0]> = {}) =>
  (await listSuppliers({ organizationId: w.a, ...input })).rows.map((r) => r.name);

describe("listSuppliers", () => {
  it("lists the organisation's active connections by name in Norwegian order, with country, tags and flags", async () => {
    const result = await listSuppliers({ organizationId: w.a });
    expect(result.total).toBe(6);
    expect(result.rows.map((r) => r.name)).toEqual([
      '=HYPERLINK("x") AS',
      "Aker Transport AS",
      "Bergen Bolt AS",
      "MJØSA MILJØ AS",
      "ØSTLANDSK BETONG AS",
      "Åsen Trelast AS",
    ]);
    const aker = result.rows.find((r) => r.name === "Aker Transport AS")!;
    expect(aker).toEqual({
      connectionId: w.connections.aker,
      supplierOrganizationId: w.names.aker,
      name: "Aker Transport AS",
      orgNumber: "920000015",
      country: { code: "DK", name: "Denmark" },
      tags: [
        { id: w.tags.critical, title: "Critical" },
        { id: w.tags.logistics, title: "Logistics" },
      ],
      isPriority: false,
      isDueDiligence: false,
      createdAt: "2025-01-02T10:00:00.000Z",
      overallRisk: null,
    });
    expect(result.rows.find((r) => r.name === "Bergen Bolt AS")).toMatchObject({
      isPriority: true,
      isDueDiligence: true,
      country: { code: "SE", name: "Sweden" },
    });
    expect((await listSuppliers({ organizationId: w.a, language: "no" })).rows.find((r) => r.name === "Bergen Bolt AS")?.country.name).toBe("Sverige");
  });

  it("never shows soft-deleted connections or another organisation's", async () => {
    const all = await names({ pageSize: 100 });
    expect(all).not.toContain("Dropped Deliveries AS");
    expect(all).not.toContain("Only B's Supplier AS");
    expect(await names({ q: "dropped" })).toEqual([]);
    expect(await names({ q: "only b" })).toEqual([]);
    // B sees its own two, with its own tag only.
    const b = await listSuppliers({ organizationId: w.b });
    expect(b.rows.map((r) => r.name)).toEqual(["Only B's Supplier AS", "ØSTLANDSK BETONG AS"]);
    expect(b.rows[1].tags).toEqual([{ id: w.tagOfB, title: "Secret B tag" }]);
    // A's list shows A's tags only on the supplier both follow.
    expect((await listSuppliers({ organizationId: w.a, q: "østlandsk" })).rows[0].tags).toEqual([{ id: w.tags.critical, title: "Critical" }]);
    // Filtering A's list by B's tag finds nothing.
    expect(await names({ tagId: w.tagOfB })).toEqual([]);
  });

  it("searches names case-insensitively, æøå included, and organisation numbers", async () => {
    expect(await names({ q: "ø" })).toEqual(["MJØSA MILJØ AS", "ØSTLANDSK BETONG AS"]);
    expect(await names({ q: "østlandsk" })).toEqual(["ØSTLANDSK BETONG AS"]);
    expect(await names({ q: "ÅSEN" })).toEqual(["Åsen Trelast AS"]);
    expect(await names({ q: "miljø" })).toEqual(["MJØSA MILJØ AS"]);
    expect(await names({ q: "  bolt " })).toEqual(["Bergen Bolt AS"]);
    expect(await names({ q: "920000012" })).toEqual(["Åsen Trelast AS"]);
    expect(await names({ q: "920 000 014" })).toEqual(["MJØSA MILJØ AS"]);
    expect(await names({ q: "%" })).toEqual([]);
    expect(await names({ q: "_" })).toEqual([]);
    expect(await names({ q: "" })).toHaveLength(6);
  });

  it("filters by tag, priority and due diligence, and combines filters", async () => {
    expect(await names({ tagId: w.tags.critical })).toEqual(["Aker Transport AS", "ØSTLANDSK BETONG AS"]);
    expect(await names({ tagId: w.tags.logistics })).toEqual(["Aker Transport AS"]);
    expect(await names({ priority: true })).toEqual(["Bergen Bolt AS", "ØSTLANDSK BETONG AS"]);
    expect(await names({ priority: false })).toEqual(['=HYPERLINK("x") AS', "Aker Transport AS", "MJØSA MILJØ AS", "Åsen Trelast AS"]);
    expect(await names({ dueDiligence: true })).toEqual(["Bergen Bolt AS", "Åsen Trelast AS"]);
    expect(await names({ dueDiligence: false })).toHaveLength(4);
    expect(await names({ priority: true, dueDiligence: true })).toEqual(["Bergen Bolt AS"]);
    expect(await names({ tagId: w.tags.critical, priority: true })).toEqual(["ØSTLANDSK BETONG AS"]);
    expect(await names({ tagId: w.tags.critical, q: "aker" })).toEqual(["Aker Transport AS"]);
    expect(await names({ tagId: w.tags.critical, q: "bergen" })).toEqual([]);
  });

  it("sorts by each column both ways", async () => {
    expect(await names({ sort: "name", dir: "desc" })).toEqual([
      "Åsen Trelast AS",
      "ØSTLANDSK BETONG AS",
      "MJØSA MILJØ AS",
      "Bergen Bolt AS",
      "Aker Transport AS",
      '=HYPERLINK("x") AS',
    ]);
    expect(await names({ sort: "orgNumber" })).toEqual([
      "ØSTLANDSK BETONG AS",
      "Åsen Trelast AS",
      "Bergen Bolt AS",
      "MJØSA MILJØ AS",
      "Aker Transport AS",
      '=HYPERLINK("x") AS',
    ]);
    expect(await names({ sort: "added", dir: "desc" })).toEqual([
      "ØSTLANDSK BETONG AS",
      "Bergen Bolt AS",
      "Åsen Trelast AS",
      "Aker Transport AS",
      "MJØSA MILJØ AS",
      '=HYPERLINK("x") AS',
    ]);
    expect(await names({ sort: "added", dir: "asc" })).toEqual([
      '=HYPERLINK("x") AS',
      "MJØSA MILJØ AS",
      "Aker Transport AS",
      "Åsen Trelast AS",
      "Bergen Bolt AS",
      "ØSTLANDSK BETONG AS",
    ]);
    // Country, then name: Denmark, Norway (four), Sweden.
    expect(await names({ sort: "country" })).toEqual([
      "Aker Transport AS",
      '=HYPERLINK("x") AS',
      "MJØSA MILJØ AS",
      "ØSTLANDSK BETONG AS",
      "Åsen Trelast AS",
      "Bergen Bolt AS",
    ]);
    expect((await names({ sort: "country", dir: "desc" }))[0]).toBe("Bergen Bolt AS");
  });

  it("pages with a stable order and keeps the page within range", async () => {
    const p1 = await listSuppliers({ organizationId: w.a, pageSize: 4 });
    const p2 = await listSuppliers({ organizationId: w.a, pageSize: 4, page: 2 });
    expect([p1.total, p1.pageCount, p1.page, p2.page]).toEqual([6, 2, 1, 2]);
    expect(p1.rows).toHaveLength(4);
    expect(p2.rows).toHaveLength(2);
    expect([...p1.rows, ...p2.rows].map((r) => r.name)).toEqual(await names());
    expect((await listSuppliers({ organizationId: w.a, pageSize: 4, page: 99 })).page).toBe(2);
    expect((await listSuppliers({ organizationId: w.a, pageSize: 1000 })).pageSize).toBe(100);
    expect((await listSuppliers({ organizationId: w.a, pageSize: 0 })).pageSize).toBe(25);
  });

  it("reads the URL leniently", () => {
    const read = (search: string) => supplierListQuery.parse(Object.fromEntries(new URLSearchParams(search)));
    expect(read("q=ø&tag=3&priority=yes&dd=no&sort=added&dir=desc&page=2&size=50")).toEqual({
      q: "ø",
      tag: "3",
      priority: true,
      dueDiligence: false,
      sort: "added",
      dir: "desc",
      page: "2",
      size: "50",
    });
    expect(read("tag=x&priority=maybe&sort=drop table&dir=up&page=-1")).toMatchObject({ priority: null, sort: "name", dir: "asc" });
  });

  it("exports every matching row, unpaged", async () => {
    expect((await exportSuppliers({ organizationId: w.a })).map((r) => r.name)).toEqual(await names());
    expect((await exportSuppliers({ organizationId: w.a, tagId: w.tags.critical })).map((r) => r.name)).toEqual(["Aker Transport AS", "ØSTLANDSK BETONG AS"]);
  });
});

describe("GET /suppliers", () => {
  it("answers the signed-in analyst's list and the organisation's tags", async () => {
    const res = await request(pageLoader, "/suppliers?q=%C3%B8&sort=name&dir=desc", {}, w.tokenA);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { list: { total: number; rows: Array<{ name: string }> }; tags: Array<{ title: string }> };
    expect(body.list.total).toBe(2);
    expect(body.list.rows.map((r) => r.name)).toEqual(["ØSTLANDSK BETONG AS", "MJØSA MILJØ AS"]);
    expect(body.tags.map((t) => t.title)).toEqual(["Critical", "Logistics"]);
  });

  it("reads a tag id only when it is written plainly (' 5' or '0x10' filter nothing)", async () => {
    const total = async (search: string) =>
      ((await (await request(pageLoader, `/suppliers?${search}`, {}, w.tokenA)).json()) as { list: { total: number } }).list.total;
    const all = await total("");
    expect(await total(`tag=${w.tags.logistics}`)).toBe(1);
    expect(await total(`tag=%20${w.tags.logistics}`)).toBe(all);
    expect(await total(`tag=0x${w.tags.logistics.toString(16)}`)).toBe(all);
    expect(await total(`tag=0${w.tags.logistics}`)).toBe(all);
  });

  it("a NUL in the search is a 400, never a 500", async () => {
    const res = await request(pageLoader, "/suppliers?q=a%00b", {}, w.tokenA);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^q:/);
  });

  it("shows B only B's suppliers and tags", async () => {
    const body = (await (await request(pageLoader, "/suppliers", {}, w.tokenB)).json()) as {
      list: { rows: Array<{ name: string }> };
      tags: Array<{ title: string }>;
    };
    expect(body.list.rows.map((r) => r.name)).toEqual(["Only B's Supplier AS", "ØSTLANDSK BETONG AS"]);
    expect(body.tags.map((t) => t.title)).toEqual(["Secret B tag"]);
  });

  it("is a level-2 screen: 403 for a viewer, sign-in redirect for a visitor", async () => {
    expect((await request(pageLoader, "/suppliers", {}, w.viewerA)).status).toBe(403);
    expect((await request(csvLoader, "/suppliers.csv", {}, w.viewerA)).status).toBe(403);
    expect((await request(pageLoader, "/suppliers")).status).toBe(302);
    expect((await request(csvLoader, "/suppliers.csv")).status).toBe(302);
  });

  it("the CSV answers 405 with Allow: GET to any other method", async () => {
    const res = await call(csvAction, { request: form("/suppliers.csv", {}), params: {}, context: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET");
  });
});

describe("GET /suppliers.csv", () => {
  const parse = async (res: Response) => {
    // Read as bytes: Response.text() drops a byte order mark.
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    return Papa.parse<string[]>(bytes.subarray(3).toString("utf8"), { skipEmptyLines: true }).data;
  };

  it("downloads the organisation's suppliers with a header, BOM, dated file name and formula-safe cells", async () => {
    const res = await request(csvLoader, "/suppliers.csv", {}, w.tokenA);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="suppliers-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = await parse(res);
    expect(rows[0]).toEqual([
      "Name",
      "Organization number",
      "Country code",
      "Country",
      "Tags",
      "Priority supplier",
      "Under due diligence",
      "Added",
      "Overall risk",
      "Risk level",
    ]);
    expect(rows).toHaveLength(7);
    expect(rows.find((r) => r[0] === "Aker Transport AS")).toEqual([
      "Aker Transport AS",
      "920000015",
      "DK",
      "Denmark",
      "Critical; Logistics",
      "No",
      "No",
      "2025-01-02",
      "",
      "",
    ]);
    // A name that starts like a formula is escaped so that a spreadsheet shows it as text.
    expect(rows.find((r) => r[1] === "920000018")?.[0]).toBe('\'=HYPERLINK("x") AS');
    const all = rows.map((r) => r[0]).join("\n");
    expect(all).not.toContain("Dropped");
    expect(all).not.toContain("Only B");
  });

  it("applies the same filters as the screen, and is scoped to the organisation", async () => {
    const filtered = await parse(await request(csvLoader, `/suppliers.csv?tag=${w.tags.critical}&priority=yes`, {}, w.tokenA));
    expect(filtered.slice(1).map((r) => r[0])).toEqual(["ØSTLANDSK BETONG AS"]);
    const b = await parse(await request(csvLoader, "/suppliers.csv", {}, w.tokenB));
    expect(b.slice(1).map((r) => r[0])).toEqual(["Only B's Supplier AS", "ØSTLANDSK BETONG AS"]);
    expect(b.find((r) => r[0] === "ØSTLANDSK BETONG AS")?.[4]).toBe("Secret B tag");
  });

  it("writes the header in the user's language", async () => {
    const user = await db().selectFrom("users").select("id").where("email", "=", "b@list.test").executeTakeFirstOrThrow();
    await db().updateTable("users").set({ language: "no" }).where("id", "=", user.id).execute();
    try {
      const rows = await parse(await request(csvLoader, "/suppliers.csv", {}, w.tokenB));
      expect(rows[0]).toEqual([
        "Navn",
        "Organisasjonsnummer",
        "Landkode",
        "Land",
        "Etiketter",
        "Prioritert leverandør",
        "Under aktsomhetsvurdering",
        "Lagt til",
        "Samlet risiko",
        "Risikonivå",
      ]);
      expect(rows[1][5]).toBe("Ja");
    } finally {
      await db().updateTable("users").set({ language: "en" }).where("id", "=", user.id).execute();
    }
  });
});

describe("the overall risk on the list (decision 036)", () => {
  const setRisk = (connectionId: number, score: number | null, band: "green" | "yellow" | "red" | null) =>
    db().updateTable("organization_connections").set({ overall_risk: score, overall_risk_band: band }).where("id", "=", connectionId).execute();

  beforeAll(async () => {
    await setRisk(w.connections.ostland, 94, "red");
    await setRisk(w.connections.asen, 34, "yellow");
    await setRisk(w.connections.bergen, 33, "green");
    await setRisk(w.connections.aker, 67, "red");
    await setRisk(w.connections.mjosa, 66, "yellow");
    // formula: not computed. B's own connection to the same supplier has its own value.
    await setRisk(w.connections.bOstland, 10, "green");
  });

  it("shows each row's stored risk, sorts by it with the not-computed ones last, and filters by band", async () => {
    const rows = (await listSuppliers({ organizationId: w.a, sort: "risk", dir: "desc" })).rows;
    expect(rows.map((r) => [r.name, r.overallRisk?.score ?? null])).toEqual([
      ["ØSTLANDSK BETONG AS", 94],
      ["Aker Transport AS", 67],
      ["MJØSA MILJØ AS", 66],
      ["Åsen Trelast AS", 34],
      ["Bergen Bolt AS", 33],
      ['=HYPERLINK("x") AS', null],
    ]);
    expect(rows[0].overallRisk).toEqual({ score: 94, band: "red" });
    expect(await names({ sort: "risk", dir: "asc" })).toEqual([
      "Bergen Bolt AS",
      "Åsen Trelast AS",
      "MJØSA MILJØ AS",
      "Aker Transport AS",
      "ØSTLANDSK BETONG AS",
      '=HYPERLINK("x") AS',
    ]);
    expect(await names({ risk: "high" })).toEqual(["Aker Transport AS", "ØSTLANDSK BETONG AS"]);
    expect(await names({ risk: "medium" })).toEqual(["MJØSA MILJØ AS", "Åsen Trelast AS"]);
    expect(await names({ risk: "low" })).toEqual(["Bergen Bolt AS"]);
    // Another organisation's value of the same supplier is its own.
    expect((await listSuppliers({ organizationId: w.b, risk: "low" })).rows.map((r) => [r.name, r.overallRisk?.score])).toEqual([["ØSTLANDSK BETONG AS", 10]]);
  });

  it("reads the filter and sort from the URL, ignoring an unknown band", async () => {
    const read = (search: string) => supplierListQuery.parse(Object.fromEntries(new URLSearchParams(search)));
    expect(read("risk=high&sort=risk&dir=desc")).toMatchObject({ risk: "high", sort: "risk", dir: "desc" });
    expect(read("risk=purple").risk).toBeUndefined();
    const res = await request(pageLoader, "/suppliers?risk=purple&sort=risk", {}, w.tokenA);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { list: { total: number } };
    expect(body.list.total).toBe(6);
  });

  it("exports the score and the level in the CSV, with the list's filter", async () => {
    const bytes = Buffer.from(await (await request(csvLoader, "/suppliers.csv?risk=high&sort=risk&dir=desc", {}, w.tokenA)).arrayBuffer());
    const rows = Papa.parse<string[]>(bytes.subarray(3).toString("utf8"), { skipEmptyLines: true }).data;
    expect(rows.slice(1).map((r) => [r[0], r[8], r[9]])).toEqual([
      ["ØSTLANDSK BETONG AS", "94", "High"],
      ["Aker Transport AS", "67", "High"],
    ]);
  });
});
