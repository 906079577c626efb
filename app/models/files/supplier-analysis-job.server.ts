import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import { db, now, type Db } from "@server/db";
import { storedFilePath } from "@server/storage";
import { PermanentJobError, type JobContext } from "@server/jobs/types";
import { openSpreadsheet, SpreadsheetError } from "@server/spreadsheets";
import { createXlsxWriter } from "@server/spreadsheets/xlsx-writer";
import { columnLetter } from "~/models/files/spreadsheet-columns";
import { isLanguage } from "~/i18n";
import { translate, type Store } from "~/translate";
import enImports from "../../../locales/en/imports.json";
import noImports from "../../../locales/no/imports.json";
import { type ImportMapping, type StatusCounts } from "~/models/files/import-decisions";
import { analyseRows, matchingContext } from "~/models/files/supplier-matching.server";

/**
 * The "supplier-analysis" job (payload {importId}): reads the uploaded list with the file readers, matches every line
 * (supplier-matching.server.ts), writes the result spreadsheet into the user's files and marks the import ready — the
 * last two in `ctx.finish`, so they happen exactly once however often the job runs (a worker killed mid-job leaves it to
 * the next). A file the readers refuse fails the import with the readers' message; nothing is written. See
 * docs/decisions/018-supplier-list-import.md.
 */

export interface SupplierAnalysisPayload {
  importId: number;
}

export interface SupplierAnalysisResult {
  importId: number;
  counts?: StatusCounts;
  resultFileId?: number | null;
  skipped?: string;
}

/** The result file's storage key: the same for every attempt of one import, so a retry overwrites instead of adding a file. */
export function resultStorageKey(importId: number, createdAt: string): string {
  return createHash("sha256").update(`supplier-import-result:${importId}:${createdAt}`).digest("hex").slice(0, 32);
}

async function loadImport(importId: number) {
  return db()
    .selectFrom("supplier_imports as i")
    .innerJoin("file_uploads as f", "f.id", "i.file_upload_id")
    .innerJoin("users as u", "u.id", "i.user_id")
    .select([
      "i.id",
      "i.organization_id",
      "i.user_id",
      "i.status",
      "i.mapping",
      "i.result_file_id",
      "i.created_at",
      "f.file_name",
      "f.storage_key",
      "u.language",
    ])
    .where("i.id", "=", importId)
    .executeTakeFirst();
}

/** A refused file: the import fails with the readers' message and keeps no rows. */
async function failImport(importId: number, messageKey: string): Promise<void> {
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom("supplier_import_rows").where("import_id", "=", importId).execute();
      await trx
        .updateTable("supplier_imports")
        .set({ status: "failed", error: JSON.stringify({ key: messageKey, params: {} }) })
        .where("id", "=", importId)
        .where("status", "=", "analysing")
        .execute();
    });
}

// The job reads its texts from the locale files directly (not through the request-bound i18next instance), so it runs the
// same in the server, in `npm run worker` and in a plain Node process (the crash test).
const STORE: Store = { en: { imports: enImports }, no: { imports: noImports } };
type T = (key: string, options?: Record<string, unknown>) => string;
const textsFor = (language: string): T => {
  const languages = isLanguage(language) && language !== "en" ? [language, "en"] : ["en"];
  return (key, options) => translate(STORE, languages, "imports", key, options);
};

/**
 * The result spreadsheet: the original columns, then status, matched organisation number, matched name and reason.
 * Streamed page by page into the file (flat memory for 100 000 lines), under a partial name until it is whole.
 */
