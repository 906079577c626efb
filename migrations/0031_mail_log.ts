import { sql, type Kysely } from "kysely";

/**
 * The mail log (decision 044): every mail `sendMail` sends or fails to send, with its body so that a failed
 * one can be sent again from /admin/send-old. Bodies hold one-time links: rows are purged after MAIL_LOG_DAYS.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("mail_log")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("kind", "text")
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("headers", "text")
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('sent', 'failed')`))
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_attempt_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema.createIndex("mail_log_status").on("mail_log").columns(["status", "last_attempt_at"]).execute();
  await db.schema.createIndex("mail_log_created").on("mail_log").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mail_log").execute();
}
