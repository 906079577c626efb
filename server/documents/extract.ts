import fs from "node:fs/promises";
import { env } from "../env";
import { detectEncoding, openSpreadsheet, readHead, sniffKind, SpreadsheetError, type FileKind } from "../spreadsheets";
import { looksLikeText } from "../spreadsheets/sniff";
import { textDecoder } from "../text-decoding";

/**
 * The text of an uploaded document, for the assistant to read and cite (/ai/documents; decision 030): a PDF's
 * text page by page (unpdf, PDF.js), a spreadsheet's cells as tab-separated lines under each sheet's name (the existing
 * readers, with their zip guard and row limit), a plain text file decoded like the CSV reader (BOM, UTF-8, else
 * Windows-1252). Everything is capped — pages, characters and time — so a hostile file cannot hang the server or fill its
 * memory. Plain Node; it knows nothing of screens or of who may read the file.
 *
 * Pages of a PDF are separated by a form feed ("\f"), as pdftotext does, so a reader of the text can say which page a
 * passage is on.
 */

export const PAGE_BREAK = "\f";

export const DOCUMENT_LIMITS = {
  /** Pages of a PDF read; the rest is left out (truncated). */
  maxPages: 200,
  /** Characters kept of any document. */
  maxChars: 200_000,
  /** The longest one extraction may take. */
  timeoutMs: 20_000,
} as const;

export type DocumentTextErrorCode = "no-text-kind" | "empty" | "encrypted" | "unreadable" | "too-large" | "unsafe" | "legacy-xls" | "timeout";

/** A document whose text cannot be read. `messageKey` is the translation key ("aiDocuments:…") the user is shown. */
export class DocumentTextError extends Error {
  readonly code: DocumentTextErrorCode;
  readonly messageKey: string;
  constructor(code: DocumentTextErrorCode) {
    super(`Document text not read: ${code}`);
    this.name = "DocumentTextError";
    this.code = code;
    this.messageKey = `aiDocuments:error.${code}`;
  }
}

export interface DocumentText {
  /** The text; a PDF's pages separated by PAGE_BREAK. */
  text: string;
  /** Pages of a PDF (all of them, also those beyond the cap); null for other kinds. */
  pages: number | null;
  characters: number;
  /** Whether something was left out (pages or characters beyond the caps). */
  truncated: boolean;
}

export interface ExtractOptions {
  maxPages?: number;
  maxChars?: number;
  timeoutMs?: number;
  /** Stops the extraction (with the signal's reason). */
  signal?: AbortSignal;
}

const TEXT_EXTENSIONS = new Set(["txt", "text", "md", "markdown"]);

function extension(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot < 0 ? "" : fileName.slice(dot + 1).toLowerCase();
}

/** Which reader a file goes to: its sniffed kind, and plain text for a text file named .txt or .md. */
export function documentKind(head: Buffer, fileName: string): FileKind | "text" {
  const ext = extension(fileName);
  const kind = sniffKind(head, fileName);
  if ((kind === "csv" || kind === "other") && TEXT_EXTENSIONS.has(ext) && looksLikeText(head)) return "text";
  return kind;
}

/**
 * The text of the file at `filePath` (named `fileName` by its uploader). Throws DocumentTextError for a file whose text
 * cannot be read (its kind, an empty, encrypted or broken file, one over the caps of the readers, or one that takes longer
 * than `timeoutMs`).
 */
export async function extractDocumentText(filePath: string, fileName: string, options: ExtractOptions = {}): Promise<DocumentText> {
  const timeoutMs = options.timeoutMs ?? DOCUMENT_LIMITS.timeoutMs;
  const limits: Limits = {
    maxPages: options.maxPages ?? DOCUMENT_LIMITS.maxPages,
    maxChars: options.maxChars ?? DOCUMENT_LIMITS.maxChars,
    deadline: performance.now() + timeoutMs,
  };
  const stat = await fs.stat(filePath);
  if (stat.size === 0) throw new DocumentTextError("empty");
  if (stat.size > env().UPLOAD_MAX_BYTES) throw new DocumentTextError("too-large");
  const kind = documentKind(await readHead(filePath), fileName);

  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const work = (async (): Promise<DocumentText> => {
    switch (kind) {
      case "pdf":
        return pdfText(filePath, limits, signal);
      case "xlsx":
      case "csv":
        return spreadsheetText(filePath, fileName, limits, signal);
      case "xls":
        throw new DocumentTextError("legacy-xls");
      case "text":
        return plainText(filePath, stat.size, limits);
      default:
        throw new DocumentTextError("no-text-kind");
    }
  })();
  // PDF.js works in steps that yield to the event loop; the race ends the wait even when a step never comes back.
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(timeout.aborted && !options.signal?.aborted ? new DocumentTextError("timeout") : signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } catch (error) {
    if (timeout.aborted && !options.signal?.aborted) throw new DocumentTextError("timeout");
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
    work.catch(() => undefined);
  }
}

