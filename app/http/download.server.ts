import { createReadableStreamFromReadable } from "@remix-run/node";
import type { Readable } from "node:stream";
import { contentDisposition, safeContentType } from "@server/storage";

/**
 * A stored file sent to the browser: as an attachment under its sanitised
 * name, with a content type from the safe list, never sniffed, never kept by
 * shared caches. The one way every download route answers.
 */
export function fileDownloadResponse(
  body: Readable | Uint8Array | string,
  { fileName, contentType, size }: { fileName: string; contentType: string | null; size?: number },
): Response {
  const headers = new Headers({
    "Content-Type": safeContentType(contentType ?? ""),
    "Content-Disposition": contentDisposition(fileName),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-store",
  });
  if (size !== undefined) headers.set("Content-Length", String(size));
  const stream = typeof body === "string" || body instanceof Uint8Array ? body : createReadableStreamFromReadable(body);
  return new Response(stream as BodyInit, { status: 200, headers });
}
