import { sql, type Kysely, type Insertable, type RawBuilder } from "kysely";
import { now } from "../db";
import type { DB, LeiRecordTable } from "../db-types";
import { cell, dateProblem, leiProblem, openGleifInput } from "./gleif-input";
import { readCsv } from "./input";
import { chunk, errorMessage, ImportRun, type BatchResult, type Staged } from "./run";
import type { ImportOptions, ImportSummary } from "./types";

/**
 * `npm run import -- gleif-lei2 <file>`: GLEIF's LEI-CDF golden copy as published (CSV, or the zip holding it).
 * Columns are read by header name and unknown ones ignored, so the file's other 200-odd columns (events, successor
 * entities, …) cost nothing. Re-importing a newer file updates records in place; a record whose registration is
 * retired, annulled, merged or a duplicate stays readable by its LEI but leaves the search.
 */

export const LEI2_REQUIRED = ["LEI", "Entity.LegalName", "Registration.RegistrationStatus"] as const;

/** Registration statuses of records that no longer identify a live entity: no search entry. */
export const UNSEARCHABLE_STATUSES: ReadonlySet<string> = new Set(["RETIRED", "ANNULLED", "MERGED", "DUPLICATE"]);

export interface LeiOtherName {
  name: string;
  type: string | null;
  lang: string | null;
  transliterated: boolean;
}

export interface LeiRecordInput {
  record: Omit<Insertable<LeiRecordTable>, "id" | "updated_at">;
  otherNames: LeiOtherName[];
}

/** How many numbered name and address-line columns are looked for (GLEIF publishes up to 5 names, 3 additional lines). */
const MAX_NUMBERED = 10;

function addressLines(row: Record<string, string>, prefix: string): string {
  const lines = [cell(row, `${prefix}.FirstAddressLine`)];
  for (let n = 1; n <= MAX_NUMBERED && `${prefix}.AdditionalAddressLine.${n}` in row; n++) lines.push(cell(row, `${prefix}.AdditionalAddressLine.${n}`));
  return JSON.stringify(lines.filter((l): l is string => l !== null));
}

function otherNames(row: Record<string, string>): LeiOtherName[] {
  const names: LeiOtherName[] = [];
  const groups = [
    { base: "Entity.OtherEntityNames.OtherEntityName", transliterated: false },
    { base: "Entity.TransliteratedOtherEntityNames.TransliteratedOtherEntityName", transliterated: true },
  ];
  for (const { base, transliterated } of groups) {
    for (let n = 1; n <= MAX_NUMBERED && `${base}.${n}` in row; n++) {
      const name = cell(row, `${base}.${n}`);
      if (name) names.push({ name, type: cell(row, `${base}.${n}.type`), lang: cell(row, `${base}.${n}.xmllang`), transliterated });
    }
  }
  return names;
}

/** One row of the LEI-CDF CSV as the store keeps it, or why it cannot be kept. */
export function leiRecordFromCsv(row: Record<string, string>): { ok: true; value: LeiRecordInput } | { ok: false; reason: string } {
  const lei = cell(row, "LEI");
  const legalName = cell(row, "Entity.LegalName");
  const registrationStatus = cell(row, "Registration.RegistrationStatus");
  const dates = {
    initial: cell(row, "Registration.InitialRegistrationDate"),
    lastUpdate: cell(row, "Registration.LastUpdateDate"),
    nextRenewal: cell(row, "Registration.NextRenewalDate"),
  };
  const problems = [
    leiProblem(lei, "LEI"),
    legalName ? null : "Entity.LegalName: missing",
    registrationStatus ? null : "Registration.RegistrationStatus: missing",
    dateProblem(dates.initial, "Registration.InitialRegistrationDate"),
    dateProblem(dates.lastUpdate, "Registration.LastUpdateDate"),
    dateProblem(dates.nextRenewal, "Registration.NextRenewalDate"),
  ].filter((p): p is string => p !== null);
  if (problems.length > 0) return { ok: false, reason: problems.join("; ") };

  const entityStatus = cell(row, "Entity.EntityStatus");
  return {
    ok: true,
    value: {
      record: {
        lei: lei!,
        legal_name: legalName!,
        legal_name_lang: cell(row, "Entity.LegalName.xmllang"),
        registered_as: cell(row, "Entity.RegistrationAuthority.RegistrationAuthorityEntityID"),
        registered_at:
          cell(row, "Entity.RegistrationAuthority.RegistrationAuthorityID") ?? cell(row, "Entity.RegistrationAuthority.OtherRegistrationAuthorityID"),
        jurisdiction: cell(row, "Entity.LegalJurisdiction"),
        legal_form_code: cell(row, "Entity.LegalForm.EntityLegalFormCode"),
        legal_form_other: cell(row, "Entity.LegalForm.OtherLegalForm"),
        // GLEIF writes the word NULL for the few records without an entity status.
        entity_status: entityStatus === "NULL" ? null : entityStatus,
        entity_category: cell(row, "Entity.EntityCategory"),
        legal_address_lines: addressLines(row, "Entity.LegalAddress"),
        legal_postal_code: cell(row, "Entity.LegalAddress.PostalCode"),
        legal_city: cell(row, "Entity.LegalAddress.City"),
        legal_region: cell(row, "Entity.LegalAddress.Region"),
        legal_country: cell(row, "Entity.LegalAddress.Country"),
        hq_address_lines: addressLines(row, "Entity.HeadquartersAddress"),
        hq_postal_code: cell(row, "Entity.HeadquartersAddress.PostalCode"),
        hq_city: cell(row, "Entity.HeadquartersAddress.City"),
        hq_region: cell(row, "Entity.HeadquartersAddress.Region"),
        hq_country: cell(row, "Entity.HeadquartersAddress.Country"),
        registration_status: registrationStatus!,
        initial_registration_date: dates.initial,
        last_update_date: dates.lastUpdate,
        next_renewal_date: dates.nextRenewal,
        managing_lou: cell(row, "Registration.ManagingLOU"),
        validation_sources: cell(row, "Registration.ValidationSources"),
      },
      otherNames: otherNames(row),
    },
  };
}

