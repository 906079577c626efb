import { sql, type Kysely } from "kysely";

/**
 * The user's e-mail settings (decision 040): reminders of tasks and of surveys sent to the user's own address
 * on or off, and the language of their mails (NULL: the account's language).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("notification_settings")
    .addColumn("task_reminders", "integer", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`task_reminders in (0, 1)`),
    )
    .execute();
  await db.schema
    .alterTable("notification_settings")
    .addColumn("survey_reminders", "integer", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`survey_reminders in (0, 1)`),
    )
    .execute();
  await db.schema
    .alterTable("notification_settings")
    .addColumn("mail_language", "text", (c) => c.check(sql`mail_language is null or mail_language in ('en', 'no')`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("notification_settings").dropColumn("mail_language").execute();
  await db.schema.alterTable("notification_settings").dropColumn("survey_reminders").execute();
  await db.schema.alterTable("notification_settings").dropColumn("task_reminders").execute();
}
