import type { Kysely } from "kysely";

/**
 * The security log by kind (issue 16; decision 039): /admin/users?view=audit filtered by a kind counts and pages that
 * kind's events newest first; without it both walked all 200 000 events of a year's log (measured with
 * `BENCH_ONLY=admin npm run bench`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("security_events_kind").on("security_events").columns(["kind", "at", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("security_events_kind").execute();
}
