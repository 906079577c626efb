import { db, now, type Db } from "@server/db";
import { storedFilePath } from "@server/storage";
import { enqueueJob, jobForUser } from "@server/jobs/queue";
import type { JobView } from "@server/jobs/types";
import { openSpreadsheet, PREVIEW_ROWS, previewRows, SpreadsheetError } from "@server/spreadsheets";
import { emptyCounts, type Candidate, type ImportMapping, type StatusCounts } from "~/models/files/import-decisions";
import { ROW_STATUSES, type RowStatus } from "~/models/files/import-statuses";
import { recordConnectionEvent } from "~/models/suppliers/connection-audit.server";
import { connectCompany } from "~/models/suppliers/connections.server";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";
import { mappingProblem, type MappingInput, type MappingProblem } from "~/models/files/import-mapping";
import { refuse, type RefusalReason } from "~/models/shared/refusal";

/**
 * Supplier-list imports (docs/decisions/018): an uploaded spreadsheet is analysed by the "supplier-analysis" job
 * into one row per line (app/models/files/supplier-analysis-job.server.ts), shown to the user as a dry run, and confirmed into supplier
 * connections in one transaction. Every function is scoped to the organisation AND the user who started the import:
 * anyone else gets `undefined` (the routes answer 404).
 */

export const SUPPLIER_ANALYSIS_JOB = "supplier-analysis";
export const IMPORT_ROWS_PAGE_SIZE = 50;

export type { ImportMapping, RowStatus, StatusCounts, Candidate };
export { ROW_STATUSES };

export type ImportStatus = "analysing" | "ready" | "failed" | "confirmed";

/**
 * Why a change to an import is refused, as the `code` of its Refusal; each is `errors.<code>` in the imports
 * namespace. An import confirmed or still analysing is a state that forbids the change ("conflict"); a line, a
 * candidate or a tag the form named that is not there is input to correct ("invalid", with the tag's `field`).
 */
export const IMPORT_REFUSALS = ["already-confirmed", "not-ready", "not-a-candidate", "row-not-found", "tag-not-found", "tag-empty"] as const;
export type ImportRefusal = (typeof IMPORT_REFUSALS)[number];

const IMPORT_REFUSAL_REASON = {
  "already-confirmed": "conflict",
  "not-ready": "conflict",
  "not-a-candidate": "invalid",
  "row-not-found": "invalid",
  "tag-not-found": "invalid",
  "tag-empty": "invalid",
} as const satisfies Record<ImportRefusal, RefusalReason>;

function refuseImport(code: ImportRefusal, field?: string) {
  return refuse(IMPORT_REFUSAL_REASON[code], code, { field, message: `Supplier import: ${code}` });
}

export interface Scope {
  organizationId: number;
  userId: number;
}

export interface ImportView {
  id: number;
  fileId: number;
  fileName: string;
  status: ImportStatus;
  mapping: ImportMapping;
  /** Per status once analysed; null while analysing. */
  counts: (StatusCounts & { created?: number }) | null;
  /** "ns:key" and params of a failed analysis. */
  error: { key: string; params: Record<string, unknown> } | null;
  /** Lines done of total while analysing. */
  progress: { done: number; total: number | null; jobStatus: JobView["status"] } | null;
  resultFileId: number | null;
  tag: { id: number; title: string } | null;
  confirmedAt: string | null;
  createdAt: string;
}

const parse = <T>(text: string | null): T | null => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
};

/** Creates the import and enqueues its analysis, in one transaction; the file must be the user's own (checked by the caller). */
export async function createImport(input: Scope & { fileId: number; mapping: ImportMapping }): Promise<{ importId: number; jobId: number }> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const created = await trx
        .insertInto("supplier_imports")
        .values({
          organization_id: input.organizationId,
          user_id: input.userId,
          file_upload_id: input.fileId,
          mapping: JSON.stringify(input.mapping),
          status: "analysing",
          created_at: now(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const jobId = await enqueueJob(trx, {
        type: SUPPLIER_ANALYSIS_JOB,
        organizationId: input.organizationId,
        userId: input.userId,
        payload: { importId: created.id },
        maxAttempts: 3,
      });
      await trx.updateTable("supplier_imports").set({ job_id: jobId }).where("id", "=", created.id).execute();
      return { importId: created.id, jobId };
    });
}

