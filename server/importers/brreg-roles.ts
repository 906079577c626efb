import type { Kysely } from "kysely";
import type { DB } from "../db-types";
import { monitorRegistryWrite } from "../monitoring/registry";
import { parseRollegrupper } from "../providers/registry/brreg";
import { replaceRoles } from "../providers/registry/sync";
import type { RegistryRole } from "../providers/registry/types";
import { readJsonArray } from "./json-array";
import { openInput } from "./input";
import { ImportRun, type BatchResult, type Staged } from "./run";
import type { ImportOptions, ImportSummary } from "./types";
import { orgNumber } from "./validation";

/**
 * Roles of units (board, chair, CEO) from Enhetsregisteret's roles bulk download (`/enhetsregisteret/api/roller/totalbestand`,
 * NLOD): a JSON array with one object per unit, `{organisasjonsnummer, rollegrupper: [...]}`, each `rollegrupper` in the shape of
 * `/enhetsregisteret/api/enheter/{orgnr}/roller`. Each unit's roles replace the stored ones, like the live refresh does; a
 * followed company whose CEO, chair or board changed raises its notification in the same transaction (decision 023).
 * The units must be in the store already: import them first.
 */

interface UnitRoles {
  orgNumber: string;
  roles: RegistryRole[];
}

async function writeRoles(trx: Kysely<DB>, batch: Staged<UnitRoles>[]): Promise<BatchResult> {
  const result: BatchResult = { inserted: 0, updated: 0, rejected: [] };
  const numbers = batch.map((b) => b.value.orgNumber);
  await monitorRegistryWrite(trx, numbers, async () => {
    const ids = new Map(
      (
        await trx
          .selectFrom("companies")
          .select(["id", "org_number"])
          .where("org_number", "in", [...new Set(numbers)])
          .execute()
      ).map((r) => [r.org_number, r.id]),
    );
    const withRoles = new Set(
      ids.size === 0
        ? []
        : (
            await trx
              .selectFrom("roles")
              .select("company_id")
              .distinct()
              .where("company_id", "in", [...ids.values()])
              .execute()
          ).map((r) => r.company_id),
    );
    for (const item of batch) {
      const companyId = ids.get(item.value.orgNumber);
      if (companyId === undefined) {
        result.rejected.push({
          line: item.line,
          record: item.record,
          reason: `unknown company: organisasjonsnummer ${item.value.orgNumber} (import its unit first)`,
        });
        continue;
      }
      await replaceRoles(trx, companyId, item.value.roles);
      if (withRoles.has(companyId)) result.updated += 1;
      else result.inserted += 1;
    }
  });
  return result;
}

export async function importBrregRoles(database: Kysely<DB>, file: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const input = await openInput(file);
  const run = new ImportRun<UnitRoles>(input, options, (batch) => database.transaction().execute((trx) => writeRoles(trx, batch)));
  const items = readJsonArray(input.text, { resync: /,\s*(?=\{\s*"organisasjonsnummer"\s*:)/ });
  return run.consume(items, async (item) => {
    run.countRow();
    if (!item.ok) return run.reject({ line: item.line, record: item.record, reason: item.reason });
    const raw = item.value as { organisasjonsnummer?: unknown } | null;
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return run.reject({ line: item.line, record: item.record, reason: "not a JSON object" });
    const number = orgNumber.safeParse(raw.organisasjonsnummer);
    if (!number.success) return run.reject({ line: item.line, record: item.record, reason: "organisasjonsnummer: not an organisation number" });
    const roles = parseRollegrupper(raw);
    if (!roles.ok) return run.reject({ line: item.line, record: item.record, reason: roles.reason });
    await run.stage({ line: item.line, record: item.record, value: { orgNumber: number.data, roles: roles.roles } });
  });
}