const RECORD_COLUMNS = [
  "lei",
  "legal_name",
  "legal_name_lang",
  "registered_as",
  "registered_at",
  "jurisdiction",
  "legal_form_code",
  "legal_form_other",
  "entity_status",
  "entity_category",
  "legal_address_lines",
  "legal_postal_code",
  "legal_city",
  "legal_region",
  "legal_country",
  "hq_address_lines",
  "hq_postal_code",
  "hq_city",
  "hq_region",
  "hq_country",
  "registration_status",
  "initial_registration_date",
  "last_update_date",
  "next_renewal_date",
  "managing_lou",
  "validation_sources",
  "updated_at",
] as const satisfies readonly (keyof LeiRecordTable)[];

function excludedSet(): Record<string, RawBuilder<unknown>> {
  const set: Record<string, RawBuilder<unknown>> = {};
  for (const column of RECORD_COLUMNS) if (column !== "lei") set[column] = sql`excluded.${sql.ref(column)}`;
  return set;
}

/**
 * Writes LEI records inside the caller's transaction: upserts them by LEI, replaces their other names, and puts
 * their search entries in step (none for an unsearchable registration status). The seed uses it too, so every
 * writer of lei_records keeps lei_fts right.
 */
export async function writeLeiRecords(trx: Kysely<DB>, batch: Staged<LeiRecordInput>[]): Promise<BatchResult> {
  const result: BatchResult = { inserted: 0, updated: 0, rejected: [] };
  if (batch.length === 0) return result;
  // A file that lists an LEI twice in one batch: the later row is the one kept, the earlier counts as an update.
  const latest = new Map<string, Staged<LeiRecordInput>>();
  for (const item of batch) {
    const lei = item.value.record.lei;
    if (latest.has(lei)) {
      latest.delete(lei);
      result.updated += 1;
    }
    latest.set(lei, item);
  }
  const items = [...latest.values()];
  const leis = items.map((i) => i.value.record.lei);
  const known = new Set((await trx.selectFrom("lei_records").select("lei").where("lei", "in", leis).execute()).map((r) => r.lei));
  const at = now();
  const set = excludedSet();
  const upsert = (part: Staged<LeiRecordInput>[]) =>
    trx
      .insertInto("lei_records")
      .values(part.map((i) => ({ ...i.value.record, updated_at: at })))
      .onConflict((oc) => oc.column("lei").doUpdateSet(set))
      .returning(["id", "lei"])
      .execute();

  const written: Staged<LeiRecordInput>[] = [];
  const ids = new Map<string, number>();
  for (const part of chunk(items, RECORD_COLUMNS.length)) {
    try {
      for (const r of await upsert(part)) ids.set(r.lei, r.id);
      written.push(...part);
    } catch {
      for (const item of part) {
        try {
          for (const r of await upsert([item])) ids.set(r.lei, r.id);
          written.push(item);
        } catch (error) {
          result.rejected.push({ line: item.line, reason: `database: ${errorMessage(error)}` });
        }
      }
    }
  }
  if (written.length === 0) return result;
  for (const item of written) {
    if (known.has(item.value.record.lei)) result.updated += 1;
    else result.inserted += 1;
  }

  const writtenLeis = written.map((i) => i.value.record.lei);

  await trx.deleteFrom("lei_other_names").where("lei", "in", writtenLeis).execute();
  const names = written.flatMap((i) =>
    i.value.otherNames.map((n, index) => ({
      lei: i.value.record.lei,
      position: index + 1,
      name: n.name,
      type: n.type,
      lang: n.lang,
      transliterated: n.transliterated ? 1 : 0,
    })),
  );
  for (const part of chunk(names, 6)) await trx.insertInto("lei_other_names").values(part).execute();

  await trx
    .deleteFrom("lei_fts")
    .where("rowid", "in", [...ids.values()])
    .execute();
  const entries = written
    .filter((i) => !UNSEARCHABLE_STATUSES.has(i.value.record.registration_status))
    .map((i) => ({
      rowid: ids.get(i.value.record.lei)!,
      lei: i.value.record.lei,
      legal_name: i.value.record.legal_name,
      other_names: i.value.otherNames.map((n) => n.name).join("\n"),
    }));
  for (const part of chunk(entries, 4)) {
    await sql`insert into lei_fts (rowid, lei, legal_name, other_names) values ${sql.join(
      part.map((e) => sql`(${e.rowid}, ${e.lei}, ${e.legal_name}, ${e.other_names})`),
    )}`.execute(trx);
  }
  return result;
}

export async function importGleifLei2(database: Kysely<DB>, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const input = await openGleifInput(file);
  // Larger transactions than the default: the full-text index merges fewer, smaller segments (measured in scripts/bench.ts).
  const run = new ImportRun<LeiRecordInput>(input, { ...options, batchSize: options.batchSize ?? 5000 }, (batch) =>
    database.transaction().execute((trx) => writeLeiRecords(trx, batch)),
  );
  return run.consume(readCsv(input.text, { requiredColumns: LEI2_REQUIRED }), async (item) => {
    run.countRow();
    if (!item.ok) return run.reject({ line: item.line, reason: item.reason });
    const parsed = leiRecordFromCsv(item.row);
    if (parsed.ok) await run.stage({ line: item.line, value: parsed.value });
    else run.reject({ line: item.line, reason: parsed.reason });
  });
}
