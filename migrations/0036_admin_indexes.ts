import type { Kysely } from "kysely";

/**
 * The security log by kind (decision 039): /admin/users?view=audit filtered by a kind counts and pages that
 * kind's events newest first. Without it the count read every event of the log (200 000 in a year, measured with
 * `BENCH_ONLY=admin npm run bench`) and a deep page walked the date index past every other kind.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("security_events_kind").on("security_events").columns(["kind", "at", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("security_events_kind").execute();
}
