import { sql, type Kysely, type RawBuilder, type Selectable } from "kysely";
import { z } from "zod";
import { now } from "../db";
import type { CompanyTable, DB } from "../db-types";
import { monitorRegistryWrite } from "../monitoring/registry";
import { openInput, readCsv } from "./input";
import { readJsonArray } from "./json-array";
import { chunk, errorMessage, ImportRun, type BatchResult, type Staged } from "./run";
import { ImportInputError, type ImportOptions, type ImportSummary } from "./types";
import { describeIssues, optionalDate, optionalText, orgNumber } from "./validation";

/**
 * Importers for Enhetsregisteret's bulk downloads (NLOD): the CSV
 * (`/enhetsregisteret/api/enheter/lastned/csv`) and the JSON array
 * (`enheter_alle.json.gz`). Both upsert by organisation number, so running an
 * import again refreshes the same rows.
 */

/** A unit as the store keeps it, whichever file it came from. */
export interface UnitRecord {
  org_number: string;
  legal_name: string;
  country_code: string;
  org_form: string | null;
  org_form_description: string | null;
  industry_code: string | null;
  industry_description: string | null;
  purpose: string | null;
  activity: string | null;
  number_of_employees: number | null;
  establishment_date: string | null;
  registration_date: string | null;
  street_address: string | null;
  street_postal_code: string | null;
  street_postal_area: string | null;
  municipality: string | null;
  municipality_code: string | null;
  postal_address: string | null;
  postal_code: string | null;
  postal_area: string | null;
  website: string | null;
  is_vat_registered: boolean;
  is_bankrupt: boolean;
  date_of_bankruptcy: string | null;
  is_under_liquidation: boolean;
  is_under_forced_liquidation: boolean;
  deleted_at: string | null;
  parent_org_number: string | null;
}

export type CompanySource = CompanyTable["source"];

const countryCode = optionalText.refine((s) => s === null || /^[A-Z]{2}$/.test(s), {
  error: "not a two-letter country code",
});
const optionalOrgNumber = optionalText.pipe(z.union([z.null(), orgNumber]));

// ---------------------------------------------------------------- CSV

/** Without these no row can be imported; the rest may be missing from older downloads. */
export const BRREG_UNITS_CSV_REQUIRED = ["organisasjonsnummer", "navn", "organisasjonsform.kode"] as const;

const csvBool = z
  .string()
  .default("")
  .transform((s) => s.trim().toLowerCase())
  .refine((s) => s === "true" || s === "false" || s === "", { error: "expected true or false" })
  .transform((s) => s === "true");

const csvCount = z
  .string()
  .default("")
  .transform((s) => s.trim())
  .refine((s) => /^\d*$/.test(s), { error: "not a whole number" })
  .transform((s) => (s === "" ? null : Number(s)));

/**
 * The CSV writes the lines of an address cell joined by the two characters
 * '/n'. Only address cells get this treatment: elsewhere '/n' is real text
 * ('Rehabilitering/nybygg').
 */
