import fs from "node:fs";
import { PassThrough } from "node:stream";
import { Unzip, UnzipInflate } from "fflate";
import { isValidLei } from "~/models/registry/lei";
import { openInput, type InputFile } from "./input";
import { ImportInputError } from "./types";

/**
 * What the GLEIF importers share: opening a golden-copy file as GLEIF publishes it (a .zip holding one CSV, or the
 * CSV itself, gzip allowed) and reading its cells.
 */

/**
 * The CSV inside a zip, streamed: the archive is read in chunks and inflated as it comes, and reading pauses while
 * the CSV reader is behind, so a multi-gigabyte golden copy never sits in memory. Anything else goes to openInput.
 */
export async function openGleifInput(file: string): Promise<InputFile> {
  const head = Buffer.alloc(4);
  try {
    const handle = await fs.promises.open(file, "r");
    try {
      await handle.read(head, 0, 4, 0);
    } finally {
      await handle.close();
    }
  } catch {
    // openInput gives the message for a missing or unreadable file.
    return openInput(file);
  }
  if (head.readUInt32LE(0) !== 0x04034b50) return openInput(file);

  const totalBytes = (await fs.promises.stat(file)).size;
  let read = 0;
  let found = false;
  const text = new PassThrough();
  const raw = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  const fail = (message: string, cause?: unknown) => {
    raw.destroy();
    text.destroy(new ImportInputError(message, cause === undefined ? undefined : { cause }));
  };

  const unzip = new Unzip((entry) => {
    // The first CSV is the golden copy; a readme or a second file is not read.
    if (found || !/\.csv$/i.test(entry.name)) return;
    found = true;
    entry.ondata = (error, data, final) => {
      if (error) return fail(`Cannot inflate ${entry.name} in ${file}: ${error.message}`, error);
      if (data.length > 0 && !text.write(data)) {
        raw.pause();
        text.once("drain", () => raw.resume());
      }
      if (final) text.end();
    };
    try {
      entry.start();
    } catch (error) {
      fail(`Cannot read ${entry.name} in ${file}: ${(error as Error).message}`, error);
    }
  });
  unzip.register(UnzipInflate);

  raw.on("data", (chunk) => {
    const bytes = chunk as Buffer;
    read += bytes.length;
    try {
      unzip.push(bytes);
    } catch (error) {
      fail(`Not a readable zip: ${file}: ${(error as Error).message}`, error);
    }
  });
  raw.on("end", () => {
    let problem: unknown;
    try {
      unzip.push(new Uint8Array(0), true);
    } catch (error) {
      problem = error;
    }
    if (found && !text.writableEnded) fail(`${file} ends in the middle of its CSV (a truncated download?)`, problem);
    else if (problem) fail(`Not a readable zip: ${file}: ${(problem as Error).message}`, problem);
    else if (!found) fail(`No .csv file inside ${file}`);
  });
  raw.on("error", (error) => fail(`Cannot read ${file}: ${error.message}`, error));
  text.setEncoding("utf8");
  return { text, bytesRead: () => read, totalBytes };
}

/** A trimmed cell, or null for an empty or absent one. */
export function cell(row: Record<string, string>, column: string): string | null {
  const value = row[column]?.trim();
  return value ? value : null;
}

function quoted(value: string): string {
  return `"${value.length > 40 ? `${value.slice(0, 37)}…` : value}"`;
}

/** Why a cell is not an LEI, naming the column as the file does; null when it is one. */
export function leiProblem(value: string | null, column: string): string | null {
  if (!value) return `${column}: missing`;
  if (!/^[A-Z0-9]{20}$/.test(value)) return `${column}: not an LEI, 20 characters of A–Z0–9 (got ${quoted(value)})`;
  if (!isValidLei(value)) return `${column}: wrong check digits (ISO 7064 MOD 97-10) (got ${quoted(value)})`;
  return null;
}

/** GLEIF's dates are ISO 8601 ('2013-06-03T13:29:41Z', '2012-06-06T15:53:00.000+02:00'); a date alone is allowed. */
export function dateProblem(value: string | null, column: string): string | null {
  if (value === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(T[0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12 || Number(m[3]) < 1 || Number(m[3]) > 31) {
    return `${column}: not an ISO 8601 date (got ${quoted(value)})`;
  }
  return null;
}

/** GLEIF's consolidation kinds: relationship types and reporting-exception categories both name one of two parents. */
export type ParentKind = "direct" | "ultimate";
