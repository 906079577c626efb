import http from "node:http";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@server/db";
import { action as autocompleteAction, loader as autocomplete } from "~/routes/api.lei-api.autocomplete";
import { loader as record } from "~/routes/api.lei-api.record";
import { loader as directChildren } from "~/routes/api.lei-api.direct_children";
import { loader as ultimateParent } from "~/routes/api.lei-api.ultimate_parent";
import { loader as relationship } from "~/routes/api.lei-api.relationship";
import { leiElfName, withLegalFormName } from "~/models/registry/lei-api.server";
import { makeOrg, request, signedIn, type Loader } from "../helpers/fixtures";
import { listenOnLoopback } from "../helpers/loopback";
import { readFixtureJson } from "../helpers/replay-server";
import { call, form } from "../helpers/requests";

/** The recorded real GLEIF API v1 answers (CC0). */
function gleifFixture<T = unknown>(name: string): T {
  return readFixtureJson<T>(fileURLToPath(new URL(`../fixtures/gleif/${name}`, import.meta.url)));
}

const FRAPORT = "5299001ERX0K10IZUL40"; // two children, no ultimate parent, managing-LOU call fails here
const BLOOMBERG = "5493001KJTIIGC8Y1R12"; // no children, ultimate parent, managing LOU recorded
const EXCEPTION = "21380068P1DRHMJ8KU70"; // ultimate parent: reporting exception
const UNKNOWN = "529900UNKNOWN0000021"; // well formed (valid check digits), no record
const BROKEN = "529900BROKEN00000023"; // well formed; GLEIF answers 500

const w = {} as { analyst: string; viewer: string; server: { baseUrl: string; close: () => Promise<void> }; environment: Record<string, string | undefined> };

function fakeGleifAnswer(path: string, query: URLSearchParams): { status: number; body: unknown } {
  const multi = gleifFixture<{ data: Array<{ id: string }> }>("multi_lei_records.json");
  const ok = (body: unknown) => ({ status: 200, body });
  if (path === "/autocompletions" && query.get("q") === "global") return ok(gleifFixture("autocompletions_all.json"));
  if (path === `/lei-records/${FRAPORT}`) return ok(gleifFixture(`single_lei_record_${FRAPORT}.json`));
  for (const lei of [BLOOMBERG, EXCEPTION]) if (path === `/lei-records/${lei}`) return ok({ data: multi.data.find((r) => r.id === lei) });
  if (path === `/lei-records/${FRAPORT}/direct-children`) return ok(gleifFixture(`direct-children_${FRAPORT}.json`));
  if (path === `/lei-records/${BLOOMBERG}/direct-children`) return ok(gleifFixture(`direct-children_${BLOOMBERG}.json`));
  if (path === `/lei-records/${BLOOMBERG}/ultimate-parent`) return ok(gleifFixture(`ultimate-parent_${BLOOMBERG}.json`));
  if (path === `/lei-records/${EXCEPTION}/ultimate-parent`) return ok(gleifFixture(`ultimate-parent-reporting-exception_${EXCEPTION}.json`));
  if (path === `/lei-records/${BLOOMBERG}/managing-lou`) return ok(gleifFixture(`managing-lou_${BLOOMBERG}.json`));
  if (path.startsWith(`/lei-records/${BROKEN}`) || path === `/lei-records/${FRAPORT}/managing-lou`)
    return { status: 500, body: { errors: [{ status: "500" }] } };
  return { status: 404, body: { errors: [{ status: "404", title: "Not Found" }] } };
}

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const answer = fakeGleifAnswer(url.pathname, url.searchParams);
    res.writeHead(answer.status, { "Content-Type": "application/vnd.api+json" });
    res.end(JSON.stringify(answer.body));
  });
  w.server = await listenOnLoopback(server);
  w.environment = { LEI_PROVIDER: process.env.LEI_PROVIDER, GLEIF_API_URL: process.env.GLEIF_API_URL };
  process.env.LEI_PROVIDER = "gleif";
  process.env.GLEIF_API_URL = w.server.baseUrl;
  // Rows of GLEIF's ELF list as `npm run import -- gleif-elf` stores them (the Greek row is a test row).
  const elf = { status: "ACTV", updated_at: "2025-05-15T00:00:00Z" };
  await db()
    .insertInto("lei_elf_codes")
    .values([
      { ...elf, code: "6QQB", country: "Germany", country_code: "DE", name: "Aktiengesellschaft", transliterated_name: "Aktiengesellschaft", lang: "de" },
      { ...elf, code: "GRT1", country: "Greece", country_code: "GR", name: "Ανώνυμη Εταιρεία", transliterated_name: "Anonymi Etaireia", lang: "el" },
    ])
    .execute();
  const org = await makeOrg("LEI Customer AS", "customer");
  w.analyst = await signedIn("analyst@lei.test", org, 2);
  w.viewer = await signedIn("viewer@lei.test", org, 1);
});

