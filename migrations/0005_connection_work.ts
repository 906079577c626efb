import { sql, type Kysely } from "kysely";

/**
 * Around a supplier connection: the organisation's tags and their links,
 * comments, attached files, case files with comments and events, and the
 * audit trail of every change to a connection.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("organization_tags")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull().check(sql`length(trim(title)) > 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // A title is unique per organisation regardless of case ('ISO' and 'iso' are one tag).
  await sql`create unique index organization_tags_title on organization_tags (organization_id, title collate nocase)`.execute(db);

  await db.schema
    .createTable("organization_connection_tags")
    .addColumn("connection_id", "integer", (c) => c.notNull().references("organization_connections.id").onDelete("cascade"))
    .addColumn("tag_id", "integer", (c) => c.notNull().references("organization_tags.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("organization_connection_tags_pk", ["connection_id", "tag_id"])
    .execute();
  await db.schema.createIndex("organization_connection_tags_tag").on("organization_connection_tags").column("tag_id").execute();

  await db.schema
    .createTable("organization_connection_comments")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("connection_id", "integer", (c) => c.notNull().references("organization_connections.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("text", "text", (c) => c.notNull().check(sql`length(trim(text)) > 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("organization_connection_comments_connection")
    .on("organization_connection_comments")
    .columns(["connection_id", "created_at"])
    .execute();

  await db.schema
    .createTable("organization_connection_files")
    .addColumn("connection_id", "integer", (c) => c.notNull().references("organization_connections.id").onDelete("cascade"))
    // Deleting an uploaded file detaches it everywhere; the model records that in the audit trail first.
    .addColumn("file_upload_id", "integer", (c) => c.notNull().references("file_uploads.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("organization_connection_files_pk", ["connection_id", "file_upload_id"])
    .execute();
  await db.schema.createIndex("organization_connection_files_file").on("organization_connection_files").column("file_upload_id").execute();

  await db.schema
    .createTable("casefiles")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("supplier_organization_id", "integer", (c) => c.references("organizations.id").onDelete("set null"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("open")
        .check(sql`status in ('open', 'in_progress', 'on_hold', 'closed')`),
    )
    .addColumn("priority", "integer", (c) => c.check(sql`priority is null or priority between 1 and 5`))
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("casefiles_org_supplier").on("casefiles").columns(["organization_id", "supplier_organization_id"]).execute();

  await db.schema
    .createTable("casefile_comments")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("casefile_id", "integer", (c) => c.notNull().references("casefiles.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("text", "text", (c) => c.notNull().check(sql`length(trim(text)) > 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("casefile_comments_casefile").on("casefile_comments").column("casefile_id").execute();

  await db.schema
    .createTable("casefile_events")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("casefile_id", "integer", (c) => c.notNull().references("casefiles.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.check(sql`detail is null or json_valid(detail)`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("casefile_events_casefile").on("casefile_events").column("casefile_id").execute();

  await db.schema
    .createTable("connection_events")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("connection_id", "integer", (c) => c.notNull().references("organization_connections.id").onDelete("cascade"))
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.check(sql`detail is null or json_valid(detail)`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("connection_events_connection").on("connection_events").columns(["connection_id", "created_at"]).execute();

  // The supplier list sorts and filters by these.
  await db.schema
    .createIndex("organization_connections_parent_active")
    .on("organization_connections")
    .columns(["parent_organization_id", "is_deleted", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("organization_connections_parent_active").execute();
  for (const t of [
    "connection_events",
    "casefile_events",
    "casefile_comments",
    "casefiles",
    "organization_connection_files",
    "organization_connection_comments",
    "organization_connection_tags",
    "organization_tags",
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