async function writeResultFile(database: Db, input: { importId: number; header: string[] | null; language: string; target: string }): Promise<number> {
  const t = textsFor(input.language);
  const widest = await database
    .selectFrom("supplier_import_rows")
    .select((eb) => eb.fn.max(eb.fn("json_array_length", ["cells"])).as("w"))
    .where("import_id", "=", input.importId)
    .executeTakeFirst();
  const width = Math.max(Number(widest?.w ?? 0), input.header?.length ?? 0);
  const original = Array.from({ length: width }, (_, i) => input.header?.[i] ?? columnLetter(i));
  const partial = `${input.target}.part`;
  const writer = await createXlsxWriter(partial, { sheetName: t("result.sheetName"), columnWidths: [...original.map(() => 18), 20, 16, 32, 48] });
  try {
    await writer.addRow([...original, t("result.status"), t("result.orgNumber"), t("result.name"), t("result.reason")], { bold: true });
    await writeResultRows(database, input.importId, width, t, (row) => writer.addRow(row));
    await writer.close();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  await fs.rename(partial, input.target);
  return (await fs.stat(input.target)).size;
}

/** The import's lines in order, a page at a time, as the result file's rows. */
async function writeResultRows(database: Db, importId: number, width: number, t: T, add: (row: string[]) => Promise<void>): Promise<void> {
  let after = 0;
  for (;;) {
    const page = await database
      .selectFrom("supplier_import_rows as r")
      .leftJoin("companies as c", "c.id", "r.company_id")
      .select(["r.row_number", "r.cells", "r.status", "r.reason", "c.org_number", "c.legal_name"])
      .where("r.import_id", "=", importId)
      .where("r.row_number", ">", after)
      .orderBy("r.row_number")
      .limit(5000)
      .execute();
    if (!page.length) break;
    for (const r of page) {
      const cells = JSON.parse(r.cells) as string[];
      const padded = Array.from({ length: width }, (_, i) => cells[i] ?? "");
      await add([...padded, t(`status.${r.status}`), r.org_number ?? "", r.legal_name ?? "", r.reason ? t(`reason.${r.reason}`) : ""]);
    }
    after = page[page.length - 1].row_number;
  }
}

export async function supplierAnalysis(ctx: JobContext<SupplierAnalysisPayload>): Promise<void> {
  const importId = Number(ctx.job.payload?.importId);
  const imp = Number.isSafeInteger(importId) ? await loadImport(importId) : undefined;
  // The job names its import, and only one of the same organisation and user.
  if (!imp || imp.organization_id !== ctx.job.organizationId || imp.user_id !== ctx.job.userId) throw new PermanentJobError("imports:errors.importGone");
  if (imp.status !== "analysing") {
    await ctx.finish(async () => ({ importId, skipped: imp.status }) satisfies SupplierAnalysisResult);
    return;
  }
  const mapping = JSON.parse(imp.mapping) as ImportMapping;
  const filePath = storedFilePath(imp.storage_key);

  let analysed: Awaited<ReturnType<typeof analyseRows>>;
  try {
    const reader = await openSpreadsheet(filePath, imp.file_name, { signal: ctx.signal });
    if (mapping.sheet >= reader.sheets.length) throw new SpreadsheetError("empty");
    // The total for "N of M rows": one pass to count (an xlsx is in memory already; a CSV is read twice, streamed).
    let total = 0;
    for await (const row of reader.rows(mapping.sheet)) if (row.some((c) => c.trim() !== "")) total++;
    if (mapping.hasHeaders && total > 0) total--;
    await ctx.progress(0, total);
    const matching = await matchingContext(db(), imp.organization_id);
    analysed = await analyseRows({
      ctx: matching,
      importId,
      mapping,
      rows: reader.rows(mapping.sheet),
      signal: ctx.signal,
      onProgress: (done) => ctx.progress(done, Math.max(total, done)),
    });
  } catch (error) {
    if (error instanceof SpreadsheetError) {
      await failImport(importId, error.messageKey);
      throw new PermanentJobError(error.messageKey);
    }
    throw error;
  }

  const storageKey = resultStorageKey(importId, imp.created_at);
  const fileSize = await writeResultFile(db(), { importId, header: analysed.header, language: imp.language, target: storedFilePath(storageKey) });
  const t = textsFor(imp.language);
  const baseName = imp.file_name.replace(/\.(xlsx|xls|csv|txt)$/i, "");

  await ctx.finish(async (trx: Db) => {
    const current = await trx.selectFrom("supplier_imports").select(["status", "result_file_id"]).where("id", "=", importId).executeTakeFirstOrThrow();
    if (current.status !== "analysing") return { importId, skipped: current.status } satisfies SupplierAnalysisResult;
    let resultFileId = current.result_file_id;
    if (resultFileId === null) {
      const existing = await trx.selectFrom("file_uploads").select("id").where("storage_key", "=", storageKey).executeTakeFirst();
      resultFileId =
        existing?.id ??
        (
          await trx
            .insertInto("file_uploads")
            .values({
              organization_id: imp.organization_id,
              user_id: imp.user_id,
              file_name: t("result.fileName", { name: baseName }),
              file_size: fileSize,
              mime_type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
              content_kind: "xlsx",
              storage_key: storageKey,
              created_at: now(),
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
    }
    await trx
      .updateTable("supplier_imports")
      .set({ status: "ready", counts: JSON.stringify(analysed.counts), result_file_id: resultFileId, error: null })
      .where("id", "=", importId)
      .execute();
    return { importId, counts: analysed.counts, resultFileId } satisfies SupplierAnalysisResult;
  });
}