afterAll(async () => {
  for (const [key, value] of Object.entries(w.environment)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await w.server.close();
});

const asAnalyst = (loader: Loader, url: string) => request(loader, url, {}, w.analyst);

async function expectError(response: Response, status: number, message?: RegExp) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: string; message: string };
  if (message) expect(body.message).toMatch(message);
}

describe("who may call /api/lei-api/*", () => {
  it.each([
    ["autocomplete", autocomplete, "/api/lei-api/autocomplete?term=global"],
    ["record", record, `/api/lei-api/record?lei=${FRAPORT}`],
    ["direct_children", directChildren, `/api/lei-api/direct_children?lei=${FRAPORT}`],
    ["ultimate_parent", ultimateParent, `/api/lei-api/ultimate_parent?lei=${FRAPORT}`],
    ["relationship", relationship, `/api/lei-api/relationship?lei=${FRAPORT}&path=managing-lou`],
  ] as const)("%s: 401 for a visitor, 403 below access level 2", async (_name, loader, url) => {
    await expectError(await request(loader, url), 401);
    await expectError(await request(loader, url, {}, w.viewer), 403);
  });

  it("is GET only", async () => {
    await expectError(await call(autocompleteAction, { request: form("/api/lei-api/autocomplete", { term: "x" }), params: {}, context: {} }), 405);
  });
});

describe("GET /api/lei-api/autocomplete", () => {
  it("answers GLEIF's items, with and without relationships", async () => {
    const response = await asAnalyst(autocomplete, "/api/lei-api/autocomplete?term=%20global%20");
    expect(response.status).toBe(200);
    const items = (await response.json()) as Array<{ attributes: { value: string; highlighting: string }; relationships?: unknown }>;
    expect(items).toHaveLength(10);
    expect(items[2]).toMatchObject({
      attributes: { value: "B GLOBAL", highlighting: "B <b>GLOBAL</b>" },
      relationships: { "lei-records": { data: { type: "lei-records", id: "984500B447P639364M33" } } },
    });
    expect(items[0].relationships).toBeUndefined();
  });

  it("answers [] for a blank or missing term", async () => {
    for (const url of ["/api/lei-api/autocomplete?term=%20%20", "/api/lei-api/autocomplete"]) {
      const response = await asAnalyst(autocomplete, url);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([]);
    }
  });

  it("refuses an overlong term with 400", async () => {
    await expectError(await asAnalyst(autocomplete, `/api/lei-api/autocomplete?term=${"a".repeat(201)}`), 400, /term/);
  });
});

