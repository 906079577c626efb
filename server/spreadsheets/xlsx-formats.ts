import { readEntry, type ZipEntry } from "./zip-guard";
import { columnIndex, columnLetter } from "~/models/files/spreadsheet-columns";

/**
 * The number formats of a workbook's numeric cells that change how a value
 * reads — percentages and a fixed count of decimals — by cell address, per
 * sheet in workbook order. read-excel-file applies date formats itself but
 * exposes no others, so this reads `xl/styles.xml` and the sheets' `<c s="…">`
 * attributes from the zip that zip-guard.ts has already checked.
 * Formats it does not understand (currencies, text, conditions, fractions,
 * scientific) are left out: their cells read as General.
 */
export type SheetFormats = Map<string, NumberFormat>;

export interface NumberFormat {
  percent: boolean;
  decimals: number;
}

/** Built-in number formats (ECMA-376 §18.8.30) that matter here. */
const BUILT_IN: Record<number, string> = { 2: "0.00", 4: "#,##0.00", 9: "0%", 10: "0.00%" };

function attributes(tag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w:]+)\s*=\s*"([^"]*)"/g)) result[match[1]] = match[2];
  return result;
}

function unescapeXml(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|apos|#\d+|#x[0-9a-f]+);/gi, (entity, name: string) => {
    const named: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" };
    if (name[0] !== "#") return named[name.toLowerCase()] ?? entity;
    return String.fromCodePoint(name[1].toLowerCase() === "x" ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
  });
}

/**
 * A format code's meaning for display, or null when it is General or one
 * this reader does not apply: the first section only, quoted text, escapes
 * and [colour] brackets removed; then only 0 # , . % may remain.
 */
export function parseNumberFormat(code: string): NumberFormat | null {
  const first = code.split(";")[0] ?? "";
  const bare = first
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/[_*]./g, "")
    .trim();
  if (!/^[0#,.%]+$/.test(bare) || !/[0#]/.test(bare)) return null;
  const percent = bare.includes("%");
  const dot = bare.indexOf(".");
  const decimals = dot < 0 ? 0 : (bare.slice(dot + 1).match(/[0]/g) ?? []).length;
  if (!percent && dot < 0) return null; // "0" and "#,##0": integers read the same as General here
  return { percent, decimals };
}

function entryText(bytes: Buffer, entries: ZipEntry[], name: string): Promise<string> | null {
  const entry = entries.find((e) => e.name === name);
  return entry ? readEntry(bytes, entry).then((b) => b.toString("utf8")) : null;
}

/** The workbook's sheets' part names, in workbook order. */
async function sheetParts(bytes: Buffer, entries: ZipEntry[]): Promise<string[]> {
  const workbook = await entryText(bytes, entries, "xl/workbook.xml");
  const rels = await entryText(bytes, entries, "xl/_rels/workbook.xml.rels");
  if (!workbook || !rels) return [];
  const targets = new Map<string, string>();
  for (const match of rels.matchAll(/<Relationship\b([^>]*)>/g)) {
    const a = attributes(match[1]);
    if (a.Id && a.Target) targets.set(a.Id, a.Target.startsWith("/") ? a.Target.slice(1) : `xl/${a.Target}`);
  }
  const sheets = workbook.match(/<sheets\b[^>]*>([\s\S]*?)<\/sheets>/)?.[1] ?? "";
  return Array.from(sheets.matchAll(/<sheet\b([^>]*)>/g), (match) => {
    const a = attributes(match[1]);
    const id = Object.entries(a).find(([key]) => key === "id" || key.endsWith(":id"))?.[1];
    return (id && targets.get(id)) ?? "";
  });
}

/** Style index → the format it applies, for the styles whose format matters. */
async function styleFormats(bytes: Buffer, entries: ZipEntry[]): Promise<Map<number, NumberFormat>> {
  const styles = await entryText(bytes, entries, "xl/styles.xml");
  const result = new Map<number, NumberFormat>();
  if (!styles) return result;
  const codes = new Map<number, string>(Object.entries(BUILT_IN).map(([id, code]) => [Number(id), code]));
  for (const match of styles.matchAll(/<numFmt\b([^>]*)>/g)) {
    const a = attributes(match[1]);
    if (a.numFmtId && a.formatCode !== undefined) codes.set(Number(a.numFmtId), unescapeXml(a.formatCode));
  }
  const cellXfs = styles.match(/<cellXfs\b[^>]*>([\s\S]*?)<\/cellXfs>/)?.[1] ?? "";
  let index = 0;
  for (const match of cellXfs.matchAll(/<xf\b([^>]*)>/g)) {
    const code = codes.get(Number(attributes(match[1]).numFmtId ?? 0));
    const format = code ? parseNumberFormat(code) : null;
    if (format) result.set(index, format);
    index += 1;
  }
  return result;
}

/** Per sheet (workbook order), the address ("E2") of every numeric cell whose style has a format that matters. */
export async function numberFormats(bytes: Buffer, entries: ZipEntry[]): Promise<SheetFormats[]> {
  const [parts, styles] = await Promise.all([sheetParts(bytes, entries), styleFormats(bytes, entries)]);
  if (styles.size === 0) return parts.map(() => new Map());
  const result: SheetFormats[] = [];
  for (const part of parts) {
    const formats: SheetFormats = new Map();
    const xml = part ? await entryText(bytes, entries, part) : null;
    if (xml) {
      let row = 0;
      let column = -1;
      for (const match of xml.matchAll(/<(row|c)\b([^>]*)>/g)) {
        const a = attributes(match[2]);
        if (match[1] === "row") {
          row = a.r ? Number(a.r) : row + 1;
          column = -1;
          continue;
        }
        const address = a.r?.match(/^([A-Z]+)(\d+)$/i);
        column = address ? columnIndex(address[1]) : column + 1;
        if (address) row = Number(address[2]);
        if (a.s === undefined || (a.t !== undefined && a.t !== "n")) continue;
        const format = styles.get(Number(a.s));
        if (format) formats.set(`${columnLetter(column)}${row}`, format);
      }
    }
    result.push(formats);
  }
  return result;
}
