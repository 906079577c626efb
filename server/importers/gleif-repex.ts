import type { Kysely } from "kysely";
import { now } from "../db";
import type { DB } from "../db-types";
import { cell, leiProblem, openGleifInput, type ParentKind } from "./gleif-input";
import { readCsv } from "./input";
import { ImportRun, type BatchResult, type Staged } from "./run";
import type { ImportOptions, ImportSummary } from "./types";

/**
 * `npm run import -- gleif-repex <file>`: GLEIF's reporting exceptions (why an entity names no direct or ultimate
 * accounting parent: NATURAL_PERSONS, NON_CONSOLIDATING, NO_KNOWN_PERSON, NON_PUBLIC, …). One per entity and kind;
 * a newer file updates it. A reporting exception is not a parent: the provider answers "no ultimate parent".
 */

export const REPEX_REQUIRED = ["LEI", "ExceptionCategory", "ExceptionReason.1"] as const;

const KINDS: Record<string, ParentKind> = {
  DIRECT_ACCOUNTING_CONSOLIDATION_PARENT: "direct",
  ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT: "ultimate",
};

export interface ReportingExceptionInput {
  lei: string;
  kind: ParentKind;
  reason: string;
  reference: string | null;
}

export function reportingExceptionFromCsv(row: Record<string, string>): { ok: true; value: ReportingExceptionInput } | { ok: false; reason: string } {
  const lei = cell(row, "LEI");
  const category = cell(row, "ExceptionCategory");
  const kind = category ? KINDS[category] : undefined;
  const reason = cell(row, "ExceptionReason.1");
  const problems = [
    leiProblem(lei, "LEI"),
    kind ? null : `ExceptionCategory: ${category ?? "missing"} is not a consolidation parent category`,
    reason ? null : "ExceptionReason.1: missing",
  ].filter((p): p is string => p !== null);
  if (problems.length > 0) return { ok: false, reason: problems.join("; ") };
  return { ok: true, value: { lei: lei!, kind: kind!, reason: reason!, reference: cell(row, "ExceptionReference.1") } };
}

export async function writeReportingExceptions(trx: Kysely<DB>, batch: Staged<ReportingExceptionInput>[]): Promise<BatchResult> {
  const result: BatchResult = { inserted: 0, updated: 0, rejected: [] };
  const at = now();
  for (const { value } of batch) {
    const existing = await trx
      .selectFrom("lei_reporting_exceptions")
      .select("id")
      .where("lei", "=", value.lei)
      .where("kind", "=", value.kind)
      .executeTakeFirst();
    await trx
      .insertInto("lei_reporting_exceptions")
      .values({ ...value, updated_at: at })
      .onConflict((oc) => oc.columns(["lei", "kind"]).doUpdateSet({ reason: value.reason, reference: value.reference, updated_at: at }))
      .execute();
    if (existing) result.updated += 1;
    else result.inserted += 1;
  }
  return result;
}

export async function importGleifRepex(database: Kysely<DB>, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const input = await openGleifInput(file);
  const run = new ImportRun<ReportingExceptionInput>(input, options, (batch) => database.transaction().execute((trx) => writeReportingExceptions(trx, batch)));
  return run.consume(readCsv(input.text, { requiredColumns: REPEX_REQUIRED }), async (item) => {
    run.countRow();
    if (!item.ok) return run.reject({ line: item.line, reason: item.reason });
    const parsed = reportingExceptionFromCsv(item.row);
    if (parsed.ok) await run.stage({ line: item.line, value: parsed.value });
    else run.reject({ line: item.line, reason: parsed.reason });
  });
}