describe("GET /api/lei-api/record", () => {
  it("answers the record under data.attributes, also for a lower-case LEI", async () => {
    const response = await asAnalyst(record, `/api/lei-api/record?lei=${FRAPORT.toLowerCase()}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: string; attributes: Record<string, unknown> } };
    expect(body.data.id).toBe(FRAPORT);
    expect(body.data.attributes.lei).toBe(FRAPORT);
    expect(body.data.attributes.entity).toMatchObject({
      legalName: { name: "Fraport AG Frankfurt Airport Services Worldwide" },
      registeredAs: "HRB 7042",
      jurisdiction: "DE",
      legalForm: { id: "6QQB" },
      status: "ACTIVE",
      legalAddress: { addressLines: ["Flughafen,Geb. 178"], postalCode: "60547", city: "Frankfurt am Main", country: "DE", region: "DE-HE" },
      otherNames: [],
    });
    expect(body.data.attributes.registration).toMatchObject({ status: "ISSUED", nextRenewalDate: "2026-06-03T13:29:41Z", managingLou: "5299000J2N45DDNE4Y28" });
  });

  it("adds the legal form's ELF name from the store's ELF list, null for a code the list lacks", async () => {
    const fraport = (await (await asAnalyst(record, `/api/lei-api/record?lei=${FRAPORT}`)).json()) as {
      data: { attributes: { entity: Record<string, unknown> } };
    };
    expect(fraport.data.attributes.entity.legalForm).toEqual({ id: "6QQB", other: null, name: "Aktiengesellschaft" });
    const bloomberg = (await (await asAnalyst(record, `/api/lei-api/record?lei=${BLOOMBERG}`)).json()) as {
      data: { attributes: { entity: Record<string, unknown> } };
    };
    expect(bloomberg.data.attributes.entity.legalForm).toEqual({ id: "T91T", other: null, name: null });
  });

  it.each([
    ["missing", "/api/lei-api/record", /lei: is required/],
    ["too short", "/api/lei-api/record?lei=5299001ERX0K10IZUL4", /not a valid LEI/],
    ["wrong check digits", "/api/lei-api/record?lei=5299001ERX0K10IZUL41", /not a valid LEI/],
    ["not A–Z0–9", "/api/lei-api/record?lei=5299001ERX0K10IZUL%C3%984", /not a valid LEI/],
  ])("400 for a %s LEI", async (_case, url, message) => {
    await expectError(await asAnalyst(record, url), 400, message);
  });

  it("404 for an unknown LEI, 502 when GLEIF fails", async () => {
    await expectError(await asAnalyst(record, `/api/lei-api/record?lei=${UNKNOWN}`), 404, new RegExp(UNKNOWN));
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await expectError(await asAnalyst(record, `/api/lei-api/record?lei=${BROKEN}`), 502, /could not be reached/);
    expect(logged).toHaveBeenCalledWith("LEI provider failed", expect.objectContaining({ provider: "gleif", kind: "http", status: 500 }));
    logged.mockRestore();
  });
});

describe("the ELF name of a legal form", () => {
  it("is the local name, its transliteration when that is not in Latin script, null for no or an unknown code", async () => {
    expect(await leiElfName("6QQB")).toBe("Aktiengesellschaft");
    expect(await leiElfName("GRT1")).toBe("Anonymi Etaireia");
    expect(await leiElfName("8888")).toBeNull();
    expect(await leiElfName(null)).toBeNull();
  });

  it("is null when the lookup fails, without failing the record", async () => {
    const answer = gleifFixture<Awaited<ReturnType<typeof withLegalFormName>>>(`single_lei_record_${FRAPORT}.json`);
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await sql`alter table lei_elf_codes rename to lei_elf_codes_away`.execute(db());
    try {
      const named = await withLegalFormName(answer);
      expect(named.data.attributes.entity.legalForm).toEqual({ id: "6QQB", other: null, name: null });
      expect(named.data.attributes.entity.legalName).toEqual(answer.data.attributes.entity.legalName);
      expect(warned).toHaveBeenCalledWith(expect.stringContaining("ELF name lookup failed for 6QQB"));
    } finally {
      await sql`alter table lei_elf_codes_away rename to lei_elf_codes`.execute(db());
      warned.mockRestore();
    }
  });
});

describe("GET /api/lei-api/direct_children", () => {
  it("answers the children as an array of records, [] when there are none", async () => {
    const response = await asAnalyst(directChildren, `/api/lei-api/direct_children?lei=${FRAPORT}`);
    expect(response.status).toBe(200);
    const children = (await response.json()) as Array<{ id: string; attributes: { entity: { legalName: { name: string } } } }>;
    expect(children.map((c) => c.id)).toEqual(["254900RX3NW13DDG3905", expect.any(String)]);
    expect(children[0].attributes.entity.legalName.name).toBe("Lima Airport Partners S.R.L.");

    const none = await asAnalyst(directChildren, `/api/lei-api/direct_children?lei=${BLOOMBERG}`);
    expect(await none.json()).toEqual([]);
  });

  it("400 for a malformed LEI, 404 for an unknown one", async () => {
    await expectError(await asAnalyst(directChildren, "/api/lei-api/direct_children?lei=nope"), 400, /not a valid LEI/);
    await expectError(await asAnalyst(directChildren, `/api/lei-api/direct_children?lei=${UNKNOWN}`), 404);
  });
});

describe("GET /api/lei-api/ultimate_parent", () => {
  it("answers { data } with the parent's record", async () => {
    const response = await asAnalyst(ultimateParent, `/api/lei-api/ultimate_parent?lei=${BLOOMBERG}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: string; attributes: { entity: { legalName: { name: string } } } } };
    expect(body.data.id).toBe("549300RMUDWPHCUQNE66");
    expect(body.data.attributes.entity.legalName.name).toBe("Bloomberg Inc.");
  });

  it("answers {} when there is no parent and for a reporting exception", async () => {
    for (const lei of [FRAPORT, EXCEPTION]) {
      const response = await asAnalyst(ultimateParent, `/api/lei-api/ultimate_parent?lei=${lei}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
    }
  });

  it("400 for a malformed LEI, 404 for an unknown one", async () => {
    await expectError(await asAnalyst(ultimateParent, "/api/lei-api/ultimate_parent?lei=5299001ERX0K10IZUL41"), 400);
    await expectError(await asAnalyst(ultimateParent, `/api/lei-api/ultimate_parent?lei=${UNKNOWN}`), 404);
  });
});

describe("GET /api/lei-api/relationship", () => {
  it("answers the managing LOU's record for path=managing-lou", async () => {
    const response = await asAnalyst(relationship, `/api/lei-api/relationship?lei=${BLOOMBERG}&path=managing-lou`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { attributes: { lei: string; entity: { legalName: { name: string } } } } };
    expect(body.data.attributes.entity.legalName.name).toBe("Bloomberg Finance L.P.");
    expect(body.data.attributes.lei).toBe(BLOOMBERG);
  });

  it("answers 404 when the managing-LOU lookup fails (the modal then shows the raw value)", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await expectError(await asAnalyst(relationship, `/api/lei-api/relationship?lei=${FRAPORT}&path=managing-lou`), 404, /managing LOU/);
    expect(warned).toHaveBeenCalledWith(expect.stringContaining(`GLEIF managing-LOU lookup failed for ${FRAPORT}`));
    warned.mockRestore();
  });

  it.each([
    ["another path", `/api/lei-api/relationship?lei=${BLOOMBERG}&path=ultimate-parent`, /path: must be managing-lou/],
    ["no path", `/api/lei-api/relationship?lei=${BLOOMBERG}`, /path/],
    ["a malformed LEI", "/api/lei-api/relationship?lei=123&path=managing-lou", /not a valid LEI/],
  ])("400 for %s", async (_case, url, message) => {
    await expectError(await asAnalyst(relationship, url), 400, message);
  });

  it("404 for an unknown LEI", async () => {
    await expectError(await asAnalyst(relationship, `/api/lei-api/relationship?lei=${UNKNOWN}&path=managing-lou`), 404, /No LEI record/);
  });
});

describe("the local provider (the store) behind the same routes", () => {
  const LIMA = "254900RX3NW13DDG3905";
  const LOU = "5299000J2N45DDNE4Y28";
  const FORMER = "549300RMUDWPHCUQNE66"; // a child whose relationship is inactive
  const AIRPORT = "529900AIRPORTSERVI07";

  beforeAll(async () => {
    process.env.LEI_PROVIDER = "local";
    const at = "2025-05-15T00:00:00Z";
    const base = { registration_status: "ISSUED", entity_status: "ACTIVE", updated_at: at, legal_address_lines: "[]", hq_address_lines: "[]" };
    const rows = [
      {
        ...base,
        id: 9001,
        lei: FRAPORT,
        legal_name: "Fraport AG Frankfurt Airport Services Worldwide",
        legal_name_lang: "de",
        registered_as: "HRB 7042",
        registered_at: "RA000242",
        jurisdiction: "DE",
        legal_form_code: "6QQB",
        legal_address_lines: JSON.stringify(["Flughafen,Geb. 178"]),
        legal_postal_code: "60547",
        legal_city: "Frankfurt am Main",
        legal_region: "DE-HE",
        legal_country: "DE",
        next_renewal_date: "2026-06-03T13:29:41Z",
        managing_lou: LOU,
      },
      {
        ...base,
        id: 9002,
        lei: LIMA,
        legal_name: "Lima Airport Partners S.R.L.",
        jurisdiction: "PE",
        legal_country: "PE",
        managing_lou: "5299000J2N45DDNE4Y29",
      },
      { ...base, id: 9003, lei: LOU, legal_name: "Managing LOU (test row)", legal_country: "DE" },
      { ...base, id: 9004, lei: FORMER, legal_name: "Former Subsidiary Inc.", legal_country: "US" },
      { ...base, id: 9005, lei: AIRPORT, legal_name: "Airport Services International Holding Group AS", legal_country: "NO" },
    ];
    await db().insertInto("lei_records").values(rows).execute();
    await db()
      .insertInto("lei_other_names")
      .values([
        { lei: LIMA, position: 1, name: "LAP Peru", type: "TRADING_OR_OPERATING_NAME", lang: "es", transliterated: 0 },
        { lei: LIMA, position: 2, name: "LIMA AIRPORT PARTNERS SRL", type: "AUTO_ASCII_TRANSLITERATED_LEGAL_NAME", lang: null, transliterated: 1 },
      ])
      .execute();
    const edge = { relationship_status: "ACTIVE", updated_at: at, start_date: "2001-02-14" };
    await db()
      .insertInto("lei_relationships")
      .values([
        { ...edge, child_lei: LIMA, parent_lei: FRAPORT, kind: "direct" },
        { ...edge, child_lei: LIMA, parent_lei: FRAPORT, kind: "ultimate" },
        { ...edge, child_lei: FORMER, parent_lei: FRAPORT, kind: "direct", relationship_status: "INACTIVE" },
      ])
      .execute();
    await db()
      .insertInto("lei_reporting_exceptions")
      .values({ lei: FRAPORT, kind: "ultimate", reason: "NON_CONSOLIDATING", reference: null, updated_at: at })
      .execute();
    for (const row of rows) {
      const others = row.lei === LIMA ? "LAP Peru\nLIMA AIRPORT PARTNERS SRL" : "";
      await sql`insert into lei_fts (rowid, lei, legal_name, other_names) values (${row.id}, ${row.lei}, ${row.legal_name}, ${others})`.execute(db());
    }
  });

  afterAll(() => {
    process.env.LEI_PROVIDER = "gleif";
  });

  it("suggests by prefix of the legal name, with the match highlighted", async () => {
    const response = await asAnalyst(autocomplete, "/api/lei-api/autocomplete?term=fra%20airp");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      {
        type: "autocompletions",
        id: FRAPORT,
        attributes: {
          value: "Fraport AG Frankfurt Airport Services Worldwide",
          highlighting: "<b>Fraport</b> AG <b>Frankfurt</b> <b>Airport</b> Services Worldwide",
          legalName: { name: "Fraport AG Frankfurt Airport Services Worldwide" },
        },
        relationships: { "lei-records": { data: { type: "lei-records", id: FRAPORT } } },
      },
    ]);
  });

  it("puts names that start with the text first, then shorter names", async () => {
    const items = (await (await asAnalyst(autocomplete, "/api/lei-api/autocomplete?term=airport")).json()) as Array<{ id: string }>;
    expect(items.map((item) => item.id)).toEqual([AIRPORT, LIMA, FRAPORT]);
  });

  it("suggests by another name (showing that name) and by the start of the LEI", async () => {
    const byOtherName = (await (await asAnalyst(autocomplete, "/api/lei-api/autocomplete?term=lap")).json()) as Array<Record<string, unknown>>;
    expect(byOtherName).toMatchObject([
      { id: LIMA, attributes: { value: "LAP Peru", highlighting: "<b>LAP</b> Peru", legalName: { name: "Lima Airport Partners S.R.L." } } },
    ]);

    const byLei = (await (await asAnalyst(autocomplete, "/api/lei-api/autocomplete?term=254900rx")).json()) as Array<Record<string, unknown>>;
    // As GLEIF does, the matched text is the value; the legal name comes along for the result list.
    expect(byLei).toMatchObject([
      { id: LIMA, attributes: { value: LIMA, highlighting: `<b>${LIMA}</b>`, legalName: { name: "Lima Airport Partners S.R.L." } } },
    ]);

    expect(await (await asAnalyst(autocomplete, "/api/lei-api/autocomplete?term=%22%2A%20")).json()).toEqual([]);
  });

  it("builds the record in GLEIF's shape", async () => {
    const body = (await (await asAnalyst(record, `/api/lei-api/record?lei=${LIMA}`)).json()) as { data: Record<string, unknown> };
    expect(body.data).toMatchObject({
      type: "lei-records",
      id: LIMA,
      attributes: {
        lei: LIMA,
        entity: {
          legalName: { name: "Lima Airport Partners S.R.L." },
          otherNames: [{ name: "LAP Peru", type: "TRADING_OR_OPERATING_NAME", language: "es" }],
          transliteratedOtherNames: [{ name: "LIMA AIRPORT PARTNERS SRL", type: "AUTO_ASCII_TRANSLITERATED_LEGAL_NAME" }],
          legalAddress: { addressLines: [], country: "PE" },
          legalForm: { id: null, other: null, name: null },
          status: "ACTIVE",
        },
        registration: { status: "ISSUED", nextRenewalDate: null },
      },
    });
    const fraport = (await (await asAnalyst(record, `/api/lei-api/record?lei=${FRAPORT}`)).json()) as { data: { attributes: Record<string, unknown> } };
    expect(fraport.data.attributes).toMatchObject({
      entity: {
        registeredAs: "HRB 7042",
        legalForm: { id: "6QQB", other: null, name: "Aktiengesellschaft" },
        legalAddress: { addressLines: ["Flughafen,Geb. 178"], postalCode: "60547", city: "Frankfurt am Main", region: "DE-HE", country: "DE" },
      },
      registration: { nextRenewalDate: "2026-06-03T13:29:41Z", managingLou: LOU },
    });
    await expectError(await asAnalyst(record, `/api/lei-api/record?lei=${UNKNOWN}`), 404);
  });

  it("lists active direct children only, and the ultimate parent ({} for a reporting exception)", async () => {
    const children = (await (await asAnalyst(directChildren, `/api/lei-api/direct_children?lei=${FRAPORT}`)).json()) as Array<{ id: string }>;
    expect(children.map((c) => c.id)).toEqual([LIMA]);
    expect(await (await asAnalyst(directChildren, `/api/lei-api/direct_children?lei=${LIMA}`)).json()).toEqual([]);

    const parent = (await (await asAnalyst(ultimateParent, `/api/lei-api/ultimate_parent?lei=${LIMA}`)).json()) as { data: { id: string } };
    expect(parent.data.id).toBe(FRAPORT);
    expect(await (await asAnalyst(ultimateParent, `/api/lei-api/ultimate_parent?lei=${FRAPORT}`)).json()).toEqual({});
  });

  it("resolves the managing LOU, and 404 when its record is not in the store", async () => {
    const lou = (await (await asAnalyst(relationship, `/api/lei-api/relationship?lei=${FRAPORT}&path=managing-lou`)).json()) as {
      data: { attributes: { lei: string; entity: { legalName: { name: string } } } };
    };
    expect(lou.data.attributes.lei).toBe(LOU);
    expect(lou.data.attributes.entity.legalName.name).toBe("Managing LOU (test row)");
    await expectError(await asAnalyst(relationship, `/api/lei-api/relationship?lei=${LIMA}&path=managing-lou`), 404, /managing LOU/);
  });
});
