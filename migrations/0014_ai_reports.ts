import { sql, type Kysely } from "kysely";

/**
 * Supplier reports the assistant's provider wrote (/ai/reports): one row per report, owned by the organisation
 * (every member at level 2 sees its list), remembering who asked for it. The markdown is the report; the PDF is rendered from
 * it on download. See docs/decisions/029-ai-supplier-reports.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("ai_reports")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("org_number", "text", (c) => c.notNull())
    .addColumn("company_name", "text", (c) => c.notNull())
    .addColumn("language", "text", (c) => c.notNull().check(sql`language in ('en', 'no')`))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('generating', 'ready', 'failed')`))
    .addColumn("markdown", "text")
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .execute();
  // The organisation's list, newest first.
  await db.schema.createIndex("ai_reports_org_created").on("ai_reports").columns(["organization_id", "created_at desc", "id desc"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("ai_reports").execute();
}
