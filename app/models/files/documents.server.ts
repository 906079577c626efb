import { db } from "@server/db";
import { DocumentTextError, extractDocumentText } from "@server/documents/extract";
import { sniffStoredFile, storedFilePath } from "@server/storage";
import type { AttachedDocument } from "@server/providers/llm/types";
import type { FileKind } from "@server/spreadsheets";
import type { Owner } from "~/models/assistant/conversations.server";

/**
 * The user's documents for the assistant (/ai/documents; decision 030): the user's own uploads in the
 * organisation — the same files as /files — with the text read from each (server/documents/extract.ts), kept in
 * `document_texts`. The text is read when a file is uploaded on /ai/documents, and for older uploads the first time
 * their page is opened or they are attached to a question. Every query filters by the owner's organisation and user.
 */

export type DocumentTextState = "ready" | "failed" | "pending";

export interface DocumentListItem {
  id: number;
  fileName: string;
  fileSize: number;
  contentKind: FileKind;
  uploadedAt: string;
  state: DocumentTextState;
  characters: number;
  pages: number | null;
  truncated: boolean;
  errorKey: string | null;
}

export interface DocumentDetail extends DocumentListItem {
  text: string;
}

/** The owner's files with the state of their text, newest first. */
export async function listDocuments(owner: Owner): Promise<DocumentListItem[]> {
  const rows = await db()
    .selectFrom("file_uploads as f")
    .leftJoin("document_texts as d", (j) => j.onRef("d.file_upload_id", "=", "f.id").on("d.organization_id", "=", owner.organizationId))
    .select([
      "f.id",
      "f.file_name",
      "f.file_size",
      "f.content_kind",
      "f.storage_key",
      "f.created_at",
      "d.status",
      "d.characters",
      "d.pages",
      "d.truncated",
      "d.error_key",
    ])
    .where("f.organization_id", "=", owner.organizationId)
    .where("f.user_id", "=", owner.userId)
    .orderBy("f.created_at", "desc")
    .orderBy("f.id", "desc")
    .execute();
  const out: DocumentListItem[] = [];
  for (const r of rows) {
    out.push({
      id: r.id,
      fileName: r.file_name,
      fileSize: r.file_size,
      contentKind: r.content_kind ?? (await sniffStoredFile(r.storage_key, r.file_name)),
      uploadedAt: r.created_at,
      state: r.status ?? "pending",
      characters: r.characters ?? 0,
      pages: r.pages,
      truncated: r.truncated === 1,
      errorKey: r.error_key,
    });
  }
  return out;
}

