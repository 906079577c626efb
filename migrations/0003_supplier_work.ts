import { sql, type Kysely } from "kysely";

/**
 * Local state the supplier screen reads besides the registry: supplier
 * connections (a customer organisation following a supplier organisation;
 * the supplier's own connections are its sub-suppliers), risk notifications
 * about companies, uploaded files, compliance tasks with responses, and
 * surveys. Booleans are 0/1 integers.
 */
const flag = (name: string) => sql`${sql.ref(name)} in (0, 1)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // Whether a supplier organisation lets its customers see its own suppliers.
  await db.schema
    .alterTable("organizations")
    .addColumn("data_sharing_enabled", "integer", (c) => c.notNull().defaultTo(0).check(flag("data_sharing_enabled")))
    .execute();

  await db.schema
    .createTable("organization_connections")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("parent_organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("child_organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("contact_email", "text")
    .addColumn("is_priority", "integer", (c) => c.notNull().defaultTo(0).check(flag("is_priority")))
    .addColumn("is_due_diligence", "integer", (c) => c.notNull().defaultTo(0).check(flag("is_due_diligence")))
    .addColumn("is_deleted", "integer", (c) => c.notNull().defaultTo(0).check(flag("is_deleted")))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("organization_connections_not_self", sql`parent_organization_id <> child_organization_id`)
    .execute();
  // One active connection per pair; soft-deleted ones stay as history.
  await db.schema
    .createIndex("organization_connections_active_pair")
    .on("organization_connections")
    .columns(["parent_organization_id", "child_organization_id"])
    .unique()
    .where(sql.ref("is_deleted"), "=", 0)
    .execute();
  await db.schema.createIndex("organization_connections_child").on("organization_connections").column("child_organization_id").execute();

  await db.schema
    .createTable("risk_notifications")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull().check(sql`type in ('announcement', 'search')`))
    .addColumn("date", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("risk_score", "integer", (c) => c.notNull().check(sql`risk_score between 0 and 100`))
    .addColumn("relevance_score", "integer", (c) => c.notNull().check(sql`relevance_score between 0 and 100`))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("source", "text")
    .addColumn("url", "text")
    .addColumn("description", "text")
    .execute();
  await db.schema.createIndex("risk_notifications_company").on("risk_notifications").columns(["company_id", "risk_score"]).execute();
  await db.schema.createIndex("risk_notifications_date").on("risk_notifications").columns(["date"]).execute();

  await db.schema
    .createTable("file_uploads")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("file_size", "integer", (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    // Generated name under DATA_DIR/uploads; the original name is metadata only.
    .addColumn("storage_key", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("file_uploads_organization").on("file_uploads").columns(["organization_id", "created_at"]).execute();
  await db.schema.createIndex("file_uploads_user").on("file_uploads").column("user_id").execute();

  await db.schema
    .createTable("compliance_task_templates")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.references("organizations.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("template_file_id", "integer", (c) => c.references("file_uploads.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("compliance_tasks")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    // The customer organisation that sent the task, and the supplier that answers it.
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("supplier_organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("template_id", "integer", (c) => c.references("compliance_task_templates.id").onDelete("set null"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("is_custom", "integer", (c) => c.notNull().defaultTo(0).check(flag("is_custom")))
    .addColumn("is_submitted", "integer", (c) => c.notNull().defaultTo(0).check(flag("is_submitted")))
    .addColumn("due_date", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("compliance_tasks_pair").on("compliance_tasks").columns(["organization_id", "supplier_organization_id"]).execute();
  await db.schema.createIndex("compliance_tasks_supplier").on("compliance_tasks").column("supplier_organization_id").execute();

  await db.schema
    .createTable("compliance_task_responses")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("task_id", "integer", (c) => c.notNull().unique().references("compliance_tasks.id").onDelete("cascade"))
    .addColumn("responder_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("comment", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("compliance_task_response_files")
    .addColumn("response_id", "integer", (c) => c.notNull().references("compliance_task_responses.id").onDelete("cascade"))
    .addColumn("file_upload_id", "integer", (c) => c.notNull().references("file_uploads.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("compliance_task_response_files_pk", ["response_id", "file_upload_id"])
    .execute();

  await db.schema
    .createTable("survey_templates")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.references("organizations.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("questions", "text", (c) =>
      c
        .notNull()
        .defaultTo("[]")
        .check(sql`json_valid(questions)`),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("survey_responses")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("survey_template_id", "integer", (c) => c.notNull().references("survey_templates.id").onDelete("cascade"))
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("supplier_organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("draft")
        .check(sql`status in ('draft', 'submitted')`),
    )
    .addColumn("answers", "text", (c) =>
      c
        .notNull()
        .defaultTo("{}")
        .check(sql`json_valid(answers)`),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("submitted_at", "text")
    .execute();
  await db.schema.createIndex("survey_responses_pair").on("survey_responses").columns(["organization_id", "supplier_organization_id", "status"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    "survey_responses",
    "survey_templates",
    "compliance_task_response_files",
    "compliance_task_responses",
    "compliance_tasks",
    "compliance_task_templates",
    "file_uploads",
    "risk_notifications",
    "organization_connections",
  ]) {
    await db.schema.dropTable(t).execute();
  }
  await db.schema.alterTable("organizations").dropColumn("data_sharing_enabled").execute();
}
