import type { Kysely } from "kysely";
import { z } from "zod";
import type { CountryTable, DB } from "../db-types";
import { openInput, readCsv } from "./input";
import { errorMessage, ImportRun, type BatchResult, type Staged } from "./run";
import type { ImportOptions, ImportSummary } from "./types";
import { describeIssues } from "./validation";

/**
 * Country reference data from `countries.csv` (see server/seed-data/countries/SOURCES.md).
 *
 * Names: the file carries codes only. English and Norwegian names come from
 * the ICU data built into Node (`Intl.DisplayNames` with 'en' and 'nb', the
 * Bokmål locale the app's 'no' stands for), so they match what the browser
 * shows for the same code and need no name list of our own to maintain. A
 * code ICU does not know (it answers with the code itself) keeps the code as
 * its name.
 *
 * risk_score = round(100 − governance_percentile), the World Bank Control of
 * Corruption percentile turned into "higher = riskier"; co2_per_gdp = the
 * file's 10-year change of CO2 intensity in percent (what the supplier
 * geography section colours).
 */

export const COUNTRIES_COLUMNS = ["iso2", "iso3", "region", "governance_percentile", "co2_per_gdp_change_10y_pct"] as const;

const namesEn = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
const namesNo = new Intl.DisplayNames(["nb"], { type: "region", fallback: "code" });

const optionalNumber = (check: (n: number) => boolean, message: string) =>
  z
    .string()
    .trim()
    .refine((s) => s === "" || (/^-?\d+(\.\d+)?$/.test(s) && check(Number(s))), { error: message })
    .transform((s) => (s === "" ? null : Number(s)));

const countrySchema = z.object({
  iso2: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/, { error: "not an ISO 3166-1 alpha-2 code" }),
  iso3: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, { error: "not an ISO 3166-1 alpha-3 code" }),
  region: z.string().transform((s) => s.trim() || null),
  governance_percentile: optionalNumber((n) => n >= 0 && n <= 100, "not a percentile between 0 and 100"),
  co2_per_gdp_change_10y_pct: optionalNumber(Number.isFinite, "not a number"),
});

export function countryFromRow(raw: Record<string, string>): { ok: true; country: CountryTable } | { ok: false; reason: string } {
  const parsed = countrySchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error, raw) };
  const r = parsed.data;
  const percentile = r.governance_percentile;
  return {
    ok: true,
    country: {
      iso2: r.iso2,
      iso3: r.iso3,
      name_en: namesEn.of(r.iso2) ?? r.iso2,
      name_no: namesNo.of(r.iso2) ?? r.iso2,
      region: r.region,
      risk_score: percentile === null ? null : Math.round(100 - percentile),
      co2_per_gdp: r.co2_per_gdp_change_10y_pct,
      governance_percentile: percentile,
    },
  };
}

async function writeCountries(trx: Kysely<DB>, batch: Staged<CountryTable>[]): Promise<BatchResult> {
  const result: BatchResult = { inserted: 0, updated: 0, rejected: [] };
  const known = new Set((await trx.selectFrom("countries").select("iso2").execute()).map((r) => r.iso2));
  for (const item of batch) {
    const { iso2, ...rest } = item.value;
    try {
      await trx
        .insertInto("countries")
        .values(item.value)
        .onConflict((oc) => oc.column("iso2").doUpdateSet(rest))
        .execute();
    } catch (error) {
      result.rejected.push({ line: item.line, reason: `database: ${errorMessage(error)}` });
      continue;
    }
    if (known.has(iso2)) result.updated += 1;
    else {
      result.inserted += 1;
      known.add(iso2);
    }
  }
  return result;
}

export async function importCountries(database: Kysely<DB>, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const input = await openInput(file);
  const run = new ImportRun<CountryTable>(input, options, (batch) => database.transaction().execute((trx) => writeCountries(trx, batch)));
  return run.consume(readCsv(input.text, { requiredColumns: COUNTRIES_COLUMNS }), async (item) => {
    run.countRow();
    if (!item.ok) return run.reject({ line: item.line, reason: item.reason });
    const country = countryFromRow(item.row);
    if (country.ok) await run.stage({ line: item.line, value: country.country });
    else run.reject({ line: item.line, reason: country.reason });
  });
}
