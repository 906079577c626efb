import { sql, type Kysely } from "kysely";

/**
 * Credit report orders: who ordered which report, in which language, from
 * which provider, at what price, and where its PDF is kept. The idempotency
 * key makes a repeated confirm (reload, double click) return the first order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("credit_reports")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("company_name", "text", (c) => c.notNull())
    .addColumn("reg_no", "text")
    .addColumn("country_code", "text", (c) => c.notNull())
    .addColumn("language", "text", (c) => c.notNull().check(sql`language in ('EN', 'NO')`))
    .addColumn("provider", "text", (c) => c.notNull().check(sql`provider in ('local', 'creditsafe')`))
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull())
    // Generated name under DATA_DIR/credit-reports.
    .addColumn("storage_key", "text", (c) => c.notNull().unique())
    .addColumn("file_size", "integer", (c) => c.notNull())
    .addColumn("price_nok", "integer", (c) => c.notNull())
    .addColumn("idempotency_key", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("credit_reports_idempotency", ["organization_id", "idempotency_key"])
    .execute();
  await db.schema.createIndex("credit_reports_org_created").on("credit_reports").columns(["organization_id", "created_at"]).execute();
  await db.schema.createIndex("credit_reports_org_company").on("credit_reports").columns(["organization_id", "country_code", "reg_no", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("credit_reports").execute();
}
