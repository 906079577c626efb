import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { writeLeiRecords } from "@server/importers";
import { createLocalLeiProvider } from "@server/providers/lei/local";
import { seedDemoWorld } from "@server/seed/demo";
import { pickDemoSuppliers } from "@server/seed/demo-suppliers";
import { BRREG_REGISTRATION_AUTHORITY, DEMO_LEI_PREFIX, DEMO_MANAGING_LOU, DEMO_SUPPLIERS_WITHOUT_LEI, demoLei } from "@server/seed/lei";
import { isValidLei } from "~/models/registry/lei";

const TODAY = new Date(Date.UTC(2029, 5, 15));
const demoNumbers = pickDemoSuppliers().map((u) => u.organisasjonsnummer);
const withoutLei = new Set<string>(DEMO_SUPPLIERS_WITHOUT_LEI.map((i) => demoNumbers[i]));

const LEI_TABLES = ["lei_records", "lei_other_names", "lei_relationships", "lei_reporting_exceptions", "lei_elf_codes", "lei_fts"] as const;

async function leiCounts() {
  const out: Record<string, number> = {};
  for (const table of LEI_TABLES) {
    out[table] = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db())).rows[0].n);
  }
  return out;
}

const generatedRecords = () => db().selectFrom("lei_records").selectAll().where("lei", "like", `${DEMO_LEI_PREFIX}%`).orderBy("lei").execute();

/** Majority company owners in the store, as the registry has them (child org number → parent org number). */
async function majorityOwners(): Promise<Map<string, string>> {
  const rows = await db()
    .selectFrom("shareholdings")
    .innerJoin("companies as child", "child.id", "shareholdings.company_id")
    .innerJoin("companies as parent", "parent.id", "shareholdings.holder_company_id")
    .select(["child.org_number as child", "parent.org_number as parent"])
    .where("shareholdings.percent", ">", 50)
    .where("parent.country_code", "=", "NO")
    .where("child.country_code", "=", "NO")
    .execute();
  return new Map(rows.map((r) => [r.child, r.parent]));
}

let firstCounts: Record<string, number>;
let firstIds: { id: number; lei: string }[];

beforeAll(async () => {
  // A generated record of a company that is no longer in scope: the seed must take it out of the store and the search.
  const lei = demoLei("000000000");
  await db()
    .transaction()
    .execute((trx) =>
      writeLeiRecords(trx, [
        {
          line: 1,
          value: {
            record: { lei, legal_name: "STALE DEMO AS", registration_status: "ISSUED", legal_address_lines: "[]", hq_address_lines: "[]" },
            otherNames: [{ name: "GAMMEL DEMO AS", type: "PREVIOUS_LEGAL_NAME", lang: "no", transliterated: false }],
          },
        },
      ]),
    );

  await seedDemoWorld(db(), { today: TODAY });
  firstCounts = await leiCounts();
  firstIds = await db().selectFrom("lei_records").select(["id", "lei"]).orderBy("id").execute();
  await seedDemoWorld(db(), { today: TODAY });
}, 60_000);

