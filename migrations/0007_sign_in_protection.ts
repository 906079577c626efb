import { sql, type Kysely } from "kysely";

/**
 * Sign-up by mailed confirmation (so the form answers the same whether or not
 * an email has an account) and the unlock links mailed to the owner of an
 * account that many failed sign-ins protect. See docs/decisions/011.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("signup_requests")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("organization_name", "text", (c) => c.notNull().check(sql`length(trim(organization_name)) > 0`))
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("language", "text", (c) => c.notNull().check(sql`language in ('en', 'no')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();

  await db.schema
    .createTable("account_unlocks")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("account_unlocks_user").on("account_unlocks").columns(["user_id", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_unlocks").execute();
  await db.schema.dropTable("signup_requests").execute();
}
