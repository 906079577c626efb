import { sql } from "kysely";
import type { Db } from "@server/db";
import { checkOrgNumber, nameConfidence } from "~/models/shared/org-number";
import { ftsQuery } from "~/models/registry/fts";
import { ROW_STATUSES, type RowStatus } from "~/models/files/import-statuses";
import {
  CANDIDATE_CONFIDENCE,
  decideByName,
  emptyCounts,
  type Candidate,
  type Decided,
  type ImportMapping,
  type RowReason,
  type StatusCounts,
} from "~/models/files/import-decisions";

/**
 * The matching of a supplier list, one line at a time, against the registry (the `companies` table and its FTS index):
 * the core of the "supplier-analysis" job (supplier-analysis.server.ts), kept apart from the job runner and the file
 * readers so that it can be tested and measured on its own. Every line of the file becomes one `supplier_import_rows`
 * row; nothing here creates a supplier.
 */

export { ROW_STATUSES, type RowStatus };

/** Lines decided per registry query. */
const BATCH = 500;

/** What the analysis needs to know about the importing organisation, read once. */
export interface MatchingContext {
  database: Db;
  organizationId: number;
  /** Organisation numbers the organisation already follows (active connections). */
  followed: Set<string>;
  ownOrgNumber: string | null;
  /** Lower-cased country names and codes (en, no, ISO2, ISO3) → ISO2. */
  countries: Map<string, string>;
}

export async function matchingContext(database: Db, organizationId: number): Promise<MatchingContext> {
  const followedRows = await database
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .select("o.org_number")
    .where("c.parent_organization_id", "=", organizationId)
    .where("c.is_deleted", "=", 0)
    .execute();
  const own = await database.selectFrom("organizations").select("org_number").where("id", "=", organizationId).executeTakeFirst();
  const countries = new Map<string, string>();
  for (const c of await database.selectFrom("countries").select(["iso2", "iso3", "name_en", "name_no"]).execute()) {
    for (const name of [c.iso2, c.iso3, c.name_en, c.name_no]) if (name) countries.set(name.trim().toLowerCase(), c.iso2);
  }
  countries.set("norge", "NO");
  countries.set("noreg", "NO");
  return {
    database,
    organizationId,
    followed: new Set(followedRows.map((r) => r.org_number).filter((n): n is string => !!n)),
    ownOrgNumber: own?.org_number ?? null,
    countries,
  };
}

/** Remembers what earlier lines matched, so that a repeated supplier is a duplicate of the first. */
export interface SeenInFile {
  orgNumbers: Set<string>;
  companyIds: Set<number>;
}

interface Line {
  rowNumber: number;
  cells: string[];
  orgRaw: string;
  nameRaw: string;
  countryRaw: string;
}

const cell = (cells: string[], index: number | null) => (index === null ? "" : (cells[index] ?? "").trim());

/** Registry companies by name (+ country), best first, with the confidence of each. */
export async function nameCandidates(ctx: MatchingContext, name: string, countryCode: string | null): Promise<Candidate[]> {
  const match = ftsQuery(name);
  if (!match) return [];
  let query = ctx.database
    .selectFrom(sql<{ rowid: number; rank: number }>`(select rowid, rank from companies_fts where companies_fts match ${match} order by rank limit 25)`.as("m"))
    .innerJoin("companies", "companies.id", "m.rowid")
    .select(["companies.id", "companies.org_number", "companies.legal_name", "companies.is_active"])
    .orderBy("m.rank");
  if (countryCode) query = query.where("companies.country_code", "=", countryCode);
  const rows = await query.execute();
  return rows
    .map((r) => ({ companyId: r.id, orgNumber: r.org_number, name: r.legal_name, confidence: nameConfidence(name, r.legal_name), active: r.is_active }))
    .filter((c) => c.confidence >= CANDIDATE_CONFIDENCE)
    .sort((a, b) => b.confidence - a.confidence || b.active - a.active)
    .map(({ active: _active, ...c }) => c);
}

async function decideBatch(ctx: MatchingContext, lines: Line[], seen: SeenInFile): Promise<Decided[]> {
  const checks = lines.map((l) => checkOrgNumber(l.orgRaw));
  const numbers = [...new Set(checks.flatMap((c) => (c.kind === "valid" ? [c.orgNumber] : [])))];
  const companies = new Map<string, number>();
  if (numbers.length) {
    const rows = await ctx.database.selectFrom("companies").select(["id", "org_number"]).where("org_number", "in", numbers).execute();
    for (const r of rows) companies.set(r.org_number, r.id);
  }
  const out: Decided[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const check = checks[i];
    try {
      out.push(await decideLine(ctx, line, check, companies, seen));
    } catch {
      // One line the registry cannot answer for (a malformed search term, …) never fails the list.
      out.push({ status: "not_found", reason: "unreadable-row", company: null, candidates: null, confidence: null });
    }
  }
  return out;
}

