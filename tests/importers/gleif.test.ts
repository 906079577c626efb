import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { IMPORTERS, ImportInputError, type ImportProgress, type ImportSummary } from "@server/importers/index";

/**
 * The GLEIF golden-copy importers on small files written in GLEIF's published column layouts (tests/fixtures/gleif/):
 * quoted commas and quotes, empty optional columns, unknown columns, a retired record, a bad check digit, a relationship
 * with an inactive status. Each describe block imports into this file's own database, in order.
 */

const FIXTURES = path.resolve("tests/fixtures/gleif");
const fixture = (name: string) => path.join(FIXTURES, name);

async function record(lei: string) {
  return db().selectFrom("lei_records").selectAll().where("lei", "=", lei).executeTakeFirst();
}

async function otherNames(lei: string) {
  return db().selectFrom("lei_other_names").select(["position", "name", "type", "lang", "transliterated"]).where("lei", "=", lei).orderBy("position").execute();
}

/** LEIs the full-text index finds for a MATCH expression, best first. */
async function search(match: string): Promise<string[]> {
  const { rows } = await sql<{ lei: string }>`
    select r.lei from lei_fts f join lei_records r on r.id = f.rowid where lei_fts match ${match} order by f.rank`.execute(db());
  return rows.map((r) => r.lei);
}