/** `deadline` (performance.now()) is checked between pages and rows too: a timer cannot fire while work never yields to it. */
type Limits = { maxPages: number; maxChars: number; deadline: number };

function checkDeadline(limits: Limits): void {
  if (performance.now() > limits.deadline) throw new DocumentTextError("timeout");
}

function finish(parts: string[], pages: number | null, truncated: boolean, maxChars: number): DocumentText {
  let text = parts.join("");
  if (text.length > maxChars) {
    text = text.slice(0, maxChars);
    truncated = true;
  }
  if (!text.replaceAll(PAGE_BREAK, "").trim()) throw new DocumentTextError("empty");
  return { text, pages, characters: text.length, truncated };
}

async function pdfText(filePath: string, limits: Limits, signal: AbortSignal): Promise<DocumentText> {
  const { getDocumentProxy } = await import("unpdf");
  const data = new Uint8Array(await fs.readFile(filePath));
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(data, { isEvalSupported: false });
  } catch (error) {
    throw new DocumentTextError((error as Error)?.name === "PasswordException" ? "encrypted" : "unreadable");
  }
  try {
    const parts: string[] = [];
    let chars = 0;
    let truncated = pdf.numPages > limits.maxPages;
    const last = Math.min(pdf.numPages, limits.maxPages);
    for (let n = 1; n <= last; n += 1) {
      signal.throwIfAborted();
      checkDeadline(limits);
      if (chars > limits.maxChars) {
        truncated = true;
        break;
      }
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
        .join("")
        .replace(/[ \t]+\n/g, "\n")
        .trimEnd();
      page.cleanup();
      const part = (n > 1 ? PAGE_BREAK : "") + text;
      parts.push(part);
      chars += part.length;
    }
    return finish(parts, pdf.numPages, truncated, limits.maxChars);
  } catch (error) {
    if (error instanceof DocumentTextError || signal.aborted) throw error;
    throw new DocumentTextError("unreadable");
  } finally {
    void pdf.destroy();
  }
}

async function spreadsheetText(filePath: string, fileName: string, limits: Limits, signal: AbortSignal): Promise<DocumentText> {
  try {
    const reader = await openSpreadsheet(filePath, fileName, { signal });
    const parts: string[] = [];
    let chars = 0;
    let truncated = false;
    let lines = 0;
    sheets: for (let sheet = 0; sheet < reader.sheets.length; sheet += 1) {
      const heading = `${sheet > 0 ? "\n" : ""}[${reader.sheets[sheet]}]\n`;
      parts.push(heading);
      chars += heading.length;
      for await (const row of reader.rows(sheet)) {
        if (lines % 500 === 0) checkDeadline(limits);
        if (chars > limits.maxChars) {
          truncated = true;
          break sheets;
        }
        // Trailing empty cells say nothing; a row of nothing is left out.
        let end = row.length;
        while (end > 0 && row[end - 1]!.trim() === "") end -= 1;
        if (end === 0) continue;
        const line = `${row
          .slice(0, end)
          .map((cell) => cell.replace(/[\t\r\n]+/g, " "))
          .join("\t")}\n`;
        parts.push(line);
        chars += line.length;
        lines += 1;
      }
    }
    // Sheet names alone are no text.
    if (lines === 0) throw new DocumentTextError("empty");
    return finish(parts, null, truncated, limits.maxChars);
  } catch (error) {
    if (error instanceof SpreadsheetError) {
      const code = error.code === "not-a-spreadsheet" ? "no-text-kind" : error.code;
      throw new DocumentTextError(code);
    }
    throw error;
  }
}

async function plainText(filePath: string, size: number, limits: Limits): Promise<DocumentText> {
  // Four bytes hold any character (two UTF-16 units at most): enough bytes for maxChars characters, and no more.
  const length = Math.min(size, limits.maxChars * 4 + 4);
  const handle = await fs.open(filePath, "r");
  let bytes: Buffer;
  try {
    bytes = Buffer.alloc(length);
    const { bytesRead } = await handle.read(bytes, 0, length, 0);
    bytes = bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const { encoding, bom } = detectEncoding(bytes);
  const text = textDecoder(encoding).decode(bytes.subarray(bom)).replace(/\r\n?/g, "\n");
  return finish([text], null, length < size, limits.maxChars);
}
