import { sql, type Kysely } from "kysely";

/**
 * Supplier intelligence written by a language model (decisions 028, 029): one text per company and language,
 * with the digest of the registry facts it was written from, so a text written from older facts is never shown (the
 * composed one is, until the model has written again). The local provider composes on read and stores nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("intelligence_texts")
    .addColumn("company_id", "integer", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("language", "text", (c) => c.notNull().check(sql`language in ('en', 'no')`))
    .addColumn("facts_key", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    // The shared/spec/02-supplier-credit-connections.md §3 response, JSON.
    .addColumn("data", "text", (c) => c.notNull().check(sql`json_valid(data)`))
    .addColumn("written_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("intelligence_texts_pk", ["company_id", "language"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("intelligence_texts").execute();
}
