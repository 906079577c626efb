import { sql, type Kysely } from "kysely";

/**
 * One stored overall risk per followed supplier (decision 036), per connection because its inputs include the
 * organisation's own notifications and the surveys it sent. NULL until computed, or when nothing is known.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("organization_connections")
    .addColumn("overall_risk", "integer", (c) => c.check(sql`overall_risk between 0 and 100`))
    .execute();
  await db.schema
    .alterTable("organization_connections")
    .addColumn("overall_risk_band", "text", (c) => c.check(sql`overall_risk_band in ('green', 'yellow', 'red')`))
    .execute();
  // The reasons (decision 036), JSON.
  await db.schema
    .alterTable("organization_connections")
    .addColumn("overall_risk_reasons", "text", (c) => c.check(sql`overall_risk_reasons is null or json_valid(overall_risk_reasons)`))
    .execute();
  await db.schema.alterTable("organization_connections").addColumn("overall_risk_at", "text").execute();
  await db.schema
    .createIndex("organization_connections_overall_risk")
    .on("organization_connections")
    .columns(["parent_organization_id", "is_deleted", "overall_risk"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("organization_connections_overall_risk").execute();
  for (const column of ["overall_risk_at", "overall_risk_reasons", "overall_risk_band", "overall_risk"]) {
    await db.schema.alterTable("organization_connections").dropColumn(column).execute();
  }
}
