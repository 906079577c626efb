/**
 * The readers' contract: what a stored upload is, by its bytes,
 * and a reader that yields its rows as the strings the user sees.
 */
export type FileKind = "pdf" | "xlsx" | "xls" | "csv" | "other";

export type SpreadsheetErrorCode = "not-a-spreadsheet" | "legacy-xls" | "too-large" | "unsafe" | "unreadable" | "empty";

/** A file the readers refuse. `messageKey` is a translation key ("files:…") the user is shown. */
export class SpreadsheetError extends Error {
  constructor(
    public code: SpreadsheetErrorCode,
    public messageKey: string = `files:readError.${code}`,
  ) {
    super(`Spreadsheet refused: ${code}`);
    this.name = "SpreadsheetError";
  }
}

export interface SheetReader {
  kind: "xlsx" | "csv";
  /** Every sheet's name in workbook order; a CSV has one sheet, named after the file. */
  sheets: string[];
  /**
   * The sheet's rows, cells as strings as the user sees them (never null).
   * Throws SpreadsheetError("too-large") once more than `maxRows` rows have
   * come. Stop early with `break`: the file is closed.
   */
  rows(sheet?: number): AsyncIterable<string[]>;
}

export interface ReadLimits {
  /** Rows per sheet (default MAX_ROWS). */
  maxRows?: number;
  /** Bytes of the file (default: the upload limit, UPLOAD_MAX_BYTES). */
  maxBytes?: number;
  /** Aborts reading; the iterator throws the signal's reason. */
  signal?: AbortSignal;
}

export const PREVIEW_ROWS = 16;
export const MAX_ROWS = 200_000;