describe("the demo world's LEI records", () => {
  it("is re-runnable: a second run leaves the same rows and ids", async () => {
    expect(await leiCounts()).toEqual(firstCounts);
    expect(await db().selectFrom("lei_records").select(["id", "lei"]).orderBy("id").execute()).toEqual(firstIds);
  });

  it("removes generated records of companies no longer in scope, with their names and search entries", async () => {
    const stale = await db().selectFrom("lei_records").select("lei").where("legal_name", "=", "STALE DEMO AS").execute();
    expect(stale).toEqual([]);
    expect(await db().selectFrom("lei_other_names").select("id").where("name", "=", "GAMMEL DEMO AS").execute()).toEqual([]);
    const hits = await sql<{ lei: string }>`select lei from lei_fts where lei_fts match 'STALE'`.execute(db());
    expect(hits.rows).toEqual([]);
  });

  it("holds the recorded GLEIF records, relationships, reporting exception and ELF code", async () => {
    const recorded = await db()
      .selectFrom("lei_records")
      .select(["lei", "legal_name"])
      .where("lei", "not like", `${DEMO_LEI_PREFIX}%`)
      .orderBy("lei")
      .execute();
    expect(recorded.map((r) => r.lei)).toEqual(
      [
        "21380068P1DRHMJ8KU70",
        "254900LNRYNOQ9YPU758",
        "254900MSZM6DMP853B11",
        "254900RX3NW13DDG3905",
        "335800CCCPHKUOXPC332",
        "5299001ERX0K10IZUL40",
        "529900GRZ2BQY5ZM9N49",
        "529900YR7EORVQ2U3353",
        "5493001KJTIIGC8Y1R12",
        "549300O897ZC5H7CY412",
        "549300RMUDWPHCUQNE66",
        "549300YX4S1LLSMK2627",
        "851WYGNLUQLFZBSYGB56",
        "984500983AD71E4FBC41",
        "INR2EJN1ERAN0W5ZP974",
      ].sort(),
    );
    const amazon = await db().selectFrom("lei_other_names").select(["name", "type"]).where("lei", "=", "254900LNRYNOQ9YPU758").orderBy("position").execute();
    expect(amazon[0]).toEqual({ name: "AMAZON VIDEO LIMITED", type: "PREVIOUS_LEGAL_NAME" });
    expect(amazon).toHaveLength(4);
    const edges = await db()
      .selectFrom("lei_relationships")
      .select(["child_lei", "parent_lei", "kind", "relationship_status"])
      .where("child_lei", "not like", `${DEMO_LEI_PREFIX}%`)
      .orderBy("child_lei")
      .execute();
    expect(edges).toEqual([
      { child_lei: "254900RX3NW13DDG3905", parent_lei: "5299001ERX0K10IZUL40", kind: "direct", relationship_status: "ACTIVE" },
      { child_lei: "529900YR7EORVQ2U3353", parent_lei: "5299001ERX0K10IZUL40", kind: "direct", relationship_status: "ACTIVE" },
      { child_lei: "5493001KJTIIGC8Y1R12", parent_lei: "549300RMUDWPHCUQNE66", kind: "ultimate", relationship_status: "ACTIVE" },
    ]);
    expect(await db().selectFrom("lei_reporting_exceptions").select(["lei", "kind", "reason"]).execute()).toEqual([
      { lei: "21380068P1DRHMJ8KU70", kind: "ultimate", reason: "NO_KNOWN_PERSON" },
    ]);
    const elf = await db().selectFrom("lei_elf_codes").select(["code", "name", "country_code"]).orderBy("code").execute();
    expect(elf).toEqual([
      { code: "10UR", name: "Syndicat coopératif", country_code: "CA" },
      { code: "IQGE", name: "Allmennaksjeselskap", country_code: "NO" },
      { code: "YI42", name: "Aksjeselskap", country_code: "NO" },
    ]);
  });

  it("gives generated records valid check digits, the organisation number as registered id and the registry's facts", async () => {
    const records = await generatedRecords();
    expect(records.length).toBeGreaterThan(100);
    const companies = new Map(
      (
        await db()
          .selectFrom("companies")
          .select(["org_number", "legal_name", "org_form", "street_postal_code", "street_postal_area", "country_code"])
          .where(
            "org_number",
            "in",
            records.map((r) => r.registered_as!),
          )
          .execute()
      ).map((c) => [c.org_number, c]),
    );
    const day = 86_400_000;
    for (const r of records) {
      expect(isValidLei(r.lei), r.lei).toBe(true);
      const company = companies.get(r.registered_as!);
      expect(company, r.lei).toBeDefined();
      expect(r.lei).toBe(demoLei(company!.org_number));
      expect(r).toMatchObject({
        legal_name: company!.legal_name,
        jurisdiction: "NO",
        registered_at: BRREG_REGISTRATION_AUTHORITY,
        legal_postal_code: company!.street_postal_code,
        legal_city: company!.street_postal_area,
        legal_country: "NO",
        entity_status: "ACTIVE",
        registration_status: "ISSUED",
        managing_lou: DEMO_MANAGING_LOU,
        legal_form_code: company!.org_form === "AS" ? "YI42" : company!.org_form === "ASA" ? "IQGE" : null,
      });
      expect(company!.country_code).toBe("NO");
      const renewal = Date.parse(r.next_renewal_date!);
      expect(renewal).toBeGreaterThan(TODAY.getTime());
      expect(renewal).toBeLessThanOrEqual(TODAY.getTime() + 366 * day);
    }
    // Every record of the store, generated or recorded, has valid check digits.
    for (const { lei } of firstIds) expect(isValidLei(lei), lei).toBe(true);
  });

  it("gives every demo supplier an LEI but two, which have none", async () => {
    const records = await db()
      .selectFrom("lei_records")
      .select("registered_as")
      .where("registered_as", "in", demoNumbers)
      .where("jurisdiction", "=", "NO")
      .execute();
    const have = new Set(records.map((r) => r.registered_as));
    for (const orgNumber of demoNumbers) expect(have.has(orgNumber), orgNumber).toBe(!withoutLei.has(orgNumber));
    expect(withoutLei.size).toBe(2);
  });

  it("follows the registry's majority ownership: direct parents, and the top of each chain as ultimate parent", async () => {
    const owners = await majorityOwners();
    const records = await generatedRecords();
    const withLei = new Set(records.map((r) => r.registered_as!));
    const edges = await db().selectFrom("lei_relationships").selectAll().where("child_lei", "like", `${DEMO_LEI_PREFIX}%`).execute();
    const active = edges.filter((e) => e.relationship_status === "ACTIVE");
    const direct = new Map(active.filter((e) => e.kind === "direct").map((e) => [e.child_lei, e.parent_lei]));
    const ultimate = new Map(active.filter((e) => e.kind === "ultimate").map((e) => [e.child_lei, e.parent_lei]));
    let chains = 0;
    for (const orgNumber of withLei) {
      const lei = demoLei(orgNumber);
      const owner = owners.get(orgNumber);
      if (owner && withLei.has(owner)) {
        expect(direct.get(lei), orgNumber).toBe(demoLei(owner));
        let top = owner;
        while (owners.has(top) && withLei.has(owners.get(top)!)) top = owners.get(top)!;
        expect(ultimate.get(lei), orgNumber).toBe(demoLei(top));
        if (top !== owner) chains += 1;
      } else {
        expect(direct.has(lei), orgNumber).toBe(false);
        expect(ultimate.has(lei), orgNumber).toBe(false);
      }
    }
    // Chains of more than one level exist (the demo's six-level group among them).
    expect(chains).toBeGreaterThan(10);
    // Every company in a majority-ownership chain of Norwegian companies has an LEI (but the two demo suppliers without).
    for (const [child, parent] of owners) {
      if (withoutLei.has(child) || withoutLei.has(parent)) continue;
      expect(withLei.has(child), child).toBe(true);
      expect(withLei.has(parent), parent).toBe(true);
    }
    const inactive = edges.filter((e) => e.relationship_status !== "ACTIVE");
    expect(inactive).toHaveLength(1);
    expect(inactive[0]).toMatchObject({ kind: "direct", relationship_status: "INACTIVE" });
    expect(direct.has(inactive[0].child_lei)).toBe(false);
  });

  it("has a search entry for every record", async () => {
    const counts = await leiCounts();
    expect(counts.lei_fts).toBe(counts.lei_records);
    const [first] = await generatedRecords();
    const hit = await sql<{ lei: string }>`select lei from lei_fts where rowid = ${first.id}`.execute(db());
    expect(hit.rows).toEqual([{ lei: first.lei }]);
  });
});

