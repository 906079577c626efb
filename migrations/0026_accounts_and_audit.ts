import { sql, type Kysely } from "kysely";

/**
 * Accounts and administration (decision 039): deactivated users and organisations (their sessions end at once
 * and they cannot sign in), when a session was last used, and the security log — sign-ins and failed ones, password
 * changes, level changes, deactivations, invitations and administrators' actions: who, when, from where.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("deactivated_at", "text").execute();
  await db.schema.alterTable("organizations").addColumn("deactivated_at", "text").execute();
  await db.schema.alterTable("sessions").addColumn("last_seen_at", "text").execute();
  await db.schema
    .createTable("security_events")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    // The account concerned (NULL: a failed sign-in for an address that has none).
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    // The address typed or concerned, kept when the account is gone.
    .addColumn("email", "text")
    // Who did it when it is not the account itself (an administrator).
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("organization_id", "integer", (c) => c.references("organizations.id").onDelete("set null"))
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .addColumn("detail", "text", (c) => c.check(sql`detail is null or json_valid(detail)`))
    .execute();
  await db.schema.createIndex("security_events_at").on("security_events").columns(["at", "id"]).execute();
  await db.schema.createIndex("security_events_user").on("security_events").columns(["user_id", "at"]).execute();
  await db.schema.createIndex("security_events_organization").on("security_events").columns(["organization_id", "at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("security_events").execute();
  await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
  await db.schema.alterTable("organizations").dropColumn("deactivated_at").execute();
  await db.schema.alterTable("users").dropColumn("deactivated_at").execute();
}
