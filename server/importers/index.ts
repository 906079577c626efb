import type { Kysely } from "kysely";
import type { DB } from "../db-types";
import { importBrregRoles } from "./brreg-roles";
import { importBrregUnits } from "./brreg-units";
import { importCountries } from "./countries";
import { importGleifElf } from "./gleif-elf";
import { importGleifLei2 } from "./gleif-lei2";
import { importGleifRepex } from "./gleif-repex";
import { importGleifRr } from "./gleif-rr";
import { importKonsernRoller } from "./konsern-roller";
import type { ImportOptions, ImportSummary } from "./types";

export { importBrregUnits, importBrregUnitsCsv, importBrregUnitsJson, upsertUnits, type UnitRecord } from "./brreg-units";
export { importBrregRoles } from "./brreg-roles";
export { importCountries } from "./countries";
export { importKonsernRoller } from "./konsern-roller";
export { importGleifElf } from "./gleif-elf";
export { importGleifLei2, writeLeiRecords, type LeiRecordInput } from "./gleif-lei2";
export { importGleifRepex } from "./gleif-repex";
export { importGleifRr } from "./gleif-rr";
export { ImportInputError, type ImportOptions, type ImportProgress, type ImportSummary, type Rejection } from "./types";

type Importer = (database: Kysely<DB>, file: string, options?: ImportOptions) => Promise<ImportSummary>;

/** What `npm run import -- <kind> <file>` accepts. */
export const IMPORTERS = {
  "brreg-units": importBrregUnits,
  "brreg-roles": importBrregRoles,
  "konsern-roller": importKonsernRoller,
  countries: importCountries,
  "gleif-lei2": importGleifLei2,
  "gleif-rr": importGleifRr,
  "gleif-repex": importGleifRepex,
  "gleif-elf": importGleifElf,
} satisfies Record<string, Importer>;

export type ImportKind = keyof typeof IMPORTERS;

export function isImportKind(kind: string): kind is ImportKind {
  return Object.hasOwn(IMPORTERS, kind);
}