describe("the local LEI provider over the demo world", () => {
  const provider = createLocalLeiProvider(db);
  // Demo supplier 0: owned through two holding levels, owning three levels below (server/seed/generate/ownership.ts).
  const d0 = demoNumbers[0];

  it("answers a generated record in GLEIF's shape", async () => {
    const answer = await provider.record(demoLei(d0));
    expect(answer?.data.attributes.entity.registeredAs).toBe(d0);
    expect(answer?.data.attributes.entity.jurisdiction).toBe("NO");
    expect(answer?.data.attributes.registration.managingLou).toBe(DEMO_MANAGING_LOU);
    const lou = await provider.managingLou(demoLei(d0));
    expect(lou?.data.attributes.entity.legalName.name).toBe("Nordic Legal Entity Identifier AB");
  });

  it("answers the ultimate parent and the direct children along the ownership", async () => {
    const owners = await majorityOwners();
    let top = owners.get(d0)!;
    while (owners.has(top)) top = owners.get(top)!;
    const parent = await provider.ultimateParent(demoLei(d0));
    expect(parent?.data.attributes.lei).toBe(demoLei(top));
    expect(parent?.data.attributes.entity.registeredAs).toBe(top);
    const children = await provider.directChildren(demoLei(d0));
    const expected = [...owners].filter(([, p]) => p === d0).map(([c]) => demoLei(c));
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(children.map((c) => c.attributes.lei).sort()).toEqual(expected.sort());
  });

  it("answers the recorded relationships: Bloomberg's ultimate parent, Fraport's children, none for Shell", async () => {
    expect((await provider.ultimateParent("5493001KJTIIGC8Y1R12"))?.data.attributes.entity.legalName.name).toBe("Bloomberg Inc.");
    expect((await provider.directChildren("5299001ERX0K10IZUL40")).map((c) => c.attributes.entity.legalName.name).sort()).toEqual([
      "FRAPORT MALTA BUSINESS SERVICES LTD",
      "Lima Airport Partners S.R.L.",
    ]);
    expect(await provider.ultimateParent("21380068P1DRHMJ8KU70")).toBeNull();
  });

  it("finds generated and recorded records by name", async () => {
    const name = (await db().selectFrom("lei_records").select("legal_name").where("lei", "=", demoLei(d0)).executeTakeFirstOrThrow()).legal_name;
    const items = await provider.autocomplete(name);
    expect(items.map((i) => i.id)).toContain(demoLei(d0));
    const fraport = await provider.autocomplete("fraport");
    expect(fraport.map((i) => i.id)).toContain("5299001ERX0K10IZUL40");
  });
});
