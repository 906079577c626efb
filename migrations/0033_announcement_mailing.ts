import type { Kysely } from "kysely";

/**
 * Announcements are mailed by a job (decision 045): when the mail was asked for, how far the job has come (the last
 * user id handled, so a retried job does not mail anyone twice) and how many mails went out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("admin_announcements").addColumn("mail_queued_at", "text").execute();
  await db.schema.alterTable("admin_announcements").addColumn("mail_cursor", "integer").execute();
  await db.schema
    .alterTable("admin_announcements")
    .addColumn("mailed_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("admin_announcements")
    .addColumn("mail_failed_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["mail_failed_count", "mailed_count", "mail_cursor", "mail_queued_at"]) {
    await db.schema.alterTable("admin_announcements").dropColumn(column).execute();
  }
}
