import { sql, type Kysely } from "kysely";

/**
 * Daily snapshots of the stored overall risk (decision 038): per customer organisation and Oslo calendar day, the
 * number of active connections in each band, split by the priority and due-diligence flags, once over all connections
 * (tag_id 0) and once per tag. Small (bands × 2 × 2 × (tags + 1) rows per organisation per day at most), so the dashboard
 * reads months of history by its key without touching the connections.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("risk_snapshots")
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    // YYYY-MM-DD, Europe/Oslo.
    .addColumn("day", "text", (c) => c.notNull().check(sql`day glob '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'`))
    // 0: every connection; else an organisation tag's id (no foreign key: 0 is not a tag, and a deleted tag's history stays).
    .addColumn("tag_id", "integer", (c) => c.notNull())
    .addColumn("band", "text", (c) => c.notNull().check(sql`band in ('green', 'yellow', 'red', 'unknown')`))
    .addColumn("is_priority", "integer", (c) => c.notNull().check(sql`is_priority in (0, 1)`))
    .addColumn("is_due_diligence", "integer", (c) => c.notNull().check(sql`is_due_diligence in (0, 1)`))
    .addColumn("count", "integer", (c) => c.notNull().check(sql`count > 0`))
    .addPrimaryKeyConstraint("risk_snapshots_key", ["organization_id", "tag_id", "day", "band", "is_priority", "is_due_diligence"])
    .modifyEnd(sql`without rowid`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("risk_snapshots").execute();
}
