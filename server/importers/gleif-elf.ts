import type { Kysely } from "kysely";
import { now } from "../db";
import type { DB } from "../db-types";
import { cell, openGleifInput } from "./gleif-input";
import { readCsv } from "./input";
import { ImportRun, type BatchResult, type Staged } from "./run";
import type { ImportOptions, ImportSummary } from "./types";

/**
 * `npm run import -- gleif-elf <file>`: GLEIF's Entity Legal Form code list (ISO 20275) as published in CSV, so that
 * the modal shows a legal form's name beside its code. A code used in several languages (Belgium, Switzerland, …) has
 * a row per language; the first row of a code in the file is the one kept, the others are read and passed over.
 */

export const ELF_REQUIRED = ["ELF Code", "Entity Legal Form name Local name", "ELF Status ACTI/INAC"] as const;

export interface ElfCodeInput {
  code: string;
  country: string | null;
  country_code: string | null;
  name: string;
  transliterated_name: string | null;
  lang: string | null;
  status: string;
}

export function elfCodeFromCsv(row: Record<string, string>): { ok: true; value: ElfCodeInput } | { ok: false; reason: string } {
  const code = cell(row, "ELF Code");
  const name = cell(row, "Entity Legal Form name Local name");
  const status = cell(row, "ELF Status ACTI/INAC");
  const problems = [
    code && /^[A-Z0-9]{4}$/.test(code) ? null : `ELF Code: ${code ? `not 4 characters of A–Z0–9 (got "${code}")` : "missing"}`,
    name ? null : "Entity Legal Form name Local name: missing",
    status === "ACTI" || status === "ACTV" || status === "INAC"
      ? null
      : `ELF Status ACTI/INAC: ${status ? `expected ACTI (or ACTV) or INAC (got "${status}")` : "missing"}`,
  ].filter((p): p is string => p !== null);
  if (problems.length > 0) return { ok: false, reason: problems.join("; ") };
  return {
    ok: true,
    value: {
      code: code!,
      country: cell(row, "Country of formation"),
      country_code: cell(row, "Country Code (ISO 3166-1)"),
      name: name!,
      transliterated_name: cell(row, "Entity Legal Form name Transliterated name (per ISO 01-140-10)"),
      lang: cell(row, "Language Code (ISO 639-1)"),
      status: status!,
    },
  };
}

export async function writeElfCodes(trx: Kysely<DB>, batch: Staged<ElfCodeInput>[]): Promise<BatchResult> {
  const result: BatchResult = { inserted: 0, updated: 0, rejected: [] };
  const at = now();
  for (const { value } of batch) {
    const existing = await trx.selectFrom("lei_elf_codes").select("code").where("code", "=", value.code).executeTakeFirst();
    const { code: _code, ...rest } = value;
    await trx
      .insertInto("lei_elf_codes")
      .values({ ...value, updated_at: at })
      .onConflict((oc) => oc.column("code").doUpdateSet({ ...rest, updated_at: at }))
      .execute();
    if (existing) result.updated += 1;
    else result.inserted += 1;
  }
  return result;
}

export async function importGleifElf(database: Kysely<DB>, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const input = await openGleifInput(file);
  const run = new ImportRun<ElfCodeInput>(input, options, (batch) => database.transaction().execute((trx) => writeElfCodes(trx, batch)));
  const seen = new Set<string>();
  return run.consume(readCsv(input.text, { requiredColumns: ELF_REQUIRED }), async (item) => {
    run.countRow();
    if (!item.ok) return run.reject({ line: item.line, reason: item.reason });
    const parsed = elfCodeFromCsv(item.row);
    if (!parsed.ok) return run.reject({ line: item.line, reason: parsed.reason });
    // The same form in another language.
    if (seen.has(parsed.value.code)) return;
    seen.add(parsed.value.code);
    await run.stage({ line: item.line, value: parsed.value });
  });
}
