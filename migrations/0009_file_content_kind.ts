import { sql, type Kysely } from "kysely";

/**
 * What an uploaded file is by its bytes (server/spreadsheets sniffKind):
 * 'pdf', 'xlsx', 'xls', 'csv' or 'other', set at upload. The files panel
 * offers Preview and View / analyse from it, never from the browser's
 * claimed mime type. Rows uploaded before this migration keep NULL and are
 * sniffed lazily, the first time a list shows them (app/models/files/files.server.ts):
 * a migration does not read DATA_DIR/uploads, so it runs the same in the
 * CLI, the tests and on a database restored before its files
 * (docs/decisions/017-file-preview-and-readers.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("file_uploads")
    .addColumn("content_kind", "text", (c) => c.check(sql`content_kind in ('pdf', 'xlsx', 'xls', 'csv', 'other')`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("file_uploads").dropColumn("content_kind").execute();
}
