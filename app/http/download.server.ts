import { createReadableStreamFromReadable } from "@remix-run/node";
import type { Readable } from "node:stream";
import { contentDisposition, openFile, PDF_INLINE_HEADERS, safeContentType } from "@server/storage";

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

/** One of the stored uploads as a download (fileDownloadResponse); null when its bytes are gone. */
export async function storedFileDownload(storageKey: string, meta: { fileName: string; contentType: string | null }): Promise<Response | null> {
  const stored = await openFile(storageKey);
  return stored ? fileDownloadResponse(stored.stream, { ...meta, size: stored.size }) : null;
}

/**
 * A stored upload that is a PDF, inline for the preview's frame: `application/pdf` whatever the upload claimed,
 * `nosniff`, and a policy without scripts that only this origin may frame (server/security.ts). Null when its bytes
 * are gone. The caller checks that the bytes are a PDF.
 */
export async function storedPdfInline(storageKey: string, fileName: string): Promise<Response | null> {
  const stored = await openFile(storageKey);
  if (!stored) return null;
  return new Response(createReadableStreamFromReadable(stored.stream) as BodyInit, {
    headers: {
      ...PDF_INLINE_HEADERS,
      "Content-Disposition": contentDisposition(fileName, "inline"),
      "Content-Length": String(stored.size),
    },
  });
}