/** The owner's files as choices for "attach a document" (name and id), newest first. */
export async function documentChoices(owner: Owner): Promise<Array<{ id: number; fileName: string }>> {
  return db()
    .selectFrom("file_uploads")
    .select(["id", "file_name as fileName"])
    .where("organization_id", "=", owner.organizationId)
    .where("user_id", "=", owner.userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

/** Whether the id names one of the owner's files (what may be attached to a message). */
export async function isOwnDocument(owner: Owner, id: number): Promise<boolean> {
  const row = await db()
    .selectFrom("file_uploads")
    .select("id")
    .where("id", "=", id)
    .where("organization_id", "=", owner.organizationId)
    .where("user_id", "=", owner.userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * One of the owner's documents with its text, reading the text first when it has not been read yet (an older upload);
 * undefined for anyone else's file, so the page answers 404 as for a missing id.
 */
export async function getDocument(owner: Owner, id: number): Promise<DocumentDetail | undefined> {
  const file = await db()
    .selectFrom("file_uploads")
    .select(["id", "file_name", "file_size", "content_kind", "storage_key", "created_at"])
    .where("id", "=", id)
    .where("organization_id", "=", owner.organizationId)
    .where("user_id", "=", owner.userId)
    .executeTakeFirst();
  if (!file) return undefined;
  const text = await ensureDocumentText({ id: file.id, organizationId: owner.organizationId, storageKey: file.storage_key, fileName: file.file_name });
  return {
    id: file.id,
    fileName: file.file_name,
    fileSize: file.file_size,
    contentKind: file.content_kind ?? (await sniffStoredFile(file.storage_key, file.file_name)),
    uploadedAt: file.created_at,
    state: text.status,
    characters: text.characters,
    pages: text.pages,
    truncated: text.truncated === 1,
    errorKey: text.error_key,
    text: text.text,
  };
}

interface StoredText {
  status: "ready" | "failed";
  text: string;
  pages: number | null;
  characters: number;
  truncated: number;
  error_key: string | null;
}

/** The stored text of a file, read from the file and stored first when there is none. */
export async function ensureDocumentText(file: { id: number; organizationId: number; storageKey: string; fileName: string }): Promise<StoredText> {
  const stored = await db()
    .selectFrom("document_texts")
    .select(["status", "text", "pages", "characters", "truncated", "error_key"])
    .where("file_upload_id", "=", file.id)
    .where("organization_id", "=", file.organizationId)
    .executeTakeFirst();
  if (stored) return stored;
  return readDocumentText(file);
}

/** One of the owner's own files (the user's upload in the organisation); undefined for anyone else's. */
function ownFileRow(owner: Owner, id: number) {
  return db()
    .selectFrom("file_uploads")
    .select(["id", "file_name", "storage_key"])
    .where("id", "=", id)
    .where("organization_id", "=", owner.organizationId)
    .where("user_id", "=", owner.userId)
    .executeTakeFirst();
}

/** Reads the text of one of the owner's files now (just uploaded); undefined for anyone else's file. */
export async function readOwnDocumentText(owner: Owner, id: number): Promise<StoredText | undefined> {
  const file = await ownFileRow(owner, id);
  if (!file) return undefined;
  return readDocumentText({ id: file.id, organizationId: owner.organizationId, storageKey: file.storage_key, fileName: file.file_name });
}

/** Reads the file's text now (bounded by the extraction's caps and time limit) and stores it, or why it cannot be read. */
export async function readDocumentText(file: { id: number; organizationId: number; storageKey: string; fileName: string }): Promise<StoredText> {
  let row: StoredText;
  try {
    const extracted = await extractDocumentText(storedFilePath(file.storageKey), file.fileName);
    row = {
      status: "ready",
      text: extracted.text,
      pages: extracted.pages,
      characters: extracted.characters,
      truncated: extracted.truncated ? 1 : 0,
      error_key: null,
    };
  } catch (error) {
    if (error instanceof DocumentTextError) row = failed(error.messageKey);
    else if ((error as NodeJS.ErrnoException).code === "ENOENT") row = failed("aiDocuments:error.unreadable");
    else {
      console.warn(`documents: could not read the text of file ${file.id}:`, error instanceof Error ? error.name : typeof error);
      row = failed("aiDocuments:error.unreadable");
    }
  }
  await db()
    .insertInto("document_texts")
    .values({ file_upload_id: file.id, organization_id: file.organizationId, ...row, extracted_at: new Date().toISOString() })
    .onConflict((oc) => oc.column("file_upload_id").doUpdateSet({ ...row, extracted_at: new Date().toISOString() }))
    .execute();
  return row;
}

function failed(errorKey: string): StoredText {
  return { status: "failed", text: "", pages: null, characters: 0, truncated: 0, error_key: errorKey };
}

/** How many documents of a conversation the assistant reads at most (the newest attached). */
export const MAX_ATTACHED_DOCUMENTS = 3;

/**
 * The documents the assistant reads for a question: `fileUploadId` (just attached) first, then the other files attached to
 * the conversation's messages, newest first, at most MAX_ATTACHED_DOCUMENTS; only the owner's own files. Their text is read
 * now when it has not been.
 */
export async function documentsForQuestion(owner: Owner, input: { conversationId: number | null; fileUploadId: number | null }): Promise<AttachedDocument[]> {
  const ids: number[] = [];
  if (input.fileUploadId != null) ids.push(input.fileUploadId);
  if (input.conversationId != null) {
    const attached = await db()
      .selectFrom("conversation_messages as m")
      .innerJoin("conversations as c", "c.id", "m.conversation_id")
      .select("m.file_upload_id")
      .where("c.id", "=", input.conversationId)
      .where("c.user_id", "=", owner.userId)
      .where("c.organization_id", "=", owner.organizationId)
      .where("m.file_upload_id", "is not", null)
      .orderBy("m.id", "desc")
      .execute();
    for (const a of attached) if (a.file_upload_id != null && !ids.includes(a.file_upload_id)) ids.push(a.file_upload_id);
  }
  const out: AttachedDocument[] = [];
  for (const id of ids.slice(0, MAX_ATTACHED_DOCUMENTS)) {
    const file = await ownFileRow(owner, id);
    if (!file) continue;
    const text = await ensureDocumentText({ id: file.id, organizationId: owner.organizationId, storageKey: file.storage_key, fileName: file.file_name });
    out.push({ name: file.file_name, text: text.status === "ready" ? text.text : "" });
  }
  return out;
}
