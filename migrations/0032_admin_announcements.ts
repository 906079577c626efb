import type { Kysely } from "kysely";

/**
 * Announcements (decision 045): a message from the installation's administrator to every user
 * (organization_id null) or to one organisation's users, shown on /overview and optionally mailed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("admin_announcements")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.references("organizations.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("mailed_at", "text")
    .addColumn("withdrawn_at", "text")
    .execute();
  await db.schema.createIndex("admin_announcements_created").on("admin_announcements").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("admin_announcements").execute();
}
