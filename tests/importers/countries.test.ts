import fs from "node:fs";
import path from "node:path";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { importCountries, ImportInputError, type ImportSummary } from "@server/importers/index";

const COUNTRIES = path.resolve("server/seed-data/countries/countries.csv");

interface CsvCountry {
  iso2: string;
  governance_percentile: string;
  co2_per_gdp_change_10y_pct: string;
}

describe("countries", () => {
  let summary: ImportSummary;

  beforeAll(async () => {
    summary = await importCountries(db(), COUNTRIES);
  });

  it("imports all 250 rows", () => {
    expect(summary).toMatchObject({ inserted: 250, updated: 0, rejectedCount: 0, rows: 250 });
  });

  it("gives Norway the values computed from its CSV row", async () => {
    const no = await db().selectFrom("countries").selectAll().where("iso2", "=", "NO").executeTakeFirstOrThrow();
    // NO,NOR,Europe & Central Asia,99.1,…,0.085,2022,-21.3: round(100 − 99.1) = 1
    expect(no).toEqual({
      iso2: "NO",
      iso3: "NOR",
      name_en: "Norway",
      name_no: "Norge",
      region: "Europe & Central Asia",
      governance_percentile: 99.1,
      risk_score: 1,
      co2_per_gdp: -21.3,
    });
  });

  it("matches the CSV computation for every country", async () => {
    const { data } = Papa.parse<CsvCountry>(fs.readFileSync(COUNTRIES, "utf8"), { header: true, skipEmptyLines: true });
    const stored = new Map((await db().selectFrom("countries").selectAll().execute()).map((c) => [c.iso2, c]));
    expect(stored.size).toBe(data.length);
    for (const row of data) {
      const c = stored.get(row.iso2)!;
      const percentile = row.governance_percentile === "" ? null : Number(row.governance_percentile);
      expect(c.risk_score).toBe(percentile === null ? null : Math.round(100 - percentile));
      expect(c.co2_per_gdp).toBe(row.co2_per_gdp_change_10y_pct === "" ? null : Number(row.co2_per_gdp_change_10y_pct));
      expect(c.name_en).not.toBe("");
    }
  });

  it("names countries in English and Norwegian, Kosovo included, and leaves unknown values null", async () => {
    const rows = await db().selectFrom("countries").selectAll().where("iso2", "in", ["SE", "XK", "AQ", "TW"]).orderBy("iso2").execute();
    expect(rows.map((r) => [r.iso2, r.name_en, r.name_no])).toEqual([
      ["AQ", "Antarctica", "Antarktis"],
      ["SE", "Sweden", "Sverige"],
      ["TW", "Taiwan", "Taiwan"],
      ["XK", "Kosovo", "Kosovo"],
    ]);
    const aq = rows[0];
    expect([aq.region, aq.risk_score, aq.co2_per_gdp, aq.governance_percentile]).toEqual([null, null, null, null]);
  });

  it("counts a second run as updates and refuses a file with another header", async () => {
    expect(await importCountries(db(), COUNTRIES)).toMatchObject({ inserted: 0, updated: 250, rejectedCount: 0 });
    await expect(importCountries(db(), path.resolve("server/seed-data/brreg/konsern-roller.csv"))).rejects.toThrow(ImportInputError);
  });
});
