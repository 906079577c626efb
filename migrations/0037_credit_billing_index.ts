import type { Kysely } from "kysely";

/**
 * Credit-report orders by time across organisations (decision 048): /admin/credit-reports reads one billing
 * month's orders as a `created_at` range, newest first, 25 a page, and the CSV reads them all newest first. Without it
 * each of those read and sorted every order of every organisation (30 000 in a year, measured with
 * `BENCH_ONLY=admin npm run bench`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("credit_reports_created").on("credit_reports").columns(["created_at", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("credit_reports_created").execute();
}
