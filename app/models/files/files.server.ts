import type { Readable } from "node:stream";
import { db } from "@server/db";
import { openSpreadsheet, previewRows, PREVIEW_ROWS, SpreadsheetError, type FileKind } from "@server/spreadsheets";
import { deleteStoredFile, saveFile, sniffStoredFile, storedFilePath, uploadMaxBytes } from "@server/storage";
import { recordConnectionEvent } from "~/models/suppliers/connection-audit.server";
import { canCustomerDownloadTaskFile, canRespondentDownloadSurveyFile } from "~/models/tasks/tasks-for-supplier.server";

/**
 * The user's uploaded files (the file uploads panel, /files and
 * /api/file-uploads). Bytes live under generated names (server/storage.ts);
 * the original name is metadata only. Deleting a file detaches it from every
 * connection it is attached to, with an audit row on each
 * (docs/decisions/008-file-uploads.md).
 */
export interface FileListItem {
  id: number;
  fileName: string;
  /** Bytes. */
  fileSize: number;
  mimeType: string;
}

/** The signed-in user's own files in their organisation, newest first. */
export async function listFiles(input: { organizationId: number; userId: number }): Promise<FileListItem[]> {
  return db()
    .selectFrom("file_uploads")
    .select(["id", "file_name as fileName", "file_size as fileSize", "mime_type as mimeType"])
    .where("organization_id", "=", input.organizationId)
    .where("user_id", "=", input.userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

/**
 * Stores one upload of the user. The bytes come as they arrive (the request
 * is read, size-limited and refused at the boundary, app/http/upload.server.ts);
 * the row exists only once they are all on disk.
 */
export async function storeUpload(input: {
  organizationId: number;
  userId: number;
  fileName: string;
  contentType: string;
  data: Uint8Array | Readable;
}): Promise<FileListItem> {
  const stored = await saveFile(input.data, {
    fileName: input.fileName,
    mimeType: input.contentType,
    organizationId: input.organizationId,
    userId: input.userId,
  });
  return { id: stored.id, fileName: stored.fileName, fileSize: stored.fileSize, mimeType: stored.mimeType };
}

export interface DownloadableFile {
  id: number;
  fileName: string;
  fileSize: number;
  mimeType: string;
  storageKey: string;
}

/**
 * A file the reader may download, or undefined (the route answers 404 for
 * it, like a missing id, so ids cannot be probed). Ids are sequential, so
 * access is decided here, on every read, never by knowing the id
 * (docs/decisions/008-file-uploads.md). A file is readable by:
 * - its uploader, in the organisation they uploaded it in;
 * - a member who may see the organisation's connections (`connections`,
 *   suppliersRead), when it is attached to one of its active connections;
 * - a member who may see the organisation's task responses (`tasks`), when
 *   it is the template of a task the organisation sent or a file of a
 *   submitted response to one, or evidence of a submitted response to a
 *   survey it sent (tasks.server.ts);
 * - any member of a supplier organisation, when it is evidence of one of the
 *   organisation's own survey responses (the read view, decision 034).
 * Files of chat messages join this list when messages carry files.
 */
export async function readableFile(input: {
  organizationId: number;
  userId: number;
  id: number;
  sees: { connections: boolean; tasks: boolean };
}): Promise<DownloadableFile | undefined> {
  const { organizationId, userId, id, sees } = input;
  const file = await db()
    .selectFrom("file_uploads as f")
    .select(["f.id", "f.file_name as fileName", "f.file_size as fileSize", "f.mime_type as mimeType", "f.storage_key as storageKey"])
    .where("f.id", "=", id)
    .where((eb) =>
      eb.or([
        eb.and([eb("f.user_id", "=", userId), eb("f.organization_id", "=", organizationId)]),
        ...(sees.connections
          ? [
              eb.exists(
                eb
                  .selectFrom("organization_connection_files as cf")
                  .innerJoin("organization_connections as c", "c.id", "cf.connection_id")
                  .select("cf.file_upload_id")
                  .whereRef("cf.file_upload_id", "=", "f.id")
                  .where("c.parent_organization_id", "=", organizationId)
                  .where("c.is_deleted", "=", 0),
              ),
            ]
          : []),
      ]),
    )
    .executeTakeFirst();
  if (file) return file;
  if (sees.tasks && (await canCustomerDownloadTaskFile({ organizationId, fileId: id }))) return storedFile(id);
  if (await canRespondentDownloadSurveyFile({ organizationId, fileId: id })) return storedFile(id);
  return undefined;
}

async function storedFile(id: number): Promise<DownloadableFile | undefined> {
  return db()
    .selectFrom("file_uploads")
    .select(["id", "file_name as fileName", "file_size as fileSize", "mime_type as mimeType", "storage_key as storageKey"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/**
 * One of the user's own files; undefined for anyone else's. The delete
 * confirmation shows it, and only its owner may attach it to a connection.
 */
export async function ownFile(input: { organizationId: number; userId: number; id: number }): Promise<FileListItem | undefined> {
  return db()
    .selectFrom("file_uploads")
    .select(["id", "file_name as fileName", "file_size as fileSize", "mime_type as mimeType"])
    .where("organization_id", "=", input.organizationId)
    .where("user_id", "=", input.userId)
    .where("id", "=", input.id)
    .executeTakeFirst();
}

/** How many of the organisation's active connections the file is attached to (for the delete confirmation). */
export async function attachedConnectionsCount(input: { organizationId: number; id: number }): Promise<number> {
  const row = await db()
    .selectFrom("organization_connection_files as f")
    .innerJoin("organization_connections as c", "c.id", "f.connection_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("f.file_upload_id", "=", input.id)
    .where("c.parent_organization_id", "=", input.organizationId)
    .where("c.is_deleted", "=", 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Deletes one of the user's own files: detaches it from every connection
 * (one 'file_detached' audit row each, in the same transaction, before the
 * delete), deletes the row, then the bytes. False when there is no such file
 * of this user in this organisation.
 */
export async function deleteFile(input: { organizationId: number; userId: number; id: number }): Promise<boolean> {
  const storageKey = await db()
    .transaction()
    .execute(async (trx) => {
      const file = await trx
        .selectFrom("file_uploads")
        .select(["id", "file_name", "storage_key"])
        .where("organization_id", "=", input.organizationId)
        .where("user_id", "=", input.userId)
        .where("id", "=", input.id)
        .executeTakeFirst();
      if (!file) return null;
      const links = await trx
        .selectFrom("organization_connection_files as f")
        .innerJoin("organization_connections as c", "c.id", "f.connection_id")
        .select(["c.id as connectionId", "c.parent_organization_id as organizationId"])
        .where("f.file_upload_id", "=", file.id)
        .execute();
      for (const link of links) {
        await recordConnectionEvent(
          {
            connectionId: link.connectionId,
            organizationId: link.organizationId,
            userId: input.userId,
            action: "file_detached",
            detail: { fileId: file.id, fileName: file.file_name, reason: "file_deleted" },
          },
          trx,
        );
      }
      await trx.deleteFrom("organization_connection_files").where("file_upload_id", "=", file.id).execute();
      await trx.deleteFrom("file_uploads").where("id", "=", file.id).execute();
      return file.storage_key;
    });
  if (storageKey == null) return false;
  try {
    await deleteStoredFile(storageKey);
  } catch (error) {
    // The row is gone, so nothing points at the bytes any more; an orphan on disk is logged, not shown.
    console.warn(`Could not remove stored file ${storageKey}:`, error);
  }
  return true;
}

export { PREVIEW_ROWS };

/** Kinds the preview shows: PDF in a frame, the others as a table (shared/spec/02-supplier-credit-connections.md §5 "Previewable types"). */
export const PREVIEWABLE_KINDS: readonly FileKind[] = ["pdf", "xlsx", "xls", "csv"];
/** Kinds "View / analyse" is offered for: .xlsx and the other spreadsheet types (the analysis page explains the .xls refusal). */
export const ANALYSABLE_KINDS: readonly FileKind[] = ["xlsx", "xls", "csv"];

export interface FileWithAttachments extends FileListItem {
  /** Active connections of the organisation the file is attached to (the delete confirmation names them). */
  attachedConnections: number;
  /** What the bytes are (sniffed at upload), never the browser's claim. */
  contentKind: FileKind;
  previewable: boolean;
  analysable: boolean;
}

/**
 * listFiles plus, per file, how many connections it is attached to and its
 * sniffed kind: the panel's and /files' list. Files uploaded before the kind
 * was recorded (migration 0009) are sniffed here once and the kind saved.
 */
export async function listFilesWithAttachments(input: { organizationId: number; userId: number }): Promise<FileWithAttachments[]> {
  const files = await db()
    .selectFrom("file_uploads")
    .select(["id", "file_name as fileName", "file_size as fileSize", "mime_type as mimeType", "content_kind as contentKind", "storage_key as storageKey"])
    .where("organization_id", "=", input.organizationId)
    .where("user_id", "=", input.userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  if (files.length === 0) return [];
  const counts = await db()
    .selectFrom("organization_connection_files as f")
    .innerJoin("organization_connections as c", "c.id", "f.connection_id")
    .select((eb) => ["f.file_upload_id as fileId", eb.fn.countAll<number>().as("n")])
    .where(
      "f.file_upload_id",
      "in",
      files.map((f) => f.id),
    )
    .where("c.parent_organization_id", "=", input.organizationId)
    .where("c.is_deleted", "=", 0)
    .groupBy("f.file_upload_id")
    .execute();
  const byFile = new Map(counts.map((c) => [c.fileId, Number(c.n)]));
  const result: FileWithAttachments[] = [];
  for (const { storageKey, contentKind: stored, ...file } of files) {
    const contentKind = stored ?? (await backfillContentKind(file.id, storageKey, file.fileName));
    result.push({
      ...file,
      attachedConnections: byFile.get(file.id) ?? 0,
      contentKind,
      previewable: PREVIEWABLE_KINDS.includes(contentKind),
      analysable: ANALYSABLE_KINDS.includes(contentKind),
    });
  }
  return result;
}

/** Sniffs a file uploaded before migration 0009 and records its kind. */
async function backfillContentKind(id: number, storageKey: string, fileName: string): Promise<FileKind> {
  const kind = await sniffStoredFile(storageKey, fileName);
  await db().updateTable("file_uploads").set({ content_kind: kind }).where("id", "=", id).where("content_kind", "is", null).execute();
  return kind;
}

/**
 * One of the user's own files with what the preview and the readers need
 * (its stored key and sniffed kind); undefined for anyone else's, so the
 * preview answers 404 for them like for a missing id.
 */
export async function ownFileForReading(input: {
  organizationId: number;
  userId: number;
  id: number;
}): Promise<{ id: number; fileName: string; fileSize: number; storageKey: string; contentKind: FileKind } | undefined> {
  const file = await db()
    .selectFrom("file_uploads")
    .select(["id", "file_name as fileName", "file_size as fileSize", "storage_key as storageKey", "content_kind as contentKind"])
    .where("organization_id", "=", input.organizationId)
    .where("user_id", "=", input.userId)
    .where("id", "=", input.id)
    .executeTakeFirst();
  if (!file) return undefined;
  return { ...file, contentKind: file.contentKind ?? (await backfillContentKind(file.id, file.storageKey, file.fileName)) };
}

export interface FilePreview {
  fileId: number;
  fileName: string;
  kind: FileKind;
  /** Sheet names (a CSV has one); empty for a PDF. */
  sheets: string[];
  /** The index of the sheet shown. */
  sheet: number;
  /** At most PREVIEW_ROWS rows, cells as strings, padded to the same width. */
  rows: string[][];
}

/** Why a preview could not be made: no such file of the user, no such sheet, or the readers refused the file (`refused.messageKey`). */
export type FilePreviewFailure =
  | { reason: "not-found" }
  | { reason: "no-sheet"; sheets: number }
  | { reason: "refused"; fileId: number; fileName: string; kind: FileKind; code: SpreadsheetError["code"]; messageKey: string };

/**
 * The first rows of one of the user's own files (the preview and
 * /api/supplier_upload/parseFile). A PDF has no rows: it is shown in a frame.
 * Spreadsheets go through the readers (server/spreadsheets), which refuse
 * legacy .xls, zip bombs, files that are not what they claim, and files over
 * the upload limit.
 */
export async function filePreview(input: { organizationId: number; userId: number; id: number; sheet: number }): Promise<FilePreview | FilePreviewFailure> {
  const file = await ownFileForReading(input);
  if (!file) return { reason: "not-found" };
  const base = { fileId: file.id, fileName: file.fileName, kind: file.contentKind };
  if (file.contentKind === "pdf") return input.sheet === 0 ? { ...base, sheets: [], sheet: 0, rows: [] } : { reason: "no-sheet", sheets: 0 };
  try {
    const reader = await openSpreadsheet(storedFilePath(file.storageKey), file.fileName, { maxBytes: uploadMaxBytes() });
    if (input.sheet >= reader.sheets.length) return { reason: "no-sheet", sheets: reader.sheets.length };
    return { ...base, sheets: reader.sheets, sheet: input.sheet, rows: await previewRows(reader, input.sheet, PREVIEW_ROWS) };
  } catch (error) {
    if (error instanceof SpreadsheetError) return { reason: "refused", ...base, code: error.code, messageKey: error.messageKey };
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { reason: "not-found" };
    throw error;
  }
}
