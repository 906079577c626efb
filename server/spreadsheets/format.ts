import type { NumberFormat } from "./xlsx-formats";

/**
 * Cells as the user sees them in Excel, as strings.
 * - Numbers come from the reader as the stored decimal text (parseNumber
 *   keeps it) and are shown with at most 15 significant digits, as Excel's
 *   General format does: 0.30000000000000004 is "0.3". A percentage format
 *   shows the percentage ("0.0%": 0.125 → "12.5%") and a fixed count of
 *   decimals shows them ("#,##0.00": -7.5 → "-7.50"), without thousands
 *   separators (they depend on the reader's locale; xlsx-formats.ts finds
 *   the formats). Other formats (currency, text, conditions) read as General.
 * - Dates (cells with a date format; read-excel-file turns them into Date
 *   objects in UTC) are ISO: yyyy-mm-dd, with " hh:mm" (":ss") when the
 *   cell has a time of day.
 * - Booleans are TRUE/FALSE as Excel shows them; empty cells "".
 */
export function cellText(value: unknown, format?: NumberFormat): string {
  if (value == null) return "";
  if (value instanceof StoredNumber) return format ? formattedNumber(value.text, format) : numberText(value.text);
  if (typeof value === "string") return value;
  if (typeof value === "number") return numberText(String(value));
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return dateText(value);
  return String(value);
}

/** The stored decimal text shown in a percentage or fixed-decimals format. */
export function formattedNumber(stored: string, format: NumberFormat): string {
  const n = Number(stored);
  if (!Number.isFinite(n) || Math.abs(n) >= 1e15) return numberText(stored);
  if (format.percent) return `${Number((n * 100).toPrecision(15)).toFixed(format.decimals)}%`;
  return Number(n.toPrecision(15)).toFixed(format.decimals);
}

/** A numeric cell's stored text (read-excel-file's parseNumber), kept apart from text cells such as "0125". */
export class StoredNumber {
  constructor(public text: string) {}
}

/** The stored decimal text with at most 15 significant digits and no trailing zeros. */
export function numberText(stored: string): string {
  const n = Number(stored);
  if (!Number.isFinite(n)) return stored;
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  return String(Number(n.toPrecision(15)));
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

export function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return "";
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const h = date.getUTCHours();
  const m = date.getUTCMinutes();
  const s = date.getUTCSeconds();
  if (h === 0 && m === 0 && s === 0) return day;
  return s === 0 ? `${day} ${pad(h)}:${pad(m)}` : `${day} ${pad(h)}:${pad(m)}:${pad(s)}`;
}