export const importHref = (importId: number) => `/suppliers/imports/${importId}`;

function ownImports(database: Db, scope: Scope) {
  return database
    .selectFrom("supplier_imports as i")
    .innerJoin("file_uploads as f", "f.id", "i.file_upload_id")
    .leftJoin("organization_tags as t", "t.id", "i.tag_id")
    .select([
      "i.id",
      "i.file_upload_id",
      "f.file_name",
      "i.status",
      "i.mapping",
      "i.counts",
      "i.error",
      "i.job_id",
      "i.result_file_id",
      "i.tag_id",
      "t.title as tag_title",
      "i.confirmed_at",
      "i.created_at",
    ])
    .where("i.organization_id", "=", scope.organizationId)
    .where("i.user_id", "=", scope.userId);
}

type ImportRow = Awaited<ReturnType<ReturnType<typeof ownImports>["executeTakeFirstOrThrow"]>>;

async function toView(row: ImportRow, scope: Scope): Promise<ImportView> {
  const job = row.job_id !== null ? await jobForUser(db(), { ...scope, id: row.job_id }) : undefined;
  let status = row.status;
  let error = parse<{ key: string; params?: Record<string, unknown> }>(row.error);
  // The job failed for good without the handler saying so (its attempts ran out): the import failed with the job's message.
  if (status === "analysing" && job?.status === "failed") {
    status = "failed";
    error ??= job.error;
  }
  return {
    id: row.id,
    fileId: row.file_upload_id,
    fileName: row.file_name,
    status,
    mapping: parse<ImportMapping>(row.mapping) ?? { orgId: 0, orgName: 1, countryCode: null, hasHeaders: true, sheet: 0 },
    counts: status === "analysing" ? null : parse<StatusCounts & { created?: number }>(row.counts),
    error: status === "failed" ? { key: error?.key ?? "imports:errors.analysisFailed", params: error?.params ?? {} } : null,
    progress: status === "analysing" ? { done: job?.progressDone ?? 0, total: job?.progressTotal ?? null, jobStatus: job?.status ?? "queued" } : null,
    resultFileId: row.result_file_id,
    tag: row.tag_id !== null && row.tag_title !== null ? { id: row.tag_id, title: row.tag_title } : null,
    confirmedAt: row.confirmed_at,
    createdAt: row.created_at,
  };
}

/** One import of the user; undefined for anyone else's. */
export async function getImport(input: Scope & { importId: number }): Promise<ImportView | undefined> {
  const row = await ownImports(db(), input).where("i.id", "=", input.importId).executeTakeFirst();
  return row ? toView(row, input) : undefined;
}

export interface ImportProgressItem {
  importId: number;
  fileName: string;
  status: "queued" | "running" | "ready" | "failed" | "confirmed";
  done: number;
  total: number | null;
  href: string;
}

/**
 * The user's imports still worth showing in the files panel: running or waiting, and analysed or failed ones not yet
 * confirmed (from the last 7 days), newest first.
 */
export async function importsInProgress(scope: Scope): Promise<ImportProgressItem[]> {
  const since = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString();
  const rows = await ownImports(db(), scope)
    .where("i.status", "!=", "confirmed")
    .where("i.created_at", ">=", since)
    .orderBy("i.created_at", "desc")
    .orderBy("i.id", "desc")
    .limit(10)
    .execute();
  const out: ImportProgressItem[] = [];
  for (const row of rows) {
    const view = await toView(row, scope);
    const counts = view.counts;
    out.push({
      importId: view.id,
      fileName: view.fileName,
      status: view.status === "analysing" ? (view.progress?.jobStatus === "running" ? "running" : "queued") : view.status,
      done: view.progress?.done ?? counts?.total ?? 0,
      total: view.progress ? view.progress.total : (counts?.total ?? null),
      href: importHref(view.id),
    });
  }
  return out;
}

