import { sql, type Kysely } from "kysely";

/**
 * Compliance tasks and surveys that suppliers answer (docs/decisions/031-tasks-and-surveys.md).
 *
 * - Templates become bilingual and versioned: a survey template's questions live in `survey_template_versions`
 *   (a definition per version, app/models/tasks/survey-definition.ts); a response keeps the version it was sent with.
 * - What a customer sends is a campaign (one task or survey, a message, a due date) to one or many suppliers; each supplier's
 *   copy is a `supplier_tasks` row carrying the workflow state (sent → opened → draft → submitted → accepted / returned,
 *   or cancelled) beside the existing answer rows (compliance_tasks + compliance_task_responses, survey_responses), which
 *   keep the shape the spec's calls read.
 * - Respondents without an account come in by a link whose token is stored only as a hash, expires and can be revoked.
 * - Every step is recorded (`supplier_task_events`); reminders are recorded per step so none is sent twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  /* ---- templates ---- */
  await db.schema.alterTable("compliance_task_templates").addColumn("title_no", "text").execute();
  await db.schema.alterTable("compliance_task_templates").addColumn("description_no", "text").execute();
  await db.schema
    .alterTable("compliance_task_templates")
    .addColumn("due_in_days", "integer", (c) => c.check(sql`due_in_days is null or due_in_days between 1 and 366`))
    .execute();
  await db.schema.alterTable("compliance_task_templates").addColumn("updated_at", "text").execute();
  await db.schema.alterTable("compliance_task_templates").addColumn("archived_at", "text").execute();
  // A starter template shipped with the product is found again by its key when the seed runs twice.
  await db.schema.alterTable("compliance_task_templates").addColumn("key", "text").execute();
  await sql`create unique index compliance_task_templates_key on compliance_task_templates (key) where key is not null`.execute(db);

  await db.schema.alterTable("survey_templates").addColumn("title_no", "text").execute();
  await db.schema.alterTable("survey_templates").addColumn("updated_at", "text").execute();
  await db.schema.alterTable("survey_templates").addColumn("archived_at", "text").execute();
  await db.schema.alterTable("survey_templates").addColumn("key", "text").execute();
  await sql`create unique index survey_templates_key on survey_templates (key) where key is not null`.execute(db);

  await db.schema
    .createTable("survey_template_versions")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("template_id", "integer", (c) => c.notNull().references("survey_templates.id").onDelete("cascade"))
    .addColumn("version", "integer", (c) => c.notNull().check(sql`version >= 1`))
    // The sections and questions (app/models/tasks/survey-definition.ts), validated on every write.
    .addColumn("definition", "text", (c) => c.notNull().check(sql`json_valid(definition)`))
    .addColumn("created_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("survey_template_versions_template").on("survey_template_versions").columns(["template_id", "version"]).unique().execute();

  // The earlier templates' flat question lists become version 1 (one section) and their responses point at it.
  const legacy = await sql<{
    id: number;
    title: string;
    questions: string;
    created_at: string;
  }>`select id, title, questions, created_at from survey_templates`.execute(db);
  for (const t of legacy.rows) {
    const definition = JSON.stringify(legacyDefinition(t.title, t.questions));
    await sql`insert into survey_template_versions (template_id, version, definition, created_at) values (${t.id}, 1, ${definition}, ${t.created_at})`.execute(
      db,
    );
  }

  await db.schema
    .alterTable("survey_responses")
    .addColumn("template_version_id", "integer", (c) => c.references("survey_template_versions.id").onDelete("set null"))
    .execute();
  // 0–100 from the version's scoring rule when submitted; NULL when the survey is not scored or not submitted.
  await db.schema
    .alterTable("survey_responses")
    .addColumn("score", "integer", (c) => c.check(sql`score is null or score between 0 and 100`))
    .execute();
  // The language the respondent answered in ('en' | 'no').
  await db.schema.alterTable("survey_responses").addColumn("language", "text").execute();
  await sql`update survey_responses set template_version_id = (select v.id from survey_template_versions v where v.template_id = survey_responses.survey_template_id and v.version = 1)`.execute(
    db,
  );
  const answered = await sql<{ id: number; answers: string }>`select id, answers from survey_responses`.execute(db);
  for (const r of answered.rows) {
    await sql`update survey_responses set answers = ${JSON.stringify(legacyAnswers(r.answers))} where id = ${r.id}`.execute(db);
  }

  // Evidence uploaded for a file question, with its optional expiry date.
  await db.schema
    .createTable("survey_response_files")
    .addColumn("response_id", "integer", (c) => c.notNull().references("survey_responses.id").onDelete("cascade"))
    .addColumn("question_id", "text", (c) => c.notNull())
    .addColumn("file_upload_id", "integer", (c) => c.notNull().references("file_uploads.id").onDelete("cascade"))
    .addColumn("expires_on", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("survey_response_files_pk", ["response_id", "question_id", "file_upload_id"])
    .execute();

  /* ---- campaigns and what each supplier got ---- */
  await db.schema
    .createTable("task_campaigns")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('task', 'survey')`))
    .addColumn("task_template_id", "integer", (c) => c.references("compliance_task_templates.id").onDelete("set null"))
    .addColumn("survey_template_version_id", "integer", (c) => c.references("survey_template_versions.id").onDelete("set null"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("message", "text")
    .addColumn("due_date", "text")
    // 'yearly': sent again a year later, pre-filled with the supplier's last answers.
    .addColumn("recurrence", "text", (c) => c.check(sql`recurrence is null or recurrence in ('yearly')`))
    .addColumn("previous_campaign_id", "integer", (c) => c.references("task_campaigns.id").onDelete("set null"))
    .addColumn("next_run_on", "text")
    .addColumn("created_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    // The address the campaign was sent from: links in later mails (reminders) use it when APP_URL is not set.
    .addColumn("origin", "text")
    // What the sending job did: JSON {sent: [...], skipped: [...]} once it has run.
    .addColumn("summary", "text", (c) => c.check(sql`summary is null or json_valid(summary)`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema.createIndex("task_campaigns_org").on("task_campaigns").columns(["organization_id", "created_at"]).execute();

  await db.schema
    .createTable("supplier_tasks")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    // The customer that sent it and the supplier that answers it.
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("supplier_organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("campaign_id", "integer", (c) => c.references("task_campaigns.id").onDelete("set null"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('task', 'survey')`))
    .addColumn("compliance_task_id", "integer", (c) => c.unique().references("compliance_tasks.id").onDelete("cascade"))
    .addColumn("survey_response_id", "integer", (c) => c.unique().references("survey_responses.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("recipient_email", "text")
    .addColumn("message", "text")
    .addColumn("due_date", "text")
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("sent")
        .check(sql`status in ('sent', 'opened', 'draft', 'submitted', 'accepted', 'returned', 'cancelled')`),
    )
    .addColumn("return_comment", "text")
    // Who answered: a user of the supplier, or the e-mail a link was opened from (delegation by forwarding).
    .addColumn("answered_by_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("answered_by_name", "text")
    .addColumn("sent_at", "text", (c) => c.notNull())
    .addColumn("opened_at", "text")
    .addColumn("submitted_at", "text")
    .addColumn("decided_at", "text")
    .addColumn("cancelled_at", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint(
      "supplier_tasks_one_answer",
      sql`(kind = 'task' and compliance_task_id is not null and survey_response_id is null) or (kind = 'survey' and survey_response_id is not null and compliance_task_id is null)`,
    )
    .execute();
  // The customer's list (/supplier_tasks), newest first, and per supplier (the supplier screen, the overview).
  await db.schema.createIndex("supplier_tasks_org_sent").on("supplier_tasks").columns(["organization_id", "sent_at"]).execute();
  await db.schema.createIndex("supplier_tasks_org_supplier").on("supplier_tasks").columns(["organization_id", "supplier_organization_id"]).execute();
  // The respondent's list: everything sent to their organisation by any customer, by due date.
  await db.schema.createIndex("supplier_tasks_supplier_due").on("supplier_tasks").columns(["supplier_organization_id", "due_date"]).execute();
  await db.schema.createIndex("supplier_tasks_campaign").on("supplier_tasks").columns(["campaign_id"]).execute();
  // The reminder job reads only what is still open.
  await sql`create index supplier_tasks_open_due on supplier_tasks (due_date) where status in ('sent', 'opened', 'draft', 'returned')`.execute(db);

  await db.schema
    .createTable("supplier_task_links")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("supplier_task_id", "integer", (c) => c.notNull().references("supplier_tasks.id").onDelete("cascade"))
    // SHA-256 of the token (hex); the token itself is only ever in the mail.
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("email", "text")
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("last_used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("supplier_task_links_task").on("supplier_task_links").column("supplier_task_id").execute();

  await db.schema
    .createTable("supplier_task_events")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("supplier_task_id", "integer", (c) => c.notNull().references("supplier_tasks.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) =>
      c.notNull().check(sql`kind in ('sent', 'opened', 'draft_saved', 'submitted', 'accepted', 'returned', 'reminded', 'cancelled', 'link_revoked')`),
    )
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    // Who did it when no user is signed in (a link's e-mail or the name the respondent gave), or the reminder's address.
    .addColumn("actor", "text")
    .addColumn("detail", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("supplier_task_events_task").on("supplier_task_events").columns(["supplier_task_id", "id"]).execute();

  // One row per reminder step sent ('before:7', 'before:3', 'before:1', 'overdue:1', 'manual:{iso}'): never twice.
  await db.schema
    .createTable("supplier_task_reminders")
    .addColumn("supplier_task_id", "integer", (c) => c.notNull().references("supplier_tasks.id").onDelete("cascade"))
    .addColumn("step", "text", (c) => c.notNull())
    .addColumn("sent_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("supplier_task_reminders_pk", ["supplier_task_id", "step"])
    .execute();

  // Per organisation: the days before the due date and after it on which reminders go out (JSON arrays of whole days).
  await db.schema
    .createTable("task_reminder_settings")
    .addColumn("organization_id", "integer", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
    .addColumn("days_before", "text", (c) =>
      c
        .notNull()
        .defaultTo("[7,3,1]")
        .check(sql`json_valid(days_before)`),
    )
    .addColumn("days_after", "text", (c) =>
      c
        .notNull()
        .defaultTo("[1]")
        .check(sql`json_valid(days_after)`),
    )
    .addColumn("enabled", "integer", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`enabled in (0, 1)`),
    )
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  /* ---- what was there before: every task and survey response gets its workflow row ---- */
  await sql`
    insert into supplier_tasks (organization_id, supplier_organization_id, kind, compliance_task_id, title, due_date, status,
      sent_at, submitted_at, updated_at)
    select t.organization_id, t.supplier_organization_id, 'task', t.id, t.title, t.due_date,
      case when t.is_submitted = 1 then 'submitted' else 'sent' end,
      t.created_at, case when t.is_submitted = 1 then t.updated_at end, t.updated_at
    from compliance_tasks t`.execute(db);
  await sql`
    insert into supplier_tasks (organization_id, supplier_organization_id, kind, survey_response_id, title, status,
      sent_at, submitted_at, updated_at)
    select r.organization_id, r.supplier_organization_id, 'survey', r.id, st.title,
      case when r.status = 'submitted' then 'submitted' else 'draft' end,
      r.created_at, r.submitted_at, r.updated_at
    from survey_responses r join survey_templates st on st.id = r.survey_template_id`.execute(db);
}

type LegacyQuestion = { id?: unknown; type?: unknown; text?: unknown };

/** A 0003-era question list ({id, type: boolean|text|number, text}) as a one-section definition, the English text serving both languages. */
function legacyDefinition(title: string, questions: string) {
  let list: LegacyQuestion[] = [];
  try {
    const parsed: unknown = JSON.parse(questions);
    if (Array.isArray(parsed)) list = parsed as LegacyQuestion[];
  } catch {
    list = [];
  }
  const types: Record<string, string> = { boolean: "yes_no", text: "long_text", number: "number" };
  return {
    title: { en: title, no: title },
    sections: [
      {
        id: "s1",
        title: { en: title, no: title },
        questions: list
          .filter((q) => typeof q.id === "string" && typeof q.text === "string")
          .map((q) => ({ id: q.id, type: types[String(q.type)] ?? "long_text", text: { en: q.text, no: q.text }, required: false })),
      },
    ],
  };
}

/** 0003-era answers (true/false, numbers) as the strings the definition's answers are (app/models/tasks/survey-definition.ts). */
function legacyAnswers(answers: string): Record<string, string> {
  let parsed: unknown = {};
  try {
    parsed = JSON.parse(answers);
  } catch {
    parsed = {};
  }
  const out: Record<string, string> = {};
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    for (const [k, v] of Object.entries(parsed)) {
      if (typeof v === "boolean") out[k] = v ? "yes" : "no";
      else if (typeof v === "number" || typeof v === "string") out[k] = String(v);
    }
  }
  return out;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    "task_reminder_settings",
    "supplier_task_reminders",
    "supplier_task_events",
    "supplier_task_links",
    "supplier_tasks",
    "task_campaigns",
    "survey_response_files",
  ]) {
    await db.schema.dropTable(t).execute();
  }
  await db.schema.alterTable("survey_responses").dropColumn("language").execute();
  await db.schema.alterTable("survey_responses").dropColumn("score").execute();
  await db.schema.alterTable("survey_responses").dropColumn("template_version_id").execute();
  await db.schema.dropTable("survey_template_versions").execute();
  await sql`drop index survey_templates_key`.execute(db);
  for (const c of ["key", "archived_at", "updated_at", "title_no"]) await db.schema.alterTable("survey_templates").dropColumn(c).execute();
  await sql`drop index compliance_task_templates_key`.execute(db);
  for (const c of ["key", "archived_at", "updated_at", "due_in_days", "description_no", "title_no"])
    await db.schema.alterTable("compliance_task_templates").dropColumn(c).execute();
}
