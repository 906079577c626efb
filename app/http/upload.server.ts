import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { Readable } from "node:stream";
import { errorResponse } from "./responses.server";
import { textProblem } from "./parse.server";

/** The configured size limit of one uploaded file (UPLOAD_MAX_BYTES), for the routes that read uploads. */
export { uploadMaxBytes } from "@server/storage";

/**
 * Multipart uploads at the boundary: the body is streamed, never held in
 * memory. Text fields are short and normalised like `readForm`'s; the one
 * file field is handed, as it arrives, to a `store` function (the model
 * writes it), through a stream that stops at the size limit or on an empty
 * file. Whatever is refused leaves nothing stored: a partial file is removed
 * by the store's own write, and a file stored before a later field turned
 * out bad is handed to `discard`.
 */

export interface IncomingFile {
  /** The name the browser sent (escapes undone), not yet cleaned: the store keeps it as metadata only. */
  fileName: string;
  contentType: string;
  data: Readable;
}

/** Why no file was stored: none chosen, an empty one, one above the limit, or one sent before the fields that allow it. */
export type UploadRefusal = "missing" | "empty" | "too_large" | "not_accepted";

export interface UploadResult<T> {
  /** The text fields, normalised (NFC; NUL and lone surrogates refused with a 400 naming the field). */
  fields: FormData;
  file: T | null;
  refused: UploadRefusal | null;
  limitBytes: number;
}

export interface UploadOptions<T> {
  maxBytes: number;
  /** The field that carries the file ("file"). Other file parts are read and dropped. */
  fileField?: string;
  /** Whether to store the file, given the text fields sent before it (for example the form's `intent`). */
  accept?: (fieldsSoFar: FormData) => boolean;
  store: (file: IncomingFile) => Promise<T>;
  /** Undoes `store` when a field after the file makes the whole form a 400. */
  discard: (stored: T) => Promise<unknown>;
}

const MAX_TEXT_FIELD = 4096;
const MAX_PARTS = 32;

/** '25 MB', '512 KB' or '100 bytes': the limit as people read it (binary units, as the limit is set). */
export function formatByteLimit(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

export function isMultipart(request: Request): boolean {
  return (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase() === "multipart/form-data";
}

class UploadLimit extends Error {}

interface Verdict {
  refused: UploadRefusal | null;
  unreadable: boolean;
}

async function drain(data: AsyncIterable<Uint8Array>): Promise<void> {
  // The parser buffers whatever part of a part the handler leaves unread; reading and dropping it keeps memory flat.
  for await (const chunk of data) void chunk;
}

/** The part's bytes as a stream that fails (and records why) past `maxBytes` or when it ends empty. */
function limited(data: AsyncIterable<Uint8Array>, maxBytes: number, verdict: Verdict): Readable {
  // One iterator, advanced by hand: the stream being destroyed must not end the part for the drain that follows.
  const it = data[Symbol.asyncIterator]();
  return Readable.from(
    (async function* bytes() {
      let size = 0;
      for (;;) {
        let next: IteratorResult<Uint8Array>;
        try {
          next = await it.next();
        } catch (error) {
          // The body itself broke off or does not parse: the client's fault, not the store's.
          verdict.unreadable = true;
          throw error;
        }
        if (next.done) break;
        const chunk = next.value;
        if (chunk.length === 0) continue;
        size += chunk.length;
        if (size > maxBytes) {
          verdict.refused = "too_large";
          throw new UploadLimit();
        }
        yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      }
      if (size === 0) {
        verdict.refused = "empty";
        throw new UploadLimit();
      }
    })(),
  );
}

/**
 * Reads a multipart/form-data request: 415 for another content type, 400
 * for a body that does not parse, a text field that is too long or not
 * valid text (naming it), or too many parts. A missing, empty or too large
 * file is not an error here but `refused`, so each route answers it in its
 * own words (the API in English with 400/413, the screen translated).
 */
export async function readUpload<T>(request: Request, options: UploadOptions<T>): Promise<UploadResult<T>> {
  if (!isMultipart(request)) throw errorResponse(415, "Send the file as multipart/form-data.");
  const { maxBytes, fileField = "file", accept = () => true, store, discard } = options;
  const fields = new FormData();
  let file: T | null = null;
  let sawFile = false;
  const verdict: Verdict = { refused: null, unreadable: false };
  let problem: { message: string; field?: string } | null = null;
  let storeFailure: unknown = null;
  let parts = 0;

  const handler: UploadHandler = async ({ name, filename, contentType, data }) => {
    parts += 1;
    if (problem || storeFailure || parts > MAX_PARTS) {
      problem ??= { message: "The form has too many fields." };
      await drain(data);
      return undefined;
    }
    const nameProblem = textProblem(name);
    if (nameProblem) {
      problem = { message: `field name: ${nameProblem}`, field: "field name" };
      await drain(data);
      return undefined;
    }
    if (filename === undefined) {
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of data) {
        size += chunk.length;
        if (size <= MAX_TEXT_FIELD) chunks.push(chunk);
      }
      if (size > MAX_TEXT_FIELD) {
        problem = { message: `${name}: is too long`, field: name };
        return undefined;
      }
      const value = Buffer.concat(chunks).toString("utf8");
      const valueProblem = textProblem(value);
      if (valueProblem) {
        problem = { message: `${name}: ${valueProblem}`, field: name };
        return undefined;
      }
      fields.append(name.normalize("NFC"), value.normalize("NFC"));
      return undefined;
    }
    // Browsers send an empty part with an empty name when no file was chosen; only the first file counts.
    if (name !== fileField || !filename || sawFile) {
      await drain(data);
      return undefined;
    }
    sawFile = true;
    if (!accept(fields)) {
      verdict.refused = "not_accepted";
      await drain(data);
      return undefined;
    }
    try {
      file = await store({ fileName: restoreFileName(filename), contentType, data: limited(data, maxBytes, verdict) });
    } catch (error) {
      if (verdict.unreadable) throw error;
      if (!(error instanceof UploadLimit)) storeFailure = error;
      await drain(data);
    }
    return undefined;
  };

  try {
    await unstable_parseMultipartFormData(withReadableFileNames(request), handler);
  } catch {
    // Not multipart after all (no boundary, no body) or a body the parser cannot read.
    problem ??= { message: "The form could not be read. Reload the page and try again." };
  }
  if (storeFailure) throw storeFailure;
  if (problem) {
    if (file !== null) await discard(file);
    throw errorResponse(400, problem.message, problem.field ? { extra: { field: problem.field } } : {});
  }
  const refused = file !== null ? null : (verdict.refused ?? "missing");
  return { fields, file, refused, limitBytes: maxBytes };
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