function csvAddressLines(cell: string | null): string | null {
  if (!cell) return null;
  const lines = cell
    .split("/n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length ? lines.join("\n") : null;
}

const csvUnitSchema = z.object({
  organisasjonsnummer: orgNumber,
  navn: z.string({ error: "missing" }).trim().min(1, { error: "missing" }),
  "organisasjonsform.kode": optionalText,
  "organisasjonsform.beskrivelse": optionalText,
  "naeringskode1.kode": optionalText,
  "naeringskode1.beskrivelse": optionalText,
  antallAnsatte: csvCount,
  hjemmeside: optionalText,
  "postadresse.adresse": optionalText,
  "postadresse.poststed": optionalText,
  "postadresse.postnummer": optionalText,
  "postadresse.landkode": countryCode,
  "forretningsadresse.adresse": optionalText,
  "forretningsadresse.poststed": optionalText,
  "forretningsadresse.postnummer": optionalText,
  "forretningsadresse.kommune": optionalText,
  "forretningsadresse.kommunenummer": optionalText,
  "forretningsadresse.landkode": countryCode,
  registreringsdatoenhetsregisteret: optionalDate,
  stiftelsesdato: optionalDate,
  registrertIMvaRegisteret: csvBool,
  konkurs: csvBool,
  konkursdato: optionalDate,
  underAvvikling: csvBool,
  underTvangsavviklingEllerTvangsopplosning: csvBool,
  overordnetEnhet: optionalOrgNumber,
  vedtektsfestetFormaal: optionalText,
  aktivitet: optionalText,
});

export function unitFromCsv(raw: Record<string, string>): { ok: true; unit: UnitRecord } | { ok: false; reason: string } {
  const parsed = csvUnitSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error, raw) };
  const r = parsed.data;
  return {
    ok: true,
    unit: {
      org_number: r.organisasjonsnummer,
      legal_name: r.navn,
      country_code: r["forretningsadresse.landkode"] ?? r["postadresse.landkode"] ?? "NO",
      org_form: r["organisasjonsform.kode"],
      org_form_description: r["organisasjonsform.beskrivelse"],
      industry_code: r["naeringskode1.kode"],
      industry_description: r["naeringskode1.beskrivelse"],
      purpose: r.vedtektsfestetFormaal,
      activity: r.aktivitet,
      number_of_employees: r.antallAnsatte,
      establishment_date: r.stiftelsesdato,
      registration_date: r.registreringsdatoenhetsregisteret,
      street_address: csvAddressLines(r["forretningsadresse.adresse"]),
      street_postal_code: r["forretningsadresse.postnummer"],
      street_postal_area: r["forretningsadresse.poststed"],
      municipality: r["forretningsadresse.kommune"],
      municipality_code: r["forretningsadresse.kommunenummer"],
      postal_address: csvAddressLines(r["postadresse.adresse"]),
      postal_code: r["postadresse.postnummer"],
      postal_area: r["postadresse.poststed"],
      website: r.hjemmeside,
      is_vat_registered: r.registrertIMvaRegisteret,
      is_bankrupt: r.konkurs,
      date_of_bankruptcy: r.konkursdato,
      is_under_liquidation: r.underAvvikling || r.underTvangsavviklingEllerTvangsopplosning,
      is_under_forced_liquidation: r.underTvangsavviklingEllerTvangsopplosning,
      // The download lists only units that exist.
      deleted_at: null,
      parent_org_number: r.overordnetEnhet,
    },
  };
}

// ---------------------------------------------------------------- JSON

const jsonBool = z.boolean({ error: "expected true or false" }).nullish();

const jsonCode = z.object({ kode: optionalText, beskrivelse: optionalText }).nullish();

const jsonAddress = z
  .object({
    adresse: z.array(z.string().nullable()).nullish(),
    postnummer: optionalText,
    poststed: optionalText,
    kommune: optionalText,
    kommunenummer: optionalText,
    landkode: countryCode,
  })
  .nullish();

/** Purpose and activity are arrays of lines in the API, plain strings in older dumps. */
const jsonLines = z
  .union([z.string(), z.array(z.string().nullable())])
  .nullish()
  .transform((v) => {
    const lines = (Array.isArray(v) ? v : [v]).map((l) => l?.trim() ?? "").filter(Boolean);
    return lines.length ? lines.join("\n") : null;
  });

const jsonUnitSchema = z.object({
  organisasjonsnummer: orgNumber,
  navn: z.string({ error: "missing" }).trim().min(1, { error: "missing" }),
  organisasjonsform: jsonCode,
  naeringskode1: jsonCode,
  antallAnsatte: z.number({ error: "not a number" }).int({ error: "not a whole number" }).min(0).nullish(),
  harRegistrertAntallAnsatte: jsonBool,
  hjemmeside: optionalText,
  postadresse: jsonAddress,
  forretningsadresse: jsonAddress,
  registreringsdatoEnhetsregisteret: optionalDate,
  stiftelsesdato: optionalDate,
  registrertIMvaregisteret: jsonBool,
  konkurs: jsonBool,
  konkursdato: optionalDate,
  underAvvikling: jsonBool,
  underTvangsavviklingEllerTvangsopplosning: jsonBool,
  slettedato: optionalDate,
  overordnetEnhet: optionalOrgNumber,
  vedtektsfestetFormaal: jsonLines,
  aktivitet: jsonLines,
});

function jsonAddressLines(lines: (string | null)[] | null | undefined): string | null {
  const kept = (lines ?? []).map((l) => l?.trim() ?? "").filter(Boolean);
  return kept.length ? kept.join("\n") : null;
}

