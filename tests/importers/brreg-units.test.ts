import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { importBrregUnits, ImportInputError, type ImportProgress, type ImportSummary } from "@server/importers/index";

const SAMPLE = path.resolve("server/seed-data/brreg/enheter-selection.csv");
const GROUP = path.resolve("server/seed-data/brreg/konsern-enheter.csv");

async function company(orgNumber: string) {
  return db().selectFrom("companies").selectAll().where("org_number", "=", orgNumber).executeTakeFirstOrThrow();
}

async function ftsSearch(match: string): Promise<string[]> {
  const { rows } = await sql<{ org_number: string }>`
    select c.org_number from companies_fts f join companies c on c.id = f.rowid
    where companies_fts match ${match} order by f.rank`.execute(db());
  return rows.map((r) => r.org_number);
}

describe("brreg-units CSV: the 4 924-unit sample", () => {
  let first: ImportSummary;
  const progress: ImportProgress[] = [];

  beforeAll(async () => {
    first = await importBrregUnits(db(), SAMPLE, { onProgress: (p) => progress.push(p) });
  });

  it("inserts every unit and rejects none", async () => {
    expect(first).toMatchObject({ inserted: 4924, updated: 0, rejectedCount: 0, rows: 4924 });
    expect(first.rejected).toEqual([]);
    const { n } = await db()
      .selectFrom("companies")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(n).toBe(4924);
  });

  it("reports progress per batch and ends at the whole file", () => {
    expect(progress.length).toBeGreaterThanOrEqual(5);
    const last = progress[progress.length - 1];
    expect(last.rows).toBe(4924);
    expect(last.bytesRead).toBe(fs.statSync(SAMPLE).size);
    expect(last.totalBytes).toBe(fs.statSync(SAMPLE).size);
  });

  it("maps a sole proprietorship: '/n' in an address cell becomes a line break, empty cells null", async () => {
    const c = await company("998465001");
    expect(c).toMatchObject({
      legal_name: "AKTIVTEK CZAPSKI",
      org_form: "ENK",
      org_form_description: "Enkeltpersonforetak",
      industry_code: "41.200",
      industry_description: "Oppføring av bygninger",
      number_of_employees: null,
      establishment_date: null,
      registration_date: "2012-06-06",
      street_address: "Siggerudveien 994",
      street_postal_code: "1425",
      street_postal_area: "SKI",
      municipality: "NORDRE FOLLO",
      postal_address: "c/o Jan Czapski\nSiggerudveien 994",
      country_code: "NO",
      website: null,
      purpose: null,
      activity: "Tømrerarbeid, snekkerarbeid, murerarbeid, malerarbeid, montering av ventilasjon, våtromsarbeid.",
      is_vat_registered: 1,
      is_bankrupt: 0,
      is_under_liquidation: 0,
      is_active: 1,
      deleted_at: null,
      source: "brreg-csv",
    });
  });

  it("keeps employees, dates, a three-line address and '/n' that is text, not a line break", async () => {
    expect(await company("832175692")).toMatchObject({ legal_name: "WAYS AS", number_of_employees: 5, establishment_date: "2023-07-07" });
    expect((await company("991428275")).street_address).toBe("c/o Ingebrigt Haugset\nSemingshaug\nTrondheimsvegen 1747");
    const rehab = await db().selectFrom("companies").select("activity").where("activity", "like", "Rehabilitering/nybygg%").execute();
    expect(rehab).toHaveLength(1);
  });

  it("marks bankrupt units and units in liquidation inactive", async () => {
    const bankrupt = await company("997097378");
    expect(bankrupt).toMatchObject({ is_bankrupt: 1, is_active: 0 });
    expect(bankrupt.date_of_bankruptcy).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const counts = await db()
      .selectFrom("companies")
      .select((eb) => [
        eb.fn.sum<number>("is_bankrupt").as("bankrupt"),
        eb.fn.sum<number>("is_under_liquidation").as("liquidation"),
        eb.fn.countAll<number>().filterWhere("is_active", "=", 0).as("inactive"),
      ])
      .executeTakeFirstOrThrow();
    expect(counts.bankrupt).toBe(18);
    expect(counts.liquidation).toBeGreaterThanOrEqual(22);
    expect(counts.inactive).toBeGreaterThanOrEqual(counts.liquidation);
  });

  it("finds companies by name prefix and by exact organisation number", async () => {
    const aker = await ftsSearch("aker*");
    expect(aker.length).toBeGreaterThan(0);
    const names = await db().selectFrom("companies").select("legal_name").where("org_number", "in", aker).execute();
    for (const { legal_name } of names) expect(legal_name).toMatch(/\baker/i);
    expect(await ftsSearch('"998465001"')).toEqual(["998465001"]);
    expect(await ftsSearch('org_number:"99846500"*')).toContain("998465001");
    expect(await ftsSearch("tønsberglivet")).toEqual(["993020923"]);
  });

  it("re-import changes nothing but the rows it refreshes", async () => {
    const again = await importBrregUnits(db(), SAMPLE);
    expect(again).toMatchObject({ inserted: 0, updated: 4924, rejectedCount: 0 });
    const { n } = await db()
      .selectFrom("companies")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(n).toBe(4924);
    await sql`insert into companies_fts (companies_fts) values ('integrity-check')`.execute(db());
  });

  it("keeps the full-text index in step with renames and deletions", async () => {
    const { id } = await company("920024785");
    await db().updateTable("companies").set({ legal_name: "QUIXOTIC RENAMED AS" }).where("id", "=", id).execute();
    expect(await ftsSearch("quixot*")).toEqual(["920024785"]);
    expect(await ftsSearch('"BERNHARD MOE"')).toEqual([]);
    await db().deleteFrom("companies").where("id", "=", id).execute();
    expect(await ftsSearch("quixot*")).toEqual([]);
    await sql`insert into companies_fts (companies_fts) values ('integrity-check')`.execute(db());
  });
});

describe("brreg-units input handling", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "brreg-units-"));

  it("reads gzip transparently, with progress in compressed bytes", async () => {
    const file = path.join(tmp, "konsern-enheter.csv.gz");
    fs.writeFileSync(file, gzipSync(fs.readFileSync(GROUP)));
    let last: ImportProgress | undefined;
    const summary = await importBrregUnits(db(), file, { onProgress: (p) => (last = p) });
    expect(summary).toMatchObject({ inserted: 23, updated: 0, rejectedCount: 0 });
    expect(last?.bytesRead).toBe(fs.statSync(file).size);
    expect(await company("893821872")).toMatchObject({
      legal_name: "AKER SOLUTIONS FINLAND OY",
      org_form: "UTLA",
      country_code: "FI",
      street_address: "Friitalantie 14",
      street_postal_area: "28400 Ulvila",
      postal_address: "c/o Kværner Holding AS, Postboks 74",
    });
  });

  it("refuses a file without the unit columns, a missing file and an unknown extension", async () => {
    await expect(importBrregUnits(db(), path.resolve("server/seed-data/brreg/konsern-roller.csv"))).rejects.toThrow(ImportInputError);
    await expect(importBrregUnits(db(), path.join(tmp, "missing.csv"))).rejects.toThrow(/Cannot read/);
    const odd = path.join(tmp, "units.txt");
    fs.writeFileSync(odd, "x");
    await expect(importBrregUnits(db(), odd)).rejects.toThrow(/Cannot tell the format/);
  });
});
