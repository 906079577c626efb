import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { Readable } from "node:stream";
import { db } from "@server/db";
import { deleteStoredFile, saveFile, uploadMaxBytes } from "@server/storage";
import { recordConnectionEvent } from "~/models/connection-audit.server";

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

/** Why an upload was refused; the routes turn the reason into a 400 or 413 and a translated message. */
export class FileUploadError extends Error {
  constructor(
    readonly reason: "empty" | "too_large",
    readonly limitBytes: number,
  ) {
    super(
      reason === "empty"
        ? "The file is empty."
        : `The file is larger than ${formatByteLimit(limitBytes)}. Upload a file of at most ${formatByteLimit(limitBytes)}.`,
    );
    this.name = "FileUploadError";
  }
}

/** '25 MB', '512 KB' or '100 bytes': the limit as people read it (binary units, as the limit is set). */
export function formatByteLimit(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
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
 * Stores one upload. `data` is either bytes already in memory or the
 * multipart part's chunks: those are written to disk as they arrive and the
 * write stops (and the partial file is removed) as soon as the limit is
 * passed, so a large upload is never held in memory. An empty file is refused.
 */
export async function uploadFile(input: {
  organizationId: number;
  userId: number;
  name: string;
  type: string;
  data: Uint8Array | AsyncIterable<Uint8Array>;
}): Promise<FileListItem> {
  const limit = uploadMaxBytes();
  let source: Uint8Array | Readable;
  if (input.data instanceof Uint8Array) {
    if (input.data.length === 0) throw new FileUploadError("empty", limit);
    if (input.data.length > limit) throw new FileUploadError("too_large", limit);
    source = input.data;
  } else {
    const it = input.data[Symbol.asyncIterator]();
    let first = await it.next();
    while (!first.done && first.value.length === 0) first = await it.next();
    if (first.done) throw new FileUploadError("empty", limit);
    const head = first.value;
    source = Readable.from(
      (async function* limited() {
        let size = 0;
        let chunk: Uint8Array | undefined = head;
        while (chunk) {
          size += chunk.length;
          if (size > limit) throw new FileUploadError("too_large", limit);
          yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          const next = await it.next();
          chunk = next.done ? undefined : next.value;
        }
      })(),
    );
  }
  const stored = await saveFile(source, { fileName: input.name, mimeType: input.type, organizationId: input.organizationId, userId: input.userId });
  return { id: stored.id, fileName: stored.fileName, fileSize: stored.fileSize, mimeType: stored.mimeType };
}

export type ParsedUpload =
  | { ok: true; file: FileListItem; fields: Record<string, string> }
  | { ok: false; reason: "missing" | "empty" | "too_large"; limitBytes: number; fields: Record<string, string> };

const MAX_TEXT_FIELD = 4096;

async function drain(data: AsyncIterable<Uint8Array>): Promise<void> {
  // The parser buffers whatever part of a part the handler leaves unread; reading and dropping it keeps memory flat.
  for await (const chunk of data) void chunk;
}

/**
 * Reads a multipart request whose `file` field is the upload (the other
 * fields are short texts such as `intent` or `redirectTo`), streaming the
 * file to disk through uploadFile. A form without a chosen file is
 * `missing` ('Please select a file first.').
 */
export async function parseUpload(request: Request, owner: { organizationId: number; userId: number }): Promise<ParsedUpload> {
  const limit = uploadMaxBytes();
  let file: FileListItem | undefined;
  let refused: FileUploadError | undefined;
  const handler: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (filename === undefined) {
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of data) {
        size += chunk.length;
        if (size <= MAX_TEXT_FIELD) chunks.push(chunk);
      }
      return Buffer.concat(chunks).toString("utf8");
    }
    // Browsers send an empty part with an empty name when no file was chosen; only the first file counts.
    if (name !== "file" || !filename || file || refused) {
      await drain(data);
      return undefined;
    }
    try {
      file = await uploadFile({ ...owner, name: restoreFileName(filename), type: contentType, data });
      return String(file.id);
    } catch (error) {
      if (!(error instanceof FileUploadError)) throw error;
      refused = error;
      await drain(data);
      return undefined;
    }
  };
  let formData: FormData;
  try {
    formData = await unstable_parseMultipartFormData(withReadableFileNames(request), handler);
  } catch (error) {
    // Not multipart at all, or a body the parser cannot read: no file was received.
    if (error instanceof TypeError || (error instanceof Error && /^malformed multipart/.test(error.message)))
      return { ok: false, reason: "missing", limitBytes: limit, fields: {} };
    throw error;
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of formData) if (key !== "file" && typeof value === "string") fields[key] = value;
  if (refused) return { ok: false, reason: refused.reason, limitBytes: limit, fields };
  if (!file) return { ok: false, reason: "missing", limitBytes: limit, fields };
  return { ok: true, file, fields };
}

