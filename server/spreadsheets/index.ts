import fs from "node:fs/promises";
import { env } from "../env";
import { openCsv } from "./csv";
import { SNIFF_BYTES, sniffKind } from "./sniff";
import { type ReadLimits, type SheetReader, SpreadsheetError, PREVIEW_ROWS } from "./types";
import { openXlsx } from "./xlsx";

/**
 * The file readers (docs/decisions/017-file-preview-and-readers.md):
 * what a stored file is by its bytes, and its rows as strings for the
 * preview and the supplier-list analysis. Plain Node, no React.
 */
export { sniffKind, detectEncoding, SNIFF_BYTES } from "./sniff";
export type { FileKind, SheetReader, ReadLimits, SpreadsheetErrorCode } from "./types";
export { SpreadsheetError, PREVIEW_ROWS, MAX_ROWS } from "./types";
export { checkZip, ZIP_LIMITS } from "./zip-guard";
export { cellText } from "./format";

/** The first bytes of a file on disk (what sniffKind reads). */
export async function readHead(filePath: string, length = SNIFF_BYTES): Promise<Buffer> {
  const handle = await fs.open(filePath, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Opens a spreadsheet for reading, by its sniffed kind: xlsx and CSV are
 * read; a legacy .xls is refused ("legacy-xls": save it as .xlsx), anything
 * else is "not-a-spreadsheet"; bigger than `maxBytes` (default the upload
 * limit) "too-large"; an empty file "empty"; a zip bomb "unsafe"; a broken
 * file "unreadable".
 */
export async function openSpreadsheet(filePath: string, fileName: string, limits: ReadLimits = {}): Promise<SheetReader> {
  const maxBytes = limits.maxBytes ?? env().UPLOAD_MAX_BYTES;
  const stat = await fs.stat(filePath);
  if (stat.size === 0) throw new SpreadsheetError("empty");
  if (stat.size > maxBytes) throw new SpreadsheetError("too-large");
  const kind = sniffKind(await readHead(filePath), fileName);
  switch (kind) {
    case "xlsx":
      return openXlsx(filePath, { ...limits, maxBytes });
    case "csv":
      return openCsv(filePath, fileName, { ...limits, maxBytes });
    case "xls":
      throw new SpreadsheetError("legacy-xls");
    default:
      throw new SpreadsheetError("not-a-spreadsheet");
  }
}

/** The first `count` rows of a sheet, ragged rows padded with "" to the widest one (for a table). */
export async function previewRows(reader: SheetReader, sheet: number, count = PREVIEW_ROWS): Promise<string[][]> {
  const rows: string[][] = [];
  if (count <= 0) return rows;
  for await (const row of reader.rows(sheet)) {
    rows.push(row);
    if (rows.length >= count) break;
  }
  const width = Math.max(0, ...rows.map((r) => r.length));
  return rows.map((r) => (r.length < width ? [...r, ...Array<string>(width - r.length).fill("")] : r));
}
