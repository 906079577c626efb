import fs from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import Papa from "papaparse";
import { detectEncoding } from "./sniff";
import { type ReadLimits, type SheetReader, SpreadsheetError, MAX_ROWS } from "./types";
import { textDecoder } from "../text-decoding";

/** Bytes read to choose the encoding and the delimiter. */
const SAMPLE_BYTES = 64 * 1024;
const DELIMITERS = [",", ";", "\t"];

/**
 * A CSV (or tab-separated) file, streamed: the bytes are decoded in chunks
 * (encoding from the BOM or the sample, sniff.ts) and parsed by papaparse's
 * Node stream, so memory stays flat however long the file; quoted fields may
 * hold line breaks, empty lines are skipped, rows keep their own lengths
 * (previewRows pads them for display).
 */
export async function openCsv(filePath: string, fileName: string, limits: Required<Pick<ReadLimits, "maxBytes">> & ReadLimits): Promise<SheetReader> {
  const handle = await fs.promises.open(filePath, "r");
  let sample: Buffer;
  let size: number;
  try {
    size = (await handle.stat()).size;
    if (size > limits.maxBytes) throw new SpreadsheetError("too-large");
    const buffer = Buffer.alloc(Math.min(SAMPLE_BYTES, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    sample = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const { encoding, bom } = detectEncoding(sample);
  let text = textDecoder(encoding).decode(sample.subarray(bom));
  if (sample.length < size) {
    // Guess from whole lines only.
    const cut = Math.max(text.lastIndexOf("\n"), text.lastIndexOf("\r"));
    if (cut > 0) text = text.slice(0, cut);
  }
  if (text.trim() === "") throw new SpreadsheetError("empty");
  const guessed = Papa.parse<string[]>(text, { delimitersToGuess: DELIMITERS, preview: 50, skipEmptyLines: "greedy" }).meta.delimiter;
  const delimiter = DELIMITERS.includes(guessed) ? guessed : ",";
  const maxRows = limits.maxRows ?? MAX_ROWS;
  const sheetName = fileName.replace(/\.[^.]*$/, "") || fileName;

  return {
    kind: "csv",
    sheets: [sheetName],
    async *rows(sheet = 0) {
      if (sheet !== 0) throw new RangeError(`No sheet ${sheet}`);
      const abort = new AbortController();
      const onAbort = () => abort.abort(limits.signal?.reason);
      limits.signal?.addEventListener("abort", onAbort, { once: true });
      const source = fs.createReadStream(filePath, { start: bom, highWaterMark: 64 * 1024 });
      const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { delimiter, skipEmptyLines: "greedy" }) as NodeJS.ReadWriteStream;
      const flowing = pipeline(source, decoder(encoding), parser as unknown as NodeJS.WritableStream, { signal: abort.signal }).catch((error) => error);
      let count = 0;
      try {
        limits.signal?.throwIfAborted();
        for await (const row of parser as AsyncIterable<string[]>) {
          limits.signal?.throwIfAborted();
          count += 1;
          if (count > maxRows) throw new SpreadsheetError("too-large");
          yield row;
        }
        const failure = await flowing;
        if (failure) throw failure;
      } catch (error) {
        if (limits.signal?.aborted) throw limits.signal.reason;
        if (error instanceof SpreadsheetError) throw error;
        throw new SpreadsheetError("unreadable");
      } finally {
        limits.signal?.removeEventListener("abort", onAbort);
        if (!source.destroyed) abort.abort();
        await flowing;
      }
    },
  };
}

/** Bytes → text in the file's encoding, without splitting a character across chunks. */
function decoder(encoding: string): Transform {
  const decoding = textDecoder(encoding);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, decoding.decode(chunk, { stream: true }));
    },
    flush(done) {
      const rest = decoding.decode();
      done(null, rest || undefined);
    },
  });
}
