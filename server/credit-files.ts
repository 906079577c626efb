import type fs from "node:fs";
import { blobStore } from "./blob-store";

/**
 * Ordered credit report PDFs under DATA_DIR/credit-reports. Like uploads
 * (server/storage.ts) the name on disk is a random key only, so no provider
 * or company name ever becomes part of a path; unlike uploads there is no
 * `file_uploads` row: the `credit_reports` row is the metadata, and these
 * files never appear in anyone's upload list.
 */

const reports = blobStore("credit-reports", ".pdf");

export async function saveReportPdf(pdf: Buffer | Uint8Array): Promise<{ storageKey: string; fileSize: number }> {
  return reports.write(pdf);
}

/** A read stream over a stored report, or null when the file is gone. */
export function openReportPdf(storageKey: string): Promise<{ stream: fs.ReadStream; size: number } | null> {
  return reports.open(storageKey);
}

/** Removes a stored report (an order that lost a race keeps no orphan file). */
export function deleteReportPdf(storageKey: string): Promise<void> {
  return reports.remove(storageKey);
}

/** Where a stored report lives; for tests and maintenance scripts. */
export function reportPdfPath(storageKey: string): string {
  return reports.path(storageKey);
}
