import type { Kysely } from "kysely";
import { z } from "zod";
import { now } from "../db";
import type { DB } from "../db-types";
import { openInput, readCsv } from "./input";
import { errorMessage, ImportRun, type BatchResult, type Staged } from "./run";
import type { ImportOptions, ImportSummary } from "./types";
import { describeIssues, orgNumber } from "./validation";

/**
 * Group relations between units (`influencing_tax_ident, influenced_tax_ident,
 * rel_type_code, percentage`; HFOR = parent company). Each row becomes a
 * shareholding of the influencing company in the influenced one. Both units
 * must already be in the store: import their units first.
 */

export const KONSERN_ROLLER_COLUMNS = ["influencing_tax_ident", "influenced_tax_ident", "rel_type_code", "percentage"] as const;

const edgeSchema = z
  .object({
    influencing_tax_ident: orgNumber,
    influenced_tax_ident: orgNumber,
    rel_type_code: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2,8}$/, { error: "not a relation code (e.g. HFOR)" }),
    percentage: z
      .string()
      .trim()
      .refine((s) => s === "" || (/^\d+(\.\d+)?$/.test(s) && Number(s) <= 100), {
        error: "not a percentage between 0 and 100",
      })
      .transform((s) => (s === "" ? null : Number(s))),
  })
  .refine((e) => e.influencing_tax_ident !== e.influenced_tax_ident, {
    error: "a company cannot own itself",
    path: ["influenced_tax_ident"],
  });

export interface OwnershipEdge {
  holder: string;
  owned: string;
  relationType: string;
  percent: number | null;
}

async function writeEdges(trx: Kysely<DB>, batch: Staged<OwnershipEdge>[]): Promise<BatchResult> {
  const result: BatchResult = { inserted: 0, updated: 0, rejected: [] };
  const numbers = [...new Set(batch.flatMap((b) => [b.value.holder, b.value.owned]))];
  const ids = new Map(
    (await trx.selectFrom("companies").select(["id", "org_number"]).where("org_number", "in", numbers).execute()).map((r) => [r.org_number, r.id]),
  );
  const holderIds = [...ids.values()];
  const existing = new Set(
    holderIds.length === 0
      ? []
      : (await trx.selectFrom("shareholdings").select(["holder_company_id", "company_id"]).where("holder_company_id", "in", holderIds).execute()).map(
          (r) => `${r.holder_company_id}>${r.company_id}`,
        ),
  );
  const at = now();
  for (const item of batch) {
    const { holder, owned, relationType, percent } = item.value;
    const holderId = ids.get(holder);
    const ownedId = ids.get(owned);
    if (holderId === undefined || ownedId === undefined) {
      const unknown = [
        holderId === undefined ? `influencing_tax_ident ${holder}` : null,
        ownedId === undefined ? `influenced_tax_ident ${owned}` : null,
      ].filter(Boolean);
      result.rejected.push({ line: item.line, reason: `unknown company: ${unknown.join(", ")} (import its unit first)` });
      continue;
    }
    try {
      await trx
        .insertInto("shareholdings")
        .values({ company_id: ownedId, holder_company_id: holderId, holder_person_id: null, percent, relation_type: relationType, updated_at: at })
        .onConflict((oc) =>
          oc
            .columns(["holder_company_id", "company_id"])
            .where("holder_company_id", "is not", null)
            .doUpdateSet({ percent, relation_type: relationType, updated_at: at }),
        )
        .execute();
    } catch (error) {
      result.rejected.push({ line: item.line, reason: `database: ${errorMessage(error)}` });
      continue;
    }
    const key = `${holderId}>${ownedId}`;
    if (existing.has(key)) result.updated += 1;
    else {
      result.inserted += 1;
      existing.add(key);
    }
  }
  return result;
}

export async function importKonsernRoller(database: Kysely<DB>, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const input = await openInput(file);
  const run = new ImportRun<OwnershipEdge>(input, options, (batch) => database.transaction().execute((trx) => writeEdges(trx, batch)));
  return run.consume(readCsv(input.text, { requiredColumns: KONSERN_ROLLER_COLUMNS }), async (item) => {
    run.countRow();
    if (!item.ok) return run.reject({ line: item.line, reason: item.reason });
    const parsed = edgeSchema.safeParse(item.row);
    if (!parsed.success) return run.reject({ line: item.line, reason: describeIssues(parsed.error, item.row) });
    const e = parsed.data;
    await run.stage({
      line: item.line,
      value: { holder: e.influencing_tax_ident, owned: e.influenced_tax_ident, relationType: e.rel_type_code, percent: e.percentage },
    });
  });
}
