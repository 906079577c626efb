import fs from "node:fs";
import { createInterface } from "node:readline";
import { Transform, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import Papa from "papaparse";
import { ImportInputError } from "./types";

export interface InputFile {
  /** UTF-8 text, decompressed when the file is gzip. */
  text: Readable;
  /** Bytes taken from disk so far: progress against `totalBytes` works for .gz too. */
  bytesRead: () => number;
  totalBytes: number;
}

/**
 * Opens a file for streaming. Gzip is recognised by its magic bytes rather
 * than the name, so 'enheter_alle.json.gz' renamed without '.gz' still works.
 */
export async function openInput(file: string): Promise<InputFile> {
  let size: number;
  let head: Buffer;
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new ImportInputError(`Not a file: ${file}`);
    size = stat.size;
    const handle = await fs.promises.open(file, "r");
    try {
      head = Buffer.alloc(2);
      await handle.read(head, 0, 2, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof ImportInputError) throw error;
    throw new ImportInputError(`Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }

  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      done(null, chunk);
    },
  });
  const raw = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  raw.on("error", (error) => counter.destroy(error));
  let text: Readable = raw.pipe(counter);
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const gunzip = createGunzip();
    counter.on("error", (error) => gunzip.destroy(error));
    text = counter.pipe(gunzip);
  }
  // setEncoding keeps multi-byte characters (æ, ø, å) whole across chunk borders.
  text.setEncoding("utf8");
  return { text, bytesRead: () => read, totalBytes: size };
}

export interface Line {
  line: number;
  text: string;
}

/** Physical lines, numbered from 1, without line endings or a leading BOM. */
export async function* readLines(text: Readable): AsyncGenerator<Line> {
  const rl = createInterface({ input: text, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const raw of rl) {
      line += 1;
      yield { line, text: line === 1 ? raw.replace(/^\uFEFF/, "") : raw };
    }
  } catch (error) {
    throw new ImportInputError(`Reading stopped at line ${line}: ${(error as Error).message}`, { cause: error });
  } finally {
    rl.close();
  }
}

export type CsvItem = { ok: true; line: number; row: Record<string, string> } | { ok: false; line: number; reason: string };

export interface CsvOptions {
  /** Columns without which no row can be imported: their absence is an unusable file. */
  requiredColumns: readonly string[];
  /** How far a quoted field may run over line breaks before its line is given up as broken. */
  maxRecordLines?: number;
}

function parseRecord(text: string): { fields: string[] } | { error: string } {
  const result = Papa.parse<string[]>(text, { delimiter: ",", newline: "\n", header: false });
  if (result.errors.length > 0) return { error: result.errors[0].message };
  if (result.data.length !== 1) return { error: `${result.data.length} records in one` };
  return { fields: result.data[0] };
}

function countQuotes(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) n += 1;
  return n;
}

/**
 * CSV rows keyed by header, one record at a time, with the line each starts on.
 *
 * Papaparse parses each record, but the records are cut here, line by line:
 * a stream parser that meets an unterminated quote swallows the rest of the
 * file into one field. Instead, a record may span lines only while its
 * quotes are open; if that never closes into a row of the header's width, its
 * first line alone is rejected and reading resumes on the next line. One
 * broken line therefore costs exactly that line.
 */
export async function* readCsv(text: Readable, options: CsvOptions): AsyncGenerator<CsvItem> {
  const maxRecordLines = options.maxRecordLines ?? 50;
  const lines = readLines(text);
  const replay: Line[] = [];
  let exhausted = false;
  const next = async (): Promise<Line | null> => {
    const again = replay.shift();
    if (again) return again;
    if (exhausted) return null;
    const r = await lines.next();
    if (r.done) {
      exhausted = true;
      return null;
    }
    return r.value;
  };

  let header: string[] | null = null;
  let pending: Line[] = [];
  let openQuote = false;

  const giveUpFirstLine = (reason: string): CsvItem => {
    const [first, ...rest] = pending;
    replay.unshift(...rest);
    pending = [];
    openQuote = false;
    return { ok: false, line: first.line, reason };
  };

  for (;;) {
    const current = await next();
    if (!current) {
      if (pending.length === 0) break;
      yield giveUpFirstLine("unterminated quoted field (no closing quote)");
      continue;
    }
    if (pending.length === 0 && current.text.trim() === "") continue;
    pending.push(current);
    if (countQuotes(current.text) % 2 === 1) openQuote = !openQuote;
    if (openQuote) {
      if (pending.length >= maxRecordLines) yield giveUpFirstLine("unterminated quoted field (no closing quote)");
      continue;
    }

    const first = pending[0];
    const parsed = parseRecord(pending.length === 1 ? first.text : pending.map((l) => l.text).join("\n"));

    if (!header) {
      if ("error" in parsed) throw new ImportInputError(`Unreadable header on line ${first.line}: ${parsed.error}`);
      header = parsed.fields.map((h) => h.trim());
      const missing = options.requiredColumns.filter((c) => !header!.includes(c));
      if (missing.length > 0) {
        throw new ImportInputError(`Wrong header: missing column(s) ${missing.join(", ")}`);
      }
      pending = [];
      continue;
    }

    if ("fields" in parsed && parsed.fields.length === header.length) {
      const row: Record<string, string> = {};
      for (let i = 0; i < header.length; i++) row[header[i]] = parsed.fields[i];
      pending = [];
      yield { ok: true, line: first.line, row };
    } else if (pending.length > 1) {
      yield giveUpFirstLine("unterminated quoted field (no closing quote)");
    } else {
      pending = [];
      yield {
        ok: false,
        line: first.line,
        reason: "error" in parsed ? `malformed CSV: ${parsed.error}` : `expected ${header.length} fields, found ${parsed.fields.length}`,
      };
    }
  }
  if (!header) throw new ImportInputError("Empty file: no header line");
}