export interface ImportRowView {
  rowNumber: number;
  cells: string[];
  orgIdRaw: string | null;
  nameRaw: string | null;
  countryRaw: string | null;
  status: RowStatus;
  reason: string | null;
  company: { id: number; orgNumber: string; name: string } | null;
  candidates: Candidate[];
  chosenCompanyId: number | null;
}

/** A page of an import's rows, optionally of one status, in file order. */
export async function importRows(
  input: Scope & { importId: number; status?: RowStatus | null; page?: number; size?: number },
): Promise<{ rows: ImportRowView[]; total: number; page: number; pages: number } | undefined> {
  const own = await ownImports(db(), input).where("i.id", "=", input.importId).executeTakeFirst();
  if (!own) return undefined;
  const size = input.size ?? IMPORT_ROWS_PAGE_SIZE;
  let base = db().selectFrom("supplier_import_rows as r").where("r.import_id", "=", input.importId);
  if (input.status) base = base.where("r.status", "=", input.status);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Math.min(Math.max(1, input.page ?? 1), pages);
  const rows = await base
    .leftJoin("companies as c", "c.id", "r.company_id")
    .select([
      "r.row_number",
      "r.cells",
      "r.org_id_raw",
      "r.name_raw",
      "r.country_raw",
      "r.status",
      "r.reason",
      "r.candidates",
      "r.chosen_company_id",
      "c.id as company_id",
      "c.org_number",
      "c.legal_name",
    ])
    .orderBy("r.row_number")
    .limit(size)
    .offset((page - 1) * size)
    .execute();
  return {
    total,
    page,
    pages,
    rows: rows.map((r) => ({
      rowNumber: r.row_number,
      cells: parse<string[]>(r.cells) ?? [],
      orgIdRaw: r.org_id_raw,
      nameRaw: r.name_raw,
      countryRaw: r.country_raw,
      status: r.status,
      reason: r.reason,
      company:
        r.company_id !== null && r.org_number !== null && r.legal_name !== null ? { id: r.company_id, orgNumber: r.org_number, name: r.legal_name } : null,
      candidates: parse<Candidate[]>(r.candidates) ?? [],
      chosenCompanyId: r.chosen_company_id,
    })),
  };
}

/** Resolves an ambiguous row by one of its candidates (or undoes the choice with null). Only before the import is confirmed. */
export async function chooseCandidate(input: Scope & { importId: number; rowNumber: number; companyId: number | null }): Promise<boolean> {
  const own = await ownImports(db(), input).where("i.id", "=", input.importId).executeTakeFirst();
  if (!own) return false;
  if (own.status === "confirmed") throw refuseImport("already-confirmed");
  if (own.status !== "ready") throw refuseImport("not-ready");
  const row = await db()
    .selectFrom("supplier_import_rows")
    .select(["id", "candidates"])
    .where("import_id", "=", input.importId)
    .where("row_number", "=", input.rowNumber)
    .where("status", "=", "ambiguous")
    .executeTakeFirst();
  if (!row) throw refuseImport("row-not-found");
  if (input.companyId !== null && !(parse<Candidate[]>(row.candidates) ?? []).some((c) => c.companyId === input.companyId))
    throw refuseImport("not-a-candidate");
  await db().updateTable("supplier_import_rows").set({ chosen_company_id: input.companyId }).where("id", "=", row.id).execute();
  return true;
}

export type TagChoice = { id: number } | { title: string } | null;

export interface ConfirmResult {
  created: number;
  /** Already a supplier when confirmed (left as they were). */
  existing: number;
  tag: { id: number; title: string } | null;
}

