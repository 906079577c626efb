import { promisify } from "node:util";
import zlib from "node:zlib";
import { SpreadsheetError } from "./types";

const inflateRaw = promisify(zlib.inflateRaw);

/**
 * Limits a workbook must keep before any zip reader sees it. An xlsx of a
 * few thousand rows declares a few MB; a zip bomb declares (or, lying,
 * expands to) hundreds of MB or GB.
 */
export const ZIP_LIMITS = {
  maxEntries: 10_000,
  maxTotalUncompressed: 200 * 1024 * 1024,
  /** Uncompressed ÷ compressed, checked for entries above `ratioFloor` bytes (tiny entries cannot hurt). */
  maxRatio: 200,
  ratioFloor: 64 * 1024,
};

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
  /** Where the entry's (compressed) data starts; set by checkZip. */
  dataOffset?: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function unsafe(): SpreadsheetError {
  return new SpreadsheetError("unsafe");
}

function unreadable(): SpreadsheetError {
  return new SpreadsheetError("unreadable");
}

/**
 * Reads the central directory of a zip held in memory and refuses it
 * (SpreadsheetError "unsafe") when it is a bomb or hides anything:
 * - too many entries, too many declared bytes in all, or an entry whose
 *   declared ratio is too high;
 * - zip64, encryption, a method other than stored/deflate;
 * - local entries that do not follow each other exactly from offset 0 up to
 *   the central directory (so a streaming reader, which reads the local
 *   headers, meets exactly the entries checked here);
 * and then inflates every entry the xlsx reader will inflate (.xml and
 * .rels) with a hard cap at its declared size, refusing one that expands
 * past it (a header that lies). A zip that is not one: "unreadable".
 */
export async function checkZip(bytes: Buffer, limits = ZIP_LIMITS): Promise<ZipEntry[]> {
  const entries = centralDirectory(bytes, limits);
  let total = 0;
  for (const entry of entries) {
    total += entry.uncompressedSize;
    if (total > limits.maxTotalUncompressed) throw unsafe();
    if (entry.uncompressedSize > limits.ratioFloor && entry.uncompressedSize / Math.max(entry.compressedSize, 1) > limits.maxRatio) throw unsafe();
    if (entry.flags & 0x1) throw unsafe();
    if (entry.method !== 0 && entry.method !== 8) throw unsafe();
  }
  const sorted = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  let expected = 0;
  const dataAt = new Map<ZipEntry, number>();
  for (const entry of sorted) {
    if (entry.localOffset !== expected) throw unsafe();
    if (entry.localOffset + 30 > bytes.length || bytes.readUInt32LE(entry.localOffset) !== LOCAL) throw unreadable();
    const nameLength = bytes.readUInt16LE(entry.localOffset + 26);
    const extraLength = bytes.readUInt16LE(entry.localOffset + 28);
    const start = entry.localOffset + 30 + nameLength + extraLength;
    dataAt.set(entry, start);
    entry.dataOffset = start;
    expected = start + entry.compressedSize;
    if (entry.flags & 0x8) {
      // A data descriptor follows the data: 12 bytes, or 16 with its optional signature.
      expected += bytes.readUInt32LE(expected) === 0x08074b50 ? 16 : 12;
    }
  }
  if (expected !== centralStart(bytes)) throw unsafe();
  for (const entry of entries) {
    if (!(entry.name.endsWith(".xml") || entry.name.endsWith(".rels"))) continue;
    const start = dataAt.get(entry)!;
    const data = bytes.subarray(start, start + entry.compressedSize);
    let size: number;
    if (entry.method === 0) size = data.length;
    else {
      try {
        size = (await inflateRaw(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1) })).length;
      } catch (error) {
        if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw unsafe();
        throw unreadable();
      }
    }
    if (size !== entry.uncompressedSize) throw unsafe();
  }
  return entries;
}

function findEocd(bytes: Buffer): number {
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= stop; at -= 1) {
    if (bytes.readUInt32LE(at) === EOCD) return at;
  }
  throw unreadable();
}

function centralStart(bytes: Buffer): number {
  return bytes.readUInt32LE(findEocd(bytes) + 16);
}

function centralDirectory(bytes: Buffer, limits: typeof ZIP_LIMITS): ZipEntry[] {
  if (bytes.length < 22) throw unreadable();
  const eocd = findEocd(bytes);
  const count = bytes.readUInt16LE(eocd + 10);
  const size = bytes.readUInt32LE(eocd + 12);
  const offset = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw unsafe(); // zip64: no workbook of our size needs it
  if (count > limits.maxEntries) throw unsafe();
  if (offset + size > eocd) throw unreadable();
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > eocd || bytes.readUInt32LE(at) !== CENTRAL) throw unreadable();
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const entry: ZipEntry = {
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      uncompressedSize: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
      name: bytes.toString("utf8", at + 46, at + 46 + nameLength),
    };
    if (entry.compressedSize === 0xffffffff || entry.uncompressedSize === 0xffffffff || entry.localOffset === 0xffffffff) throw unsafe();
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The bytes of an entry checkZip has passed, inflated with the cap at its declared size. */
export async function readEntry(bytes: Buffer, entry: ZipEntry): Promise<Buffer> {
  if (entry.dataOffset === undefined) throw new Error("readEntry needs an entry checked by checkZip");
  const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === 0) return data;
  return inflateRaw(data, { maxOutputLength: Math.max(entry.uncompressedSize, 1) });
}
