import { sql, type Kysely } from "kysely";

/**
 * Monitoring and notifications: what detects risk events (registry changes, news), what each organisation
 * and user did with them (read, dismissed), the news feeds organisations follow, the monitors' cursors, and the e-mail
 * settings and the record of mails sent. See docs/decisions/022-monitoring-and-notifications.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // risk_notifications (0003) stay registry data about companies; a detected one says what found it and is written once.
  await db.schema
    .alterTable("risk_notifications")
    // What raised it: a detection kind of app/models/notifications/monitoring-rules.ts ('bankruptcy', 'ceo_change', 'news', …); NULL for the demo's seeded rows.
    .addColumn("kind", "text")
    .execute();
  // The organisation whose own news feed found it: only that organisation sees it. NULL: registry-wide, every follower sees it.
  await db.schema
    .alterTable("risk_notifications")
    .addColumn("organization_id", "integer", (c) => c.references("organizations.id").onDelete("cascade"))
    .execute();
  // Exactly once: the same change or news item has the same key ('registry:{orgnr}:{kind}:{digest}', 'news:{orgId}:{companyId}:{itemDigest}').
  await db.schema.alterTable("risk_notifications").addColumn("dedupe_key", "text").execute();
  // title and description are the English texts; these the Norwegian ones (NULL: the English text serves both, e.g. a news headline).
  await db.schema.alterTable("risk_notifications").addColumn("title_no", "text").execute();
  await db.schema.alterTable("risk_notifications").addColumn("description_no", "text").execute();
  // What changed, as JSON ({from, to, …}) for the detail and the mail; NULL for seeded rows.
  await db.schema
    .alterTable("risk_notifications")
    .addColumn("details", "text", (c) => c.check(sql`details is null or json_valid(details)`))
    .execute();
  await sql`create unique index risk_notifications_dedupe on risk_notifications (dedupe_key) where dedupe_key is not null`.execute(db);
  // The lists (decision 022): a company's notifications in a date window, with every column the list filters on, so that
  // choosing a page reads only this index (the row id comes with it) and only the page's rows are read from the table.
  await db.schema
    .createIndex("risk_notifications_company_date")
    .on("risk_notifications")
    .columns(["company_id", "date", "risk_score", "type", "organization_id"])
    .execute();

  // Read is per user: one person having read it says nothing about a colleague.
  await db.schema
    .createTable("notification_reads")
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("notification_id", "integer", (c) => c.notNull().references("risk_notifications.id").onDelete("cascade"))
    .addColumn("read_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("notification_reads_pk", ["user_id", "notification_id"])
    .execute();
  await db.schema.createIndex("notification_reads_notification").on("notification_reads").column("notification_id").execute();

  // Dismissed is per organisation (a judgement for the team, with its reason); it stays dismissed on later monitor runs.
  await db.schema
    .createTable("notification_dismissals")
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("notification_id", "integer", (c) => c.notNull().references("risk_notifications.id").onDelete("cascade"))
    .addColumn("dismissed_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("dismissed_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("notification_dismissals_pk", ["organization_id", "notification_id"])
    .execute();
  await db.schema.createIndex("notification_dismissals_notification").on("notification_dismissals").column("notification_id").execute();

  // The RSS/Atom feeds an organisation's admin has the news monitor read for its followed suppliers.
  await db.schema
    .createTable("news_feeds")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("title", "text")
    .addColumn("is_enabled", "integer", (c) => c.notNull().defaultTo(1))
    // HTTP caching of the last read (conditional GET).
    .addColumn("etag", "text")
    .addColumn("last_modified", "text")
    .addColumn("last_read_at", "text")
    // 'ok' | 'not_modified' | 'failed'; the failure's message for the admin.
    .addColumn("last_status", "text")
    .addColumn("last_error", "text")
    .addColumn("created_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("news_feeds_org_url", ["organization_id", "url"])
    .execute();

  // A monitor's position between runs: the Brønnøysund update feed's last oppdateringsid, say.
  await db.schema
    .createTable("monitor_state")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // Each user's notification mails: the digest (off, daily or weekly) and the immediate mail for risk >= 80.
  await db.schema
    .createTable("notification_settings")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("digest", "text", (c) =>
      c
        .notNull()
        .defaultTo("weekly")
        .check(sql`digest in ('off', 'daily', 'weekly')`),
    )
    .addColumn("immediate", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // Mails sent, so that none is sent twice: one digest per user and period ('2026-11-24', '2026-W48'), one immediate mail per notification.
  await db.schema
    .createTable("notification_mails")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('digest', 'immediate')`))
    .addColumn("period_key", "text", (c) => c.notNull())
    .addColumn("notification_count", "integer", (c) => c.notNull())
    .addColumn("sent_at", "text", (c) => c.notNull())
    .addUniqueConstraint("notification_mails_once", ["user_id", "kind", "period_key"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["notification_mails", "notification_settings", "monitor_state", "news_feeds", "notification_dismissals", "notification_reads"]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.dropIndex("risk_notifications_company_date").execute();
  await db.schema.dropIndex("risk_notifications_dedupe").execute();
  for (const column of ["details", "description_no", "title_no", "dedupe_key", "organization_id", "kind"]) {
    await db.schema.alterTable("risk_notifications").dropColumn(column).execute();
  }
}
