import type { Kysely } from "kysely";
import { now } from "../db";
import type { DB } from "../db-types";
import { cell, dateProblem, leiProblem, openGleifInput, type ParentKind } from "./gleif-input";
import { readCsv } from "./input";
import { ImportRun, type BatchResult, type Staged } from "./run";
import type { ImportOptions, ImportSummary } from "./types";

/**
 * `npm run import -- gleif-rr <file>`: GLEIF's relationship records (RR-CDF golden copy, CSV or zip). Only the
 * accounting-consolidation parents are kept (the start node is the child, the end node its parent); branch and fund
 * relationships are rejected with their type named. Inactive relationships are kept with their status: the provider
 * shows active ones only. A child has one direct and one ultimate parent, so a newer file naming another parent
 * replaces the old one.
 */

export const RR_REQUIRED = [
  "Relationship.StartNode.NodeID",
  "Relationship.EndNode.NodeID",
  "Relationship.RelationshipType",
  "Relationship.RelationshipStatus",
] as const;

const KINDS: Record<string, ParentKind> = { IS_DIRECTLY_CONSOLIDATED_BY: "direct", IS_ULTIMATELY_CONSOLIDATED_BY: "ultimate" };

export interface LeiRelationshipInput {
  child_lei: string;
  parent_lei: string;
  kind: ParentKind;
  relationship_status: string;
  registration_status: string | null;
  start_date: string | null;
  end_date: string | null;
  last_update_date: string | null;
}

/** The relationship's own period (periodType RELATIONSHIP_PERIOD), else the first one given. */
function period(row: Record<string, string>): { start: string | null; end: string | null; column: string } {
  let first: { start: string | null; end: string | null; column: string } | null = null;
  for (let n = 1; n <= 5 && `Relationship.Period.${n}.startDate` in row; n++) {
    const found = {
      start: cell(row, `Relationship.Period.${n}.startDate`),
      end: cell(row, `Relationship.Period.${n}.endDate`),
      column: `Relationship.Period.${n}`,
    };
    if (cell(row, `Relationship.Period.${n}.periodType`) === "RELATIONSHIP_PERIOD") return found;
    first ??= found;
  }
  return first ?? { start: null, end: null, column: "Relationship.Period.1" };
}

export function relationshipFromCsv(row: Record<string, string>): { ok: true; value: LeiRelationshipInput } | { ok: false; reason: string } {
  const type = cell(row, "Relationship.RelationshipType");
  const kind = type ? KINDS[type] : undefined;
  if (!kind) return { ok: false, reason: `Relationship.RelationshipType: ${type ?? "missing"} is not a consolidation parent (not kept)` };
  const child = cell(row, "Relationship.StartNode.NodeID");
  const parent = cell(row, "Relationship.EndNode.NodeID");
  const parentType = cell(row, "Relationship.EndNode.NodeIDType");
  const status = cell(row, "Relationship.RelationshipStatus");
  const { start, end, column } = period(row);
  const lastUpdate = cell(row, "Registration.LastUpdateDate");
  const problems = [
    leiProblem(child, "Relationship.StartNode.NodeID"),
    parentType && parentType !== "LEI" ? `Relationship.EndNode.NodeIDType: ${parentType}, not an LEI` : leiProblem(parent, "Relationship.EndNode.NodeID"),
    status ? null : "Relationship.RelationshipStatus: missing",
    child && child === parent ? "Relationship.EndNode.NodeID: an entity cannot be its own parent" : null,
    dateProblem(start, `${column}.startDate`),
    dateProblem(end, `${column}.endDate`),
    dateProblem(lastUpdate, "Registration.LastUpdateDate"),
  ].filter((p): p is string => p !== null);
  if (problems.length > 0) return { ok: false, reason: problems.join("; ") };
  return {
    ok: true,
    value: {
      child_lei: child!,
      parent_lei: parent!,
      kind,
      relationship_status: status!,
      registration_status: cell(row, "Registration.RegistrationStatus"),
      start_date: start,
      end_date: end,
      last_update_date: lastUpdate,
    },
  };
}

export async function writeRelationships(trx: Kysely<DB>, batch: Staged<LeiRelationshipInput>[]): Promise<BatchResult> {
  const result: BatchResult = { inserted: 0, updated: 0, rejected: [] };
  const at = now();
  for (const { value } of batch) {
    const existing = await trx
      .selectFrom("lei_relationships")
      .select("id")
      .where("child_lei", "=", value.child_lei)
      .where("kind", "=", value.kind)
      .where("parent_lei", "=", value.parent_lei)
      .executeTakeFirst();
    // The parent named before, if another: the newer file's answer replaces it.
    await trx
      .deleteFrom("lei_relationships")
      .where("child_lei", "=", value.child_lei)
      .where("kind", "=", value.kind)
      .where("parent_lei", "!=", value.parent_lei)
      .execute();
    await trx
      .insertInto("lei_relationships")
      .values({ ...value, updated_at: at })
      .onConflict((oc) =>
        oc.columns(["child_lei", "kind", "parent_lei"]).doUpdateSet({
          relationship_status: value.relationship_status,
          registration_status: value.registration_status,
          start_date: value.start_date,
          end_date: value.end_date,
          last_update_date: value.last_update_date,
          updated_at: at,
        }),
      )
      .execute();
    if (existing) result.updated += 1;
    else result.inserted += 1;
  }
  return result;
}

export async function importGleifRr(database: Kysely<DB>, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const input = await openGleifInput(file);
  const run = new ImportRun<LeiRelationshipInput>(input, options, (batch) => database.transaction().execute((trx) => writeRelationships(trx, batch)));
  return run.consume(readCsv(input.text, { requiredColumns: RR_REQUIRED }), async (item) => {
    run.countRow();
    if (!item.ok) return run.reject({ line: item.line, reason: item.reason });
    const parsed = relationshipFromCsv(item.row);
    if (parsed.ok) await run.stage({ line: item.line, value: parsed.value });
    else run.reject({ line: item.line, reason: parsed.reason });
  });
}
