import { sql, type Kysely } from "kysely";

/**
 * The outside services' status and their runtime settings (decision 043): per service the last success and
 * the last error (a short message without secrets) and the last "test connection" result; settings an administrator
 * changes at run time, each value AES-256-GCM encrypted under SETTINGS_ENCRYPTION_KEY, never stored in clear.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("integration_status")
    .addColumn("code", "text", (c) => c.primaryKey().check(sql`code in ('registry', 'lei', 'credit', 'llm', 'mail')`))
    .addColumn("last_success_at", "text")
    .addColumn("last_error_at", "text")
    .addColumn("last_error", "text")
    .addColumn("last_test_at", "text")
    .addColumn("last_test_ok", "integer", (c) => c.check(sql`last_test_ok is null or last_test_ok in (0, 1)`))
    .addColumn("last_test_ms", "integer")
    .addColumn("last_test_message", "text")
    .execute();
  await db.schema
    .createTable("integration_settings")
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("ciphertext", "text", (c) => c.notNull())
    .addColumn("set_at", "text", (c) => c.notNull())
    .addColumn("set_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addPrimaryKeyConstraint("integration_settings_pk", ["code", "name"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("integration_settings").execute();
  await db.schema.dropTable("integration_status").execute();
}
