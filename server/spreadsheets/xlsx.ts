import fs from "node:fs/promises";
import readXlsxFile from "read-excel-file/node";
import { cellText, StoredNumber } from "./format";
import { type ReadLimits, type SheetReader, SpreadsheetError, MAX_ROWS } from "./types";
import { columnLetter } from "~/models/files/spreadsheet-columns";
import { numberFormats, type SheetFormats } from "./xlsx-formats";
import { checkZip } from "./zip-guard";

/**
 * An xlsx workbook: the zip is checked first (zip-guard.ts), then
 * read-excel-file reads every sheet at once (it has no row streaming; the
 * zip limits bound what it holds). Rows come as cell strings (format.ts),
 * numbers in their percentage or fixed-decimals format (xlsx-formats.ts).
 */
export async function openXlsx(filePath: string, limits: Required<Pick<ReadLimits, "maxBytes">> & ReadLimits): Promise<SheetReader> {
  const bytes = await fs.readFile(filePath);
  if (bytes.length > limits.maxBytes) throw new SpreadsheetError("too-large");
  const entries = await checkZip(bytes);
  limits.signal?.throwIfAborted();
  // Formats only refine how numbers read: a workbook whose styles cannot be read still reads, as General.
  const formats: SheetFormats[] = await numberFormats(bytes, entries).catch(() => []);
  let sheets: Array<{ sheet: string; data: unknown[][] }>;
  try {
    sheets = (await readXlsxFile<StoredNumber>(bytes, { parseNumber: (text) => new StoredNumber(text), trim: false })) as unknown as typeof sheets;
  } catch {
    throw new SpreadsheetError("unreadable");
  }
  if (sheets.length === 0) throw new SpreadsheetError("empty");
  const maxRows = limits.maxRows ?? MAX_ROWS;
  return {
    kind: "xlsx",
    sheets: sheets.map((s) => s.sheet),
    async *rows(sheet = 0) {
      const found = sheets[sheet];
      if (!found) throw new RangeError(`No sheet ${sheet}`);
      const sheetFormats = formats[sheet];
      let count = 0;
      for (const row of found.data) {
        limits.signal?.throwIfAborted();
        count += 1;
        if (count > maxRows) throw new SpreadsheetError("too-large");
        yield sheetFormats?.size ? row.map((cell, c) => cellText(cell, sheetFormats.get(`${columnLetter(c)}${count}`))) : row.map((cell) => cellText(cell));
      }
    },
  };
}
