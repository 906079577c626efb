import { sql, type Kysely } from "kysely";

/**
 * The overview's reads (decision 037): the team's latest connection changes per organisation, and the
 * organisation's open tasks and surveys by due date (the open-item index of 0016 is by due date across organisations).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("connection_events_org_created").on("connection_events").columns(["organization_id", "created_at", "id"]).execute();
  await sql`create index supplier_tasks_org_open_due on supplier_tasks (organization_id, due_date) where status in ('sent', 'opened', 'draft', 'returned')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("supplier_tasks_org_open_due").execute();
  await db.schema.dropIndex("connection_events_org_created").execute();
}
