import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { dataPath } from "./env";

/**
 * Bytes on disk under a folder of DATA_DIR, each under a random key and
 * nothing else, so no file name or other input ever becomes part of a path.
 * Uploads (storage.ts) and credit report PDFs (credit-files.ts) use one each.
 */
export interface BlobStore {
  /** Writes under a fresh key; the file appears under its final name only once complete. */
  write(data: Buffer | Uint8Array | Readable): Promise<{ storageKey: string; fileSize: number }>;
  /** A read stream over stored bytes, or null when they are gone. */
  open(storageKey: string): Promise<{ stream: fs.ReadStream; size: number } | null>;
  remove(storageKey: string): Promise<void>;
  path(storageKey: string): string;
}

export function blobStore(folder: string, extension = ""): BlobStore {
  const keyPattern = new RegExp(`^[a-f0-9]{32}${extension.replace(/\./g, "\\.")}$`);
  const dir = () => {
    const d = dataPath(folder);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  const pathFor = (storageKey: string) => {
    // Keys come from the database, but a corrupted row must still not reach outside the folder.
    if (!keyPattern.test(storageKey)) throw new Error(`Invalid storage key for ${folder}`);
    return path.join(dir(), storageKey);
  };
  return {
    async write(data) {
      const storageKey = `${randomBytes(16).toString("hex")}${extension}`;
      const target = pathFor(storageKey);
      const partial = `${target}.part`;
      let fileSize = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          fileSize += chunk.length;
          done(null, chunk);
        },
      });
      const source = data instanceof Readable ? data : Readable.from([Buffer.from(data)]);
      try {
        await pipeline(source, counter, fs.createWriteStream(partial, { flags: "wx", mode: 0o600 }));
        await fs.promises.rename(partial, target);
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
      return { storageKey, fileSize };
    },
    async open(storageKey) {
      const file = pathFor(storageKey);
      try {
        const stat = await fs.promises.stat(file);
        if (!stat.isFile()) return null;
        return { stream: fs.createReadStream(file), size: stat.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async remove(storageKey) {
      await fs.promises.rm(pathFor(storageKey), { force: true });
    },
    path: pathFor,
  };
}
