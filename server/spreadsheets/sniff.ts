import type { FileKind } from "./types";
import { textDecoder } from "../text-decoding";

/** How many leading bytes sniffKind looks at (callers read at least this many when the file is that long). */
export const SNIFF_BYTES = 8192;

const PDF = Buffer.from("%PDF-");
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

function extension(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot < 0 ? "" : fileName.slice(dot + 1).toLowerCase();
}

/**
 * What a file is, by its first bytes first and its name second; the
 * browser's claimed mime type plays no part. A zip is an xlsx only when its
 * first entries name the workbook parts (`[Content_Types].xml` or
 * `xl/…`); any OLE2 compound file is taken for a legacy .xls (the readers
 * refuse it with a message either way). Text is CSV when its name says
 * .csv/.tsv, or when it decodes as text and has a delimiter on its first
 * line (a .txt too: the spec previews PDF, Excel and CSV, not any text). Text named like a binary format (a "fake xlsx") is "other".
 */
export function sniffKind(head: Buffer, fileName: string): FileKind {
  const ext = extension(fileName);
  const kind = sniffBytes(head, ext);
  // A name that promises a binary format the bytes do not have is not read as anything else: a "fake xlsx" is refused.
  if ((kind === "csv" || kind === "other") && BINARY_EXTENSIONS.has(ext)) return "other";
  return kind;
}

/** Extensions whose files are never plain text. */
const BINARY_EXTENSIONS = new Set(["xlsx", "xlsm", "xls", "pdf", "zip", "ods"]);

function sniffBytes(head: Buffer, ext: string): FileKind {
  // Some PDF writers put a few bytes before the header; readers accept it within the first 1024 bytes.
  const pdfAt = head.subarray(0, 1024).indexOf(PDF);
  if (pdfAt === 0 || (pdfAt > 0 && ext === "pdf")) return "pdf";
  if (head.subarray(0, 4).equals(ZIP)) {
    const text = head.toString("latin1");
    return text.includes("[Content_Types].xml") || text.includes("xl/") ? "xlsx" : "other";
  }
  if (head.subarray(0, 8).equals(OLE2)) return "xls";
  if (!looksLikeText(head)) return "other";
  // A .txt is a letter as often as a list: like a file without a name, it is CSV only with a delimiter on its first line.
  if (ext === "csv" || ext === "tsv") return "csv";
  const firstLine = decodeHead(head).split(/\r\n|\n|\r/, 1)[0] ?? "";
  return /[,;\t]/.test(firstLine) ? "csv" : "other";
}

/** Text with a UTF-16 BOM, or bytes without NUL and with few other control characters. */
export function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return false;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return false;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) control += 1;
  }
  return control <= head.length / 100;
}

/** The sample decoded with the encoding detectEncoding chooses (for sniffing only). */
function decodeHead(head: Buffer): string {
  const { encoding, bom } = detectEncoding(head);
  return textDecoder(encoding).decode(head.subarray(bom));
}

export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

/**
 * The encoding of a text file from its first bytes: a BOM (UTF-8, UTF-16LE,
 * UTF-16BE) decides; else the sample must be valid UTF-8 (a sequence cut at
 * the sample's end is allowed), else it is Windows-1252 (what Excel writes
 * for "CSV" and "Text (Tab delimited)" on Norwegian Windows). `bom` is the
 * number of bytes to skip.
 */
export function detectEncoding(head: Buffer): { encoding: TextEncodingName; bom: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: "utf-8", bom: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf-16le", bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf-16be", bom: 2 };
  try {
    // stream: true leaves a sequence cut by the sample's end pending instead of failing on it.
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return { encoding: "utf-8", bom: 0 };
  } catch {
    return { encoding: "windows-1252", bom: 0 };
  }
}