async function resolveTag(trx: Db, organizationId: number, choice: TagChoice): Promise<{ id: number; title: string } | null> {
  if (choice === null) return null;
  if ("id" in choice) {
    const tag = await trx
      .selectFrom("organization_tags")
      .select(["id", "title"])
      .where("organization_id", "=", organizationId)
      .where("id", "=", choice.id)
      .executeTakeFirst();
    if (!tag) throw refuseImport("tag-not-found", "tagId");
    return tag;
  }
  const title = choice.title.trim();
  if (!title) throw refuseImport("tag-empty", "newTag");
  // Titles are unique per organisation regardless of case: an existing one is reused.
  const existing = await trx
    .selectFrom("organization_tags")
    .select(["id", "title"])
    .where("organization_id", "=", organizationId)
    .where((eb) => eb(eb.fn("lower", ["title"]), "=", title.toLowerCase()))
    .executeTakeFirst();
  if (existing) return existing;
  return trx
    .insertInto("organization_tags")
    .values({ organization_id: organizationId, title, created_at: now() })
    .returning(["id", "title"])
    .executeTakeFirstOrThrow();
}

/**
 * Creates the missing supplier connections of a ready import — its matched rows and the ambiguous rows resolved by a choice —
 * in ONE transaction: a company the organisation already follows (now, not only when analysed) is left as it is; the tag, when
 * given, goes on every connection the import created; each creation is an "imported" row in the audit trail. The import is
 * claimed first (ready → confirmed), so a second confirm — even a concurrent one — is refused and creates nothing.
 */
export async function confirmImport(input: Scope & { importId: number; tag: TagChoice }): Promise<ConfirmResult | undefined> {
  const imp = await ownImports(db(), input).where("i.id", "=", input.importId).executeTakeFirst();
  if (!imp) return undefined;
  if (imp.status === "confirmed") throw refuseImport("already-confirmed");
  if (imp.status !== "ready") throw refuseImport("not-ready");
  const result = await db()
    .transaction()
    .execute(async (trx) => {
      const at = now();
      const claimed = await trx
        .updateTable("supplier_imports")
        .set({ status: "confirmed", confirmed_by: input.userId, confirmed_at: at })
        .where("id", "=", input.importId)
        .where("organization_id", "=", input.organizationId)
        .where("status", "=", "ready")
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw refuseImport("already-confirmed");
      const tag = await resolveTag(trx, input.organizationId, input.tag);

      const picks = await trx
        .selectFrom("supplier_import_rows as r")
        .innerJoin("companies as c", (join) =>
          join.on((eb) =>
            eb.or([
              eb.and([eb("r.status", "=", "matched"), eb("c.id", "=", eb.ref("r.company_id"))]),
              eb.and([eb("r.status", "=", "ambiguous"), eb("c.id", "=", eb.ref("r.chosen_company_id"))]),
            ]),
          ),
        )
        .select(["r.row_number", "c.id", "c.org_number", "c.legal_name", "c.country_code"])
        .where("r.import_id", "=", input.importId)
        .orderBy("r.row_number")
        .execute();
      const self = await trx.selectFrom("organizations").select("org_number").where("id", "=", input.organizationId).executeTakeFirst();

      let created = 0;
      let existing = 0;
      const done = new Set<number>();
      for (const company of picks) {
        if (done.has(company.id)) continue;
        done.add(company.id);
        if (self?.org_number && company.org_number === self.org_number) continue;
        const connected = await connectCompany(trx, {
          organizationId: input.organizationId,
          userId: input.userId,
          company,
          event: { action: "imported", detail: { importId: input.importId, orgNumber: company.org_number, fileName: imp.file_name, row: company.row_number } },
        });
        if (!connected) continue;
        if (!connected.created) {
          existing++;
          continue;
        }
        created++;
        const base = { connectionId: connected.connectionId, organizationId: input.organizationId, userId: input.userId };
        if (tag) {
          await trx.insertInto("organization_connection_tags").values({ connection_id: connected.connectionId, tag_id: tag.id, created_at: at }).execute();
          await recordConnectionEvent({ ...base, action: "tag_added", detail: { tagId: tag.id, title: tag.title } }, trx);
        }
      }
      const counts = { ...(parse<StatusCounts>(imp.counts) ?? emptyCounts()), created };
      await trx
        .updateTable("supplier_imports")
        .set({ tag_id: tag?.id ?? null, counts: JSON.stringify(counts) })
        .where("id", "=", input.importId)
        .execute();
      return { created, existing, tag };
    });
  // The new suppliers get their overall risk (decision 036); set-based over the organisation.
  await recomputeOverallRisk({ organizationId: input.organizationId });
  return result;
}