export function unitFromJson(raw: unknown): { ok: true; unit: UnitRecord } | { ok: false; reason: string } {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return { ok: false, reason: "not a JSON object" };
  const parsed = jsonUnitSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error, raw) };
  const r = parsed.data;
  const business = r.forretningsadresse;
  const postal = r.postadresse;
  const forced = r.underTvangsavviklingEllerTvangsopplosning ?? false;
  return {
    ok: true,
    unit: {
      org_number: r.organisasjonsnummer,
      legal_name: r.navn,
      country_code: business?.landkode ?? postal?.landkode ?? "NO",
      org_form: r.organisasjonsform?.kode ?? null,
      org_form_description: r.organisasjonsform?.beskrivelse ?? null,
      industry_code: r.naeringskode1?.kode ?? null,
      industry_description: r.naeringskode1?.beskrivelse ?? null,
      purpose: r.vedtektsfestetFormaal,
      activity: r.aktivitet,
      // The register answers 0 for "not registered"; that is unknown, not zero staff.
      number_of_employees: r.harRegistrertAntallAnsatte === false ? null : (r.antallAnsatte ?? null),
      establishment_date: r.stiftelsesdato,
      registration_date: r.registreringsdatoEnhetsregisteret,
      street_address: jsonAddressLines(business?.adresse),
      street_postal_code: business?.postnummer ?? null,
      street_postal_area: business?.poststed ?? null,
      municipality: business?.kommune ?? null,
      municipality_code: business?.kommunenummer ?? null,
      postal_address: jsonAddressLines(postal?.adresse),
      postal_code: postal?.postnummer ?? null,
      postal_area: postal?.poststed ?? null,
      website: r.hjemmeside,
      is_vat_registered: r.registrertIMvaregisteret ?? false,
      is_bankrupt: r.konkurs ?? false,
      date_of_bankruptcy: r.konkursdato,
      is_under_liquidation: (r.underAvvikling ?? false) || forced,
      is_under_forced_liquidation: forced,
      deleted_at: r.slettedato,
      parent_org_number: r.overordnetEnhet,
    },
  };
}

// ---------------------------------------------------------------- store

const UPSERT_COLUMNS = [
  "org_number",
  "legal_name",
  "country_code",
  "org_form",
  "org_form_description",
  "industry_code",
  "industry_description",
  "purpose",
  "activity",
  "number_of_employees",
  "establishment_date",
  "registration_date",
  "street_address",
  "street_postal_code",
  "street_postal_area",
  "municipality",
  "municipality_code",
  "postal_address",
  "postal_code",
  "postal_area",
  "website",
  "is_vat_registered",
  "is_bankrupt",
  "date_of_bankruptcy",
  "is_under_liquidation",
  "is_under_forced_liquidation",
  "is_active",
  "deleted_at",
  "parent_org_number",
  "source",
  "updated_at",
] as const satisfies readonly (keyof CompanyTable)[];

type CompanyRow = Pick<Selectable<CompanyTable>, (typeof UPSERT_COLUMNS)[number]>;

function toRow(unit: UnitRecord, source: CompanySource, at: string): CompanyRow {
  return {
    ...unit,
    is_vat_registered: unit.is_vat_registered ? 1 : 0,
    is_bankrupt: unit.is_bankrupt ? 1 : 0,
    is_under_liquidation: unit.is_under_liquidation ? 1 : 0,
    is_under_forced_liquidation: unit.is_under_forced_liquidation ? 1 : 0,
    // A supplier that is gone, bankrupt or being wound up is not an active one.
    is_active: unit.deleted_at || unit.is_bankrupt || unit.is_under_liquidation ? 0 : 1,
    source,
    updated_at: at,
  };
}

/** `col = excluded.col` for every imported column. */
function excludedSet(): { [K in keyof CompanyRow]: RawBuilder<CompanyRow[K]> } {
  const set: Partial<Record<keyof CompanyRow, RawBuilder<unknown>>> = {};
  for (const column of UPSERT_COLUMNS) if (column !== "org_number") set[column] = sql`excluded.${sql.ref(column)}`;
  return set as { [K in keyof CompanyRow]: RawBuilder<CompanyRow[K]> };
}

