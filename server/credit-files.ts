import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataPath } from "./env";

/**
 * Ordered credit report PDFs under DATA_DIR/credit-reports. Like uploads
 * (server/storage.ts) the name on disk is a random key only, so no provider
 * or company name ever becomes part of a path; unlike uploads there is no
 * `file_uploads` row: the `credit_reports` row is the metadata, and these
 * files never appear in anyone's upload list.
 */

const STORAGE_KEY = /^[a-f0-9]{32}\.pdf$/;

function reportsDir(): string {
  const dir = dataPath("credit-reports");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function pathFor(storageKey: string): string {
  // Keys come from the database, but a corrupted row must still not reach outside the folder.
  if (!STORAGE_KEY.test(storageKey)) throw new Error("Invalid credit report storage key");
  return path.join(reportsDir(), storageKey);
}

/** Writes the PDF under a fresh key; the file appears under its final name only once complete. */
export async function saveReportPdf(pdf: Buffer | Uint8Array): Promise<{ storageKey: string; fileSize: number }> {
  const storageKey = `${randomBytes(16).toString("hex")}.pdf`;
  const target = pathFor(storageKey);
  const partial = `${target}.part`;
  try {
    await fs.promises.writeFile(partial, pdf, { flag: "wx", mode: 0o600 });
    await fs.promises.rename(partial, target);
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  return { storageKey, fileSize: pdf.byteLength };
}

/** A read stream over a stored report, or null when the file is gone. */
export async function openReportPdf(storageKey: string): Promise<{ stream: fs.ReadStream; size: number } | null> {
  const file = pathFor(storageKey);
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) return null;
    return { stream: fs.createReadStream(file), size: stat.size };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Removes a stored report (an order that lost a race keeps no orphan file). */
export async function deleteReportPdf(storageKey: string): Promise<void> {
  await fs.promises.rm(pathFor(storageKey), { force: true });
}

/** Where a stored report lives; for tests and maintenance scripts. */
export function reportPdfPath(storageKey: string): string {
  return pathFor(storageKey);
}
