import { sql, type Kysely } from "kysely";

/**
 * The extracted text of an uploaded document (/ai/documents): what the assistant reads when the user attaches the
 * file to a message. One row per file, made when the file is uploaded on /ai/documents or first opened there; it goes with
 * the file (cascade). `status` 'failed' keeps the reason as a translation key, so a broken file is not read again on every
 * visit. See docs/decisions/030-ai-documents.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("document_texts")
    .addColumn("file_upload_id", "integer", (c) => c.primaryKey().references("file_uploads.id").onDelete("cascade"))
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('ready', 'failed')`))
    .addColumn("text", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("pages", "integer")
    .addColumn("characters", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("truncated", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("error_key", "text")
    .addColumn("extracted_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("document_texts").execute();
}