async function ftsRows(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from lei_fts`.execute(db());
  return rows[0].n;
}

describe("gleif-lei2: LEI-CDF golden copy", () => {
  let first: ImportSummary;
  const progress: ImportProgress[] = [];

  beforeAll(async () => {
    first = await IMPORTERS["gleif-lei2"](db(), fixture("lei2.csv"), { batchSize: 3, onProgress: (p) => progress.push(p) });
  });

  it("imports the good rows and rejects the bad ones with their line and reason", () => {
    expect(first).toMatchObject({ rows: 11, inserted: 8, updated: 0, rejectedCount: 3 });
    expect(first.rejected).toEqual([
      { line: 10, reason: 'LEI: wrong check digits (ISO 7064 MOD 97-10) (got "5299001ERX0K10IZUL41")' },
      { line: 11, reason: "Entity.LegalName: missing" },
      { line: 12, reason: 'Registration.NextRenewalDate: not an ISO 8601 date (got "05/08/2025")' },
    ]);
  });

  it("reports progress per batch, ending at the whole file", () => {
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toMatchObject({ rows: 11, rejected: 3, bytesRead: fs.statSync(fixture("lei2.csv")).size });
  });

  it("maps every field of a record; a comma inside a quoted address line stays in the line", async () => {
    expect(await record("5299001ERX0K10IZUL40")).toMatchObject({
      legal_name: "Fraport AG Frankfurt Airport Services Worldwide",
      legal_name_lang: "de",
      registered_as: "HRB 7042",
      registered_at: "RA000242",
      jurisdiction: "DE",
      legal_form_code: "6QQB",
      legal_form_other: null,
      entity_status: "ACTIVE",
      entity_category: "GENERAL",
      legal_address_lines: JSON.stringify(["Flughafen,Geb. 178"]),
      legal_postal_code: "60547",
      legal_city: "Frankfurt am Main",
      legal_region: "DE-HE",
      legal_country: "DE",
      hq_address_lines: JSON.stringify(["Flughafen,Geb. 178"]),
      hq_city: "Frankfurt am Main",
      registration_status: "ISSUED",
      initial_registration_date: "2013-06-03T13:29:41Z",
      last_update_date: "2025-04-09T08:12:40Z",
      next_renewal_date: "2026-06-03T13:29:41Z",
      managing_lou: "5299000J2N45DDNE4Y28",
      validation_sources: "FULLY_CORROBORATED",
    });
  });

  it("empty optional columns are null, address lines without blanks", async () => {
    expect(await record("254900LNRYNOQ9YPU758")).toMatchObject({
      legal_address_lines: JSON.stringify(["1 Principal Place", "Worship Street"]),
      legal_region: null,
      legal_postal_code: "EC2A 2FA",
      hq_address_lines: JSON.stringify(["1 Principal Place"]),
      hq_postal_code: null,
      legal_form_other: null,
    });
  });

  it("keeps other names and transliterated names in order, and quotes inside a quoted cell", async () => {
    expect(await otherNames("254900LNRYNOQ9YPU758")).toEqual([
      { position: 1, name: "AMAZON VIDEO LIMITED", type: "PREVIOUS_LEGAL_NAME", lang: "en", transliterated: 0 },
      { position: 2, name: "AMAZON INSTANT VIDEO LIMITED", type: "PREVIOUS_LEGAL_NAME", lang: "en", transliterated: 0 },
    ]);
    expect(await otherNames("5967007LIEEXAMPLE105")).toEqual([
      { position: 1, name: "Fjordkraft, Østlandet", type: "TRADING_OR_OPERATING_NAME", lang: "no", transliterated: 0 },
      { position: 2, name: "FJORDKRAFT OSTLANDET AS", type: "AUTO_ASCII_TRANSLITERATED_LEGAL_NAME", lang: "no", transliterated: 1 },
    ]);
    expect(await record("5967007LIEEXAMPLE105")).toMatchObject({
      registered_as: "998465001",
      legal_address_lines: JSON.stringify(["Postboks 1, Sentrum", 'c/o "Regnskap" AS']),
      initial_registration_date: "2018-01-02T08:00:00.000+01:00",
    });
  });

  it("finds records by legal name, other name, transliteration, prefix and LEI; accents folded", async () => {
    expect(await search('"fraport"*')).toEqual(["5299001ERX0K10IZUL40"]);
    expect(await search('"amazon instant"')).toEqual(["254900LNRYNOQ9YPU758"]);
    expect(await search('"ostlandet"')).toEqual(["5967007LIEEXAMPLE105"]);
    expect(await search('"bloom"*')).toHaveLength(2);
    expect(await search('"5299001ERX"*')).toEqual(["5299001ERX0K10IZUL40"]);
    expect(await search('lei:"INR2EJN1ERAN0W5ZP974"')).toEqual([]);
  });

  it("a lapsed record stays searchable; a retired one is stored but has no search entry", async () => {
    expect(await search('"nfa"')).toEqual(["335800CCCPHKUOXPC332"]);
    expect(await record("5967007LIEEXAMPLE202")).toMatchObject({ registration_status: "RETIRED", entity_status: "INACTIVE", registered_as: "923609016" });
    expect(await search('"nordlys"')).toEqual([]);
    expect(await ftsRows()).toBe(7);
  });

  describe("re-importing a newer file", () => {
    let second: ImportSummary;
    beforeAll(async () => {
      second = await IMPORTERS["gleif-lei2"](db(), fixture("lei2-newer.csv"));
    });

    it("updates in place: same ids, new values, names replaced", async () => {
      expect(second).toMatchObject({ rows: 3, inserted: 0, updated: 3, rejectedCount: 0 });
      expect(await record("5299001ERX0K10IZUL40")).toMatchObject({
        next_renewal_date: "2027-06-03T13:29:41Z",
        legal_address_lines: JSON.stringify(["Flughafen", "Gebäude 178, Raum 2"]),
      });
      expect(await otherNames("254900LNRYNOQ9YPU758")).toEqual([
        { position: 1, name: "AMAZON VIDEO LIMITED", type: "PREVIOUS_LEGAL_NAME", lang: "en", transliterated: 0 },
      ]);
      const { n } = await db()
        .selectFrom("lei_records")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(n).toBe(8);
    });

    it("keeps the search in step: a dropped other name is no longer found, a merged record leaves the search", async () => {
      expect(await search('"amazon instant"')).toEqual([]);
      expect(await search('"amazon video"')).toEqual(["254900LNRYNOQ9YPU758"]);
      expect(await record("5967007LIEEXAMPLE105")).toMatchObject({ registration_status: "MERGED", next_renewal_date: null });
      expect(await search('"fjordkraft"')).toEqual([]);
      expect(await ftsRows()).toBe(6);
    });
  });

  it("reads the CSV inside a zip, as GLEIF publishes the golden copy", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gleif-zip-"));
    const zip = path.join(dir, "20250515-0800-gleif-goldencopy-lei2-golden-copy.csv.zip");
    fs.writeFileSync(zip, zipSync({ "readme.txt": new TextEncoder().encode("not data"), "golden-copy.csv": fs.readFileSync(fixture("lei2.csv")) }));
    const summary = await IMPORTERS["gleif-lei2"](db(), zip);
    expect(summary).toMatchObject({ rows: 11, inserted: 0, updated: 8, rejectedCount: 3 });
    expect(await record("5967007LIEEXAMPLE105")).toMatchObject({ registration_status: "ISSUED" });
    expect(await search('"fjordkraft"')).toEqual(["5967007LIEEXAMPLE105"]);
  });

  it("says so when a zip ends in the middle of its CSV (a truncated download)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gleif-zip-"));
    const zip = path.join(dir, "truncated.zip");
    const whole = zipSync({ "golden-copy.csv": fs.readFileSync(fixture("lei2.csv")) }, { level: 0 });
    fs.writeFileSync(zip, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const error = await IMPORTERS["gleif-lei2"](db(), zip).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportInputError);
    expect((error as Error).message).toMatch(/truncated\.zip ends in the middle of its CSV \(a truncated download\?\)/);
    // The rows read before the break are in, and the error says how many.
    expect((error as ImportInputError).partial).toMatchObject({ rows: expect.any(Number) });
  });

  it("refuses a file that is not an LEI file, and a zip without a CSV, before writing anything", async () => {
    const before = await ftsRows();
    await expect(IMPORTERS["gleif-lei2"](db(), fixture("rr.csv"))).rejects.toThrow("Wrong header: missing column(s) LEI, Entity.LegalName");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gleif-zip-"));
    const zip = path.join(dir, "empty.zip");
    fs.writeFileSync(zip, zipSync({ "readme.txt": new TextEncoder().encode("no data") }));
    await expect(IMPORTERS["gleif-lei2"](db(), zip)).rejects.toBeInstanceOf(ImportInputError);
    await expect(IMPORTERS["gleif-lei2"](db(), zip)).rejects.toThrow(/No .csv file inside/);
    expect(await ftsRows()).toBe(before);
  });
});

describe("gleif-rr: relationship records", () => {
  let first: ImportSummary;
  beforeAll(async () => {
    first = await IMPORTERS["gleif-rr"](db(), fixture("rr.csv"));
  });

  async function relationships() {
    return db()
      .selectFrom("lei_relationships")
      .select(["child_lei", "parent_lei", "kind", "relationship_status", "registration_status", "start_date", "end_date"])
      .orderBy("child_lei")
      .orderBy("kind")
      .execute();
  }

  it("keeps consolidation parents with their status and relationship period; rejects other types and bad LEIs", async () => {
    expect(first).toMatchObject({ rows: 5, inserted: 3, updated: 0, rejectedCount: 2 });
    expect(first.rejected).toEqual([
      { line: 5, reason: "Relationship.RelationshipType: IS_INTERNATIONAL_BRANCH_OF is not a consolidation parent (not kept)" },
      { line: 6, reason: 'Relationship.EndNode.NodeID: wrong check digits (ISO 7064 MOD 97-10) (got "5299001ERX0K10IZUL41")' },
    ]);
    expect(await relationships()).toEqual([
      {
        child_lei: "5493001KJTIIGC8Y1R12",
        parent_lei: "549300RMUDWPHCUQNE66",
        kind: "direct",
        relationship_status: "ACTIVE",
        registration_status: "PUBLISHED",
        start_date: "2013-03-28T00:00:00Z",
        end_date: null,
      },
      {
        child_lei: "5493001KJTIIGC8Y1R12",
        parent_lei: "549300RMUDWPHCUQNE66",
        kind: "ultimate",
        relationship_status: "ACTIVE",
        registration_status: "PUBLISHED",
        start_date: "2013-03-28T00:00:00Z",
        end_date: null,
      },
      {
        child_lei: "5967007LIEEXAMPLE105",
        parent_lei: "5299001ERX0K10IZUL40",
        kind: "direct",
        relationship_status: "INACTIVE",
        registration_status: "LAPSED",
        start_date: "2019-01-01T00:00:00Z",
        end_date: "2024-06-30T00:00:00Z",
      },
    ]);
  });

  it("a newer file updates a relationship in place and replaces a child's former parent of the same kind", async () => {
    const second = await IMPORTERS["gleif-rr"](db(), fixture("rr-newer.csv"));
    expect(second).toMatchObject({ rows: 2, inserted: 1, updated: 1, rejectedCount: 0 });
    const rows = await relationships();
    expect(rows.map((r) => [r.child_lei, r.kind, r.parent_lei, r.relationship_status])).toEqual([
      ["5493001KJTIIGC8Y1R12", "direct", "5299001ERX0K10IZUL40", "ACTIVE"],
      ["5493001KJTIIGC8Y1R12", "ultimate", "549300RMUDWPHCUQNE66", "ACTIVE"],
      ["5967007LIEEXAMPLE105", "direct", "5299001ERX0K10IZUL40", "ACTIVE"],
    ]);
  });
});

describe("gleif-repex: reporting exceptions", () => {
  it("keeps one exception per entity and kind with its first reason and reference; rejects others", async () => {
    const summary = await IMPORTERS["gleif-repex"](db(), fixture("repex.csv"));
    expect(summary).toMatchObject({ rows: 5, inserted: 3, updated: 0, rejectedCount: 2 });
    expect(summary.rejected).toEqual([
      { line: 5, reason: "ExceptionCategory: FUND_MANAGER is not a consolidation parent category" },
      { line: 6, reason: 'LEI: not an LEI, 20 characters of A–Z0–9 (got "21380068P1DRHMJ8KU7")' },
    ]);
    const rows = await db().selectFrom("lei_reporting_exceptions").select(["lei", "kind", "reason", "reference"]).orderBy("lei").orderBy("kind").execute();
    expect(rows).toEqual([
      { lei: "21380068P1DRHMJ8KU70", kind: "direct", reason: "NO_KNOWN_PERSON", reference: "Listed, widely held, see annual report, p. 4" },
      { lei: "21380068P1DRHMJ8KU70", kind: "ultimate", reason: "NO_KNOWN_PERSON", reference: null },
      { lei: "5967007LIEEXAMPLE105", kind: "ultimate", reason: "NATURAL_PERSONS", reference: null },
    ]);
    const again = await IMPORTERS["gleif-repex"](db(), fixture("repex.csv"));
    expect(again).toMatchObject({ inserted: 0, updated: 3, rejectedCount: 2 });
  });
});

describe("gleif-elf: the ELF code list", () => {
  it("keeps each code once (its first language), with country, names and status; rejects malformed rows", async () => {
    const summary = await IMPORTERS["gleif-elf"](db(), fixture("elf.csv"));
    expect(summary).toMatchObject({ rows: 7, inserted: 4, updated: 0, rejectedCount: 2 });
    expect(summary.rejected).toEqual([
      { line: 7, reason: 'ELF Code: not 4 characters of A–Z0–9 (got "XX")' },
      { line: 8, reason: 'ELF Status ACTI/INAC: expected ACTI (or ACTV) or INAC (got "MAYBE")' },
    ]);
    const rows = await db()
      .selectFrom("lei_elf_codes")
      .select(["code", "country", "country_code", "name", "transliterated_name", "lang", "status"])
      .orderBy("code")
      .execute();
    expect(rows).toEqual([
      {
        code: "10UR",
        country: "Canada",
        country_code: "CA",
        name: "Syndicat coopératif",
        transliterated_name: "Syndicat coopératif",
        lang: "fr",
        status: "ACTI",
      },
      {
        code: "6QQB",
        country: "Germany",
        country_code: "DE",
        name: "Aktiengesellschaft",
        transliterated_name: "Aktiengesellschaft",
        lang: "de",
        status: "ACTI",
      },
      {
        code: "B4AA",
        country: "Belgium",
        country_code: "BE",
        name: "Société anonyme, SA",
        transliterated_name: "Societe anonyme, SA",
        lang: "fr",
        status: "INAC",
      },
      { code: "YI42", country: "Norway", country_code: "NO", name: "Aksjeselskap", transliterated_name: "Aksjeselskap", lang: "no", status: "ACTI" },
    ]);
  });
});
