import { sql, type Kysely } from "kysely";

/**
 * The supplier-list import: an uploaded spreadsheet analysed by a background job into one row per line of
 * the file, matched against the registry, shown as a dry run, and confirmed into supplier connections. See
 * docs/decisions/018-supplier-list-import.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("supplier_imports")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // Deleting the uploaded list deletes its analysis (the connections it made stay, and so does their audit trail).
    .addColumn("file_upload_id", "integer", (c) => c.notNull().references("file_uploads.id").onDelete("cascade"))
    // The job that analyses it (server/jobs, migration 0008); set right after the job is enqueued, in the same transaction.
    .addColumn("job_id", "integer", (c) => c.references("jobs.id").onDelete("set null"))
    // {orgId, orgName, countryCode|null, hasHeaders, sheet}: column indexes from 0.
    .addColumn("mapping", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('analysing', 'ready', 'failed', 'confirmed')`))
    // {total, matched, ambiguous, not_found, invalid, existing, duplicate} once analysed; {done, total} while analysing.
    .addColumn("counts", "text")
    // "ns:key" of a failed analysis.
    .addColumn("error", "text")
    .addColumn("result_file_id", "integer", (c) => c.references("file_uploads.id").onDelete("set null"))
    .addColumn("tag_id", "integer", (c) => c.references("organization_tags.id").onDelete("set null"))
    .addColumn("confirmed_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("confirmed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("supplier_imports_owner").on("supplier_imports").columns(["organization_id", "user_id", "created_at"]).execute();
  await db.schema.createIndex("supplier_imports_file").on("supplier_imports").column("file_upload_id").execute();

  await db.schema
    .createTable("supplier_import_rows")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("import_id", "integer", (c) => c.notNull().references("supplier_imports.id").onDelete("cascade"))
    // The line of the file, from 1 (a header line counts, so the number is the one the user sees in Excel).
    .addColumn("row_number", "integer", (c) => c.notNull())
    // The original cells, a JSON array of strings.
    .addColumn("cells", "text", (c) => c.notNull())
    .addColumn("org_id_raw", "text")
    .addColumn("name_raw", "text")
    .addColumn("country_raw", "text")
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('matched', 'ambiguous', 'not_found', 'invalid', 'existing', 'duplicate')`))
    .addColumn("company_id", "integer", (c) => c.references("companies.id").onDelete("set null"))
    // [{companyId, orgNumber, name, confidence}] for an ambiguous row.
    .addColumn("candidates", "text")
    .addColumn("confidence", "real")
    // A key of the imports namespace (`reason.<key>`).
    .addColumn("reason", "text")
    .addColumn("chosen_company_id", "integer", (c) => c.references("companies.id").onDelete("set null"))
    .execute();
  await db.schema.createIndex("supplier_import_rows_row").unique().on("supplier_import_rows").columns(["import_id", "row_number"]).execute();
  await db.schema.createIndex("supplier_import_rows_status").on("supplier_import_rows").columns(["import_id", "status", "row_number"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("supplier_import_rows").execute();
  await db.schema.dropTable("supplier_imports").execute();
}
