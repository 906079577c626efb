import { type Kysely } from "kysely";

/**
 * The assistant's conversations (shared/spec/01-shell-chat-lei.md §3 Conversation, Message). A conversation belongs to one user of one
 * organisation: nobody else sees it. A message may name an uploaded document the user attached (a deleted file leaves the
 * message, without it). See docs/decisions/027-assistant-chat.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("conversations")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("title", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  // The user's list, newest first, and "load the latest".
  await db.schema.createIndex("conversations_user_updated").on("conversations").columns(["user_id", "updated_at"]).execute();

  await db.schema
    .createTable("conversation_messages")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("conversation_id", "integer", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("is_assistant", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("file_upload_id", "integer", (c) => c.references("file_uploads.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("conversation_messages_conversation").on("conversation_messages").columns(["conversation_id", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("conversation_messages").execute();
  await db.schema.dropTable("conversations").execute();
}
