import { sql, type Kysely } from "kysely";

/**
 * The durable job runner (server/jobs/, docs/decisions/016): jobs queued → running → done | failed, claimed by a
 * worker under a lease kept alive by a heartbeat, with attempts, progress and a result; and the schedules that
 * enqueue a job every N minutes or daily at HH:MM (Europe/Oslo). Timestamps are ISO-8601 UTC text, as elsewhere,
 * so comparing them as text orders them in time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.references("organizations.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("type", "text", (c) => c.notNull().check(sql`length(type) > 0`))
    .addColumn("payload", "text", (c) => c.notNull().defaultTo("null"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("queued")
        .check(sql`status in ('queued', 'running', 'done', 'failed')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) =>
      c
        .notNull()
        .defaultTo(5)
        .check(sql`max_attempts >= 1`),
    )
    .addColumn("run_at", "text", (c) => c.notNull())
    .addColumn("locked_by", "text")
    .addColumn("lease_until", "text")
    .addColumn("heartbeat_at", "text")
    .addColumn("progress_done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("progress_total", "integer")
    .addColumn("result", "text")
    .addColumn("error_key", "text")
    .addColumn("error_params", "text")
    // For the operator's log only (a message, a stack): never shown to users.
    .addColumn("error_detail", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .execute();
  // Claiming: the due queued jobs and the running ones whose lease ran out, oldest due first.
  await db.schema.createIndex("jobs_claim").on("jobs").columns(["status", "run_at"]).execute();
  // A user's jobs, newest first.
  await db.schema.createIndex("jobs_user").on("jobs").columns(["organization_id", "user_id", "created_at"]).execute();

  await db.schema
    .createTable("job_schedules")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('every', 'daily')`))
    .addColumn("every_minutes", "integer", (c) => c.check(sql`every_minutes is null or every_minutes >= 1`))
    // 'HH:MM', Europe/Oslo wall-clock time.
    .addColumn("at_time", "text", (c) => c.check(sql`at_time is null or at_time glob '[0-2][0-9]:[0-5][0-9]'`))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull().defaultTo("null"))
    .addColumn("organization_id", "integer", (c) => c.references("organizations.id").onDelete("cascade"))
    .addColumn("next_run_at", "text", (c) => c.notNull())
    .addColumn("last_run_at", "text")
    .addColumn("last_job_id", "integer", (c) => c.references("jobs.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("job_schedules").execute();
  await db.schema.dropTable("jobs").execute();
}