async function decideLine(
  ctx: MatchingContext,
  line: Line,
  check: ReturnType<typeof checkOrgNumber>,
  companies: Map<string, number>,
  seen: SeenInFile,
): Promise<Decided> {
  const none = { company: null, candidates: null, confidence: null };
  if (check.kind === "invalid") return { status: "invalid", reason: `org-${check.problem}`, ...none };
  let company: { id: number; orgNumber: string };
  let reason: RowReason;
  let confidence: number;
  if (check.kind === "valid") {
    if (seen.orgNumbers.has(check.orgNumber)) return { status: "duplicate", reason: "duplicate-in-file", ...none };
    seen.orgNumbers.add(check.orgNumber);
    const id = companies.get(check.orgNumber);
    if (id === undefined) return { status: "not_found", reason: "not-in-registry", ...none };
    company = { id, orgNumber: check.orgNumber };
    reason = "exact-number";
    confidence = 1;
  } else {
    if (!line.nameRaw) return { status: "invalid", reason: "missing-both", ...none };
    const country = line.countryRaw ? (ctx.countries.get(line.countryRaw.toLowerCase()) ?? null) : null;
    const decided = decideByName(await nameCandidates(ctx, line.nameRaw, country));
    if (!decided.best) return { status: decided.status, reason: decided.reason, company: null, candidates: decided.candidates, confidence: decided.confidence };
    company = { id: decided.best.companyId, orgNumber: decided.best.orgNumber };
    reason = decided.reason;
    confidence = decided.confidence ?? 1;
    if (seen.orgNumbers.has(company.orgNumber)) return { status: "duplicate", reason: "duplicate-in-file", company, candidates: null, confidence };
    seen.orgNumbers.add(company.orgNumber);
  }
  if (seen.companyIds.has(company.id)) return { status: "duplicate", reason: "duplicate-in-file", company, candidates: null, confidence };
  seen.companyIds.add(company.id);
  if (company.orgNumber === ctx.ownOrgNumber) return { status: "invalid", reason: "own-organization", company, candidates: null, confidence };
  if (ctx.followed.has(company.orgNumber)) return { status: "existing", reason: "already-supplier", company, candidates: null, confidence };
  return { status: "matched", reason, company, candidates: null, confidence };
}

export interface AnalyseInput {
  ctx: MatchingContext;
  importId: number;
  mapping: ImportMapping;
  /** The sheet's lines, the header line included (it is skipped here when the mapping says so). */
  rows: AsyncIterable<string[]>;
  /** Called after each batch is written. */
  onProgress?: (done: number) => Promise<void>;
  signal?: AbortSignal;
}

/**
 * Reads every line, decides its status and writes the rows in batches (one transaction each). Starts over: this import's
 * earlier rows (an interrupted attempt) are removed first. Returns the counts and the header line (when the file has one).
 */
export async function analyseRows(input: AnalyseInput): Promise<{ counts: StatusCounts; header: string[] | null }> {
  const { ctx, importId, mapping } = input;
  await ctx.database.deleteFrom("supplier_import_rows").where("import_id", "=", importId).execute();
  const counts = emptyCounts();
  const seen: SeenInFile = { orgNumbers: new Set(), companyIds: new Set() };
  let header: string[] | null = null;
  let lineNumber = 0;
  let done = 0;
  let batch: Line[] = [];

  const flush = async () => {
    if (!batch.length) return;
    input.signal?.throwIfAborted();
    const decided = await decideBatch(ctx, batch, seen);
    const values = batch.map((line, i) => {
      const d = decided[i];
      counts[d.status]++;
      counts.total++;
      return {
        import_id: importId,
        row_number: line.rowNumber,
        cells: JSON.stringify(line.cells),
        org_id_raw: line.orgRaw || null,
        name_raw: line.nameRaw || null,
        country_raw: line.countryRaw || null,
        status: d.status,
        company_id: d.company?.id ?? null,
        candidates: d.candidates ? JSON.stringify(d.candidates) : null,
        confidence: d.confidence,
        reason: d.reason,
        chosen_company_id: null,
      };
    });
    await ctx.database.transaction().execute(async (trx) => {
      // 13 columns a row: stay well under SQLite's limit of bound variables per statement.
      for (let i = 0; i < values.length; i += 100)
        await trx
          .insertInto("supplier_import_rows")
          .values(values.slice(i, i + 100))
          .execute();
    });
    done += batch.length;
    batch = [];
    await input.onProgress?.(done);
  };

  for await (const cells of input.rows) {
    lineNumber++;
    if (lineNumber === 1 && mapping.hasHeaders) {
      header = cells;
      continue;
    }
    if (cells.every((c) => (c ?? "").trim() === "")) continue;
    batch.push({
      rowNumber: lineNumber,
      cells,
      orgRaw: cell(cells, mapping.orgId),
      nameRaw: cell(cells, mapping.orgName),
      countryRaw: cell(cells, mapping.countryCode),
    });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return { counts, header };
}
