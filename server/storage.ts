import type fs from "node:fs";
import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import { db, now } from "./db";
import type { DB } from "./db-types";
import { blobStore } from "./blob-store";
import { env } from "./env";
import { PDF_CONTENT_SECURITY_POLICY } from "./security";
import { readHead, sniffKind, type FileKind } from "./spreadsheets";

/**
 * Uploaded files: bytes under DATA_DIR/uploads, metadata in `file_uploads`.
 * The name on disk is a random key and nothing else, so neither the
 * uploader's file name nor any other input ever becomes part of a path.
 */

/** Upper bound for one upload (UPLOAD_MAX_BYTES, default 25 MB), enforced by the upload endpoints. */
export function uploadMaxBytes(): number {
  return env().UPLOAD_MAX_BYTES;
}

const uploads = blobStore("uploads");

export interface StoredFile {
  id: number;
  fileName: string;
  fileSize: number;
  mimeType: string;
  storageKey: string;
  /** What the bytes are (sniffKind), whatever the browser claimed. */
  contentKind: FileKind;
}

export interface SaveFileMeta {
  fileName: string;
  mimeType: string;
  organizationId: number;
  userId: number | null;
}

/** Writes the bytes under a fresh key and records them; the row exists only once the bytes are complete. */
export async function saveFile(data: Buffer | Uint8Array | Readable, meta: SaveFileMeta, database: Kysely<DB> = db()): Promise<StoredFile> {
  const { storageKey, fileSize } = await uploads.write(data instanceof Readable ? data : Buffer.from(data));
  try {
    const fileName = cleanStoredName(meta.fileName);
    const mimeType = meta.mimeType || "application/octet-stream";
    const contentKind = await sniffStoredFile(storageKey, fileName);
    const row = await database
      .insertInto("file_uploads")
      .values({
        organization_id: meta.organizationId,
        user_id: meta.userId,
        file_name: fileName,
        file_size: fileSize,
        mime_type: mimeType,
        storage_key: storageKey,
        created_at: now(),
        content_kind: contentKind,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, fileName, fileSize, mimeType, storageKey, contentKind };
  } catch (error) {
    await uploads.remove(storageKey);
    throw error;
  }
}

/** A read stream over stored bytes, or null when they are gone. */
export function openFile(storageKey: string): Promise<{ stream: fs.ReadStream; size: number } | null> {
  return uploads.open(storageKey);
}

/** The stored bytes' path on disk, for readers that need a file (server/spreadsheets). The key is checked; the file may be gone. */
export function storedFilePath(storageKey: string): string {
  return uploads.path(storageKey);
}

/** What the stored bytes are, by their first bytes and the file's name; "other" when they are gone. */
export async function sniffStoredFile(storageKey: string, fileName: string): Promise<FileKind> {
  try {
    return sniffKind(await readHead(storedFilePath(storageKey)), fileName);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "other";
    throw error;
  }
}

/** Removes the bytes only; the `file_uploads` row belongs to whoever deletes the upload. */
export function deleteStoredFile(storageKey: string): Promise<void> {
  return uploads.remove(storageKey);
}

/**
 * The name kept as metadata: the last path segment, without control
 * characters, at most 200 characters. Browsers and zip tools send paths.
 */
export function cleanStoredName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a stored name must not contain
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
  return Array.from(clean).slice(0, 200).join("") || "file";
}

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

/** A stored mime type came from the uploader; only a well-formed one is echoed back. */
export function safeContentType(mimeType: string): string {
  return MIME_TYPE.test(mimeType) ? mimeType.toLowerCase() : "application/octet-stream";
}

/**
 * `Content-Disposition: attachment` (or `inline`, for the PDF preview) with an ASCII `filename` for old clients
 * and an RFC 5987 `filename*` for the real name (RFC 6266). Quotes,
 * backslashes, control characters and path separators cannot break out of
 * the header or name a path.
 */
export function contentDisposition(fileName: string, disposition: "attachment" | "inline" = "attachment"): string {
  const name = cleanStoredName(fileName).replace(/[/\\]/g, "_");
  const ascii =
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^\x20-\x7e]/g, "_")
      .replace(/["\\%;]/g, "_")
      .trim() || "download";
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The headers of a stored PDF shown inline (the file preview's frame): its
 * real type, no sniffing, no caching in shared caches, and the PDF policy
 * (no script; only this origin may frame it).
 */
export const PDF_INLINE_HEADERS = {
  "Content-Type": "application/pdf",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": PDF_CONTENT_SECURITY_POLICY,
  "Cache-Control": "private, no-store",
} as const;