/**
 * Upserts units by organisation number inside the caller's transaction.
 * Multi-row statements for speed; if one fails, its rows are retried one by
 * one so that only the guilty row is rejected.
 */
export async function upsertUnits(
  trx: Kysely<DB>,
  batch: Staged<UnitRecord>[],
  source: CompanySource,
  options: { monitor?: boolean } = {},
): Promise<BatchResult> {
  // Registry monitoring (decision 023): the followed companies of the batch are read before and after, and what changed raises
  // notifications in this same transaction. A caller that monitors a larger write itself (the live refresh) turns it off here.
  if (options.monitor !== false && batch.length > 0) {
    const { result } = await monitorRegistryWrite(
      trx,
      batch.map((b) => b.value.org_number),
      () => writeUnits(trx, batch, source),
    );
    return result;
  }
  return writeUnits(trx, batch, source);
}

async function writeUnits(trx: Kysely<DB>, batch: Staged<UnitRecord>[], source: CompanySource): Promise<BatchResult> {
  const result: BatchResult = { inserted: 0, updated: 0, rejected: [] };
  if (batch.length === 0) return result;
  const at = now();
  const known = new Set(
    (
      await trx
        .selectFrom("companies")
        .select("org_number")
        .where(
          "org_number",
          "in",
          batch.map((b) => b.value.org_number),
        )
        .execute()
    ).map((r) => r.org_number),
  );
  const count = (item: Staged<UnitRecord>) => {
    if (known.has(item.value.org_number)) result.updated += 1;
    else {
      result.inserted += 1;
      known.add(item.value.org_number);
    }
  };
  const set = excludedSet();
  const upsert = (items: Staged<UnitRecord>[]) =>
    trx
      .insertInto("companies")
      .values(items.map((i) => toRow(i.value, source, at)))
      .onConflict((oc) => oc.column("org_number").doUpdateSet(set))
      .execute();

  for (const part of chunk(batch, UPSERT_COLUMNS.length)) {
    try {
      await upsert(part);
      part.forEach(count);
    } catch {
      for (const item of part) {
        try {
          await upsert([item]);
          count(item);
        } catch (error) {
          result.rejected.push({ line: item.line, record: item.record, reason: `database: ${errorMessage(error)}` });
        }
      }
    }
  }
  return result;
}

// ---------------------------------------------------------------- importers

export async function importBrregUnitsCsv(database: Kysely<DB>, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const input = await openInput(file);
  const run = new ImportRun<UnitRecord>(input, options, (batch) => database.transaction().execute((trx) => upsertUnits(trx, batch, "brreg-csv")));
  return run.consume(readCsv(input.text, { requiredColumns: BRREG_UNITS_CSV_REQUIRED }), async (item) => {
    run.countRow();
    if (!item.ok) return run.reject({ line: item.line, reason: item.reason });
    const unit = unitFromCsv(item.row);
    if (unit.ok) await run.stage({ line: item.line, value: unit.unit });
    else run.reject({ line: item.line, reason: unit.reason });
  });
}

export async function importBrregUnitsJson(database: Kysely<DB>, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const input = await openInput(file);
  const run = new ImportRun<UnitRecord>(input, options, (batch) => database.transaction().execute((trx) => upsertUnits(trx, batch, "brreg-json")));
  // Every unit object starts with its number, so that is where the next one is found after a broken one.
  const items = readJsonArray(input.text, { resync: /,\s*(?=\{\s*"organisasjonsnummer"\s*:)/ });
  return run.consume(items, async (item) => {
    run.countRow();
    if (!item.ok) return run.reject({ line: item.line, record: item.record, reason: item.reason });
    const unit = unitFromJson(item.value);
    if (unit.ok) await run.stage({ line: item.line, record: item.record, value: unit.unit });
    else run.reject({ line: item.line, record: item.record, reason: unit.reason });
  });
}

/** CSV or JSON by the file name ('.csv', '.json', either with '.gz'). */
export async function importBrregUnits(database: Kysely<DB>, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const name = file.toLowerCase().replace(/\.gz$/, "");
  if (name.endsWith(".csv")) return importBrregUnitsCsv(database, file, options);
  if (name.endsWith(".json")) return importBrregUnitsJson(database, file, options);
  throw new ImportInputError(`Cannot tell the format of ${file}: expected .csv, .json, .csv.gz or .json.gz`);
}