/* ---------------- the analysis screen and the analyzeFile call ---------------- */

export interface AnalysisSource {
  file: { id: number; fileName: string };
  sheets: string[];
  sheet: number;
  /** The first rows (PREVIEW_ROWS), padded to the widest. */
  preview: string[][];
  columnCount: number;
}

/**
 * The user's own file as a spreadsheet: its sheets and the preview of one. undefined when the file is not the user's;
 * `{ refused }` with the readers' message key when it is not a spreadsheet that can be read.
 */
export async function analysisSource(input: Scope & { fileId: number; sheet?: number }): Promise<AnalysisSource | { refused: string } | undefined> {
  const file = await db()
    .selectFrom("file_uploads")
    .select(["id", "file_name", "storage_key"])
    .where("id", "=", input.fileId)
    .where("organization_id", "=", input.organizationId)
    .where("user_id", "=", input.userId)
    .executeTakeFirst();
  if (!file) return undefined;
  try {
    const reader = await openSpreadsheet(storedFilePath(file.storage_key), file.file_name);
    const sheet = Math.min(Math.max(0, input.sheet ?? 0), reader.sheets.length - 1);
    const preview = await previewRows(reader, sheet, PREVIEW_ROWS);
    return { file: { id: file.id, fileName: file.file_name }, sheets: reader.sheets, sheet, preview, columnCount: preview[0]?.length ?? 0 };
  } catch (error) {
    if (error instanceof SpreadsheetError) return { refused: error.messageKey };
    throw error;
  }
}

/** Why an analysis does not start, as the `code` of its Refusal: a file that is not the user's, one the readers refuse (`details.messageKey` says why), or a mapping problem (`field` names it). */
export type AnalysisRefusal = "file-not-found" | "file-unreadable" | MappingProblem;

/**
 * The one way an analysis starts (the analyzeFile call and the analysis screen's form): checks the file and the mapping,
 * then creates the import. Refuses (AnalysisRefusal) a file that is not the user's, one that cannot be read, and a
 * mapping the file does not fit.
 */
export async function startAnalysis(input: Scope & { fileId: number; mapping: MappingInput }): Promise<{ importId: number; jobId: number; href: string }> {
  const source = await analysisSource({ ...input, sheet: input.mapping.sheet });
  if (!source) throw refuse("not-found", "file-not-found", { message: "No file with this id." });
  if ("refused" in source) throw refuse("invalid", "file-unreadable", { field: "fileId", details: { messageKey: source.refused } });
  const problem = mappingProblem(input.mapping, source);
  if (problem) throw refuse("invalid", problem.problem, { field: problem.field });
  const { orgId, orgName, countryCode, hasHeaders, sheet } = input.mapping;
  const { importId, jobId } = await createImport({ ...input, mapping: { orgId: orgId!, orgName: orgName!, countryCode, hasHeaders, sheet } });
  return { importId, jobId, href: importHref(importId) };
}

/** How many lines of an import would create a supplier if confirmed now: matched ones and ambiguous ones with a choice. */
export async function linesToCreate(input: Scope & { importId: number }): Promise<number> {
  const own = await ownImports(db(), input).where("i.id", "=", input.importId).executeTakeFirst();
  if (!own) return 0;
  const row = await db()
    .selectFrom("supplier_import_rows")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("import_id", "=", input.importId)
    .where((eb) => eb.or([eb("status", "=", "matched"), eb.and([eb("status", "=", "ambiguous"), eb("chosen_company_id", "is not", null)])]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