const DISPOSITION = Buffer.from("\r\nContent-Disposition: form-data;", "latin1");
const CRLF = Buffer.from("\r\n", "latin1");
const MAX_HEADER_LINE = 16 * 1024;

/**
 * Remix's multipart parser splits Content-Disposition on every ';' and '='
 * even inside a quoted file name, so 'Q1; final.pdf' or 'a=b.pdf' would fail
 * to upload. Browsers send such names as they are; this stream escapes the
 * two characters inside the quoted filename of each part header (as %3B and
 * %3D, restored by restoreFileName) and passes every other byte through.
 */
function withReadableFileNames(request: Request): Request {
  if (!request.body) return request;
  let pending = Buffer.alloc(0);
  const fix = (line: Buffer): Buffer => {
    const text = line.toString("utf8");
    const fixed = text.replace(
      /(filename=")((?:[^"\\]|\\.)*)(")/,
      (_m, a: string, name: string, b: string) => a + name.replace(/;/g, "%3B").replace(/=/g, "%3D") + b,
    );
    return fixed === text ? line : Buffer.from(fixed, "utf8");
  };
  const body = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending = Buffer.concat([pending, chunk]);
        for (;;) {
          const at = pending.indexOf(DISPOSITION);
          if (at === -1) {
            // Keep a tail that could be the start of a header split across chunks.
            const keep = Math.min(pending.length, DISPOSITION.length - 1);
            if (pending.length > keep) controller.enqueue(pending.subarray(0, pending.length - keep));
            pending = Buffer.from(pending.subarray(pending.length - keep));
            return;
          }
          const end = pending.indexOf(CRLF, at + DISPOSITION.length);
          if (end === -1) {
            if (pending.length - at > MAX_HEADER_LINE) {
              controller.enqueue(pending);
              pending = Buffer.alloc(0);
            } else if (at > 0) {
              controller.enqueue(pending.subarray(0, at));
              pending = Buffer.from(pending.subarray(at));
            }
            return;
          }
          controller.enqueue(pending.subarray(0, at));
          controller.enqueue(fix(pending.subarray(at, end)));
          pending = Buffer.from(pending.subarray(end));
          // The CRLF that ends the header line may start the next marker; search on from it.
        }
      },
      flush(controller) {
        if (pending.length) controller.enqueue(pending);
      },
    }),
  );
  return new Request(request.url, { method: request.method, headers: request.headers, body, duplex: "half" } as RequestInit);
}

/** Undoes our %3B/%3D and the browsers' own escapes of '"', CR and LF (HTML's multipart/form-data encoding). */
function restoreFileName(name: string): string {
  return name
    .replace(/%3B/g, ";")
    .replace(/%3D/g, "=")
    .replace(/%22/g, '"')
    .replace(/%0D|%0A/g, "");
}

/** A file of the user's organisation (downloads: files attached to the organisation's connections are shared by its users). */
export async function fileForDownload(input: { organizationId: number; userId: number; id: number }) {
  return db()
    .selectFrom("file_uploads")
    .select(["id", "file_name as fileName", "file_size as fileSize", "mime_type as mimeType", "storage_key as storageKey"])
    .where("organization_id", "=", input.organizationId)
    .where("id", "=", input.id)
    .executeTakeFirst();
}

/** One of the user's own files, for the delete confirmation; undefined for anyone else's. */
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

export interface FileWithAttachments extends FileListItem {
  /** Active connections of the organisation the file is attached to (the delete confirmation names them). */
  attachedConnections: number;
}

/** listFiles plus, per file, how many connections it is attached to: the panel's and /files' list. */
export async function listFilesWithAttachments(input: { organizationId: number; userId: number }): Promise<FileWithAttachments[]> {
  const files = await listFiles(input);
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
  return files.map((f) => ({ ...f, attachedConnections: byFile.get(f.id) ?? 0 }));
}
