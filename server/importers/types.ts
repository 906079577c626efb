/** One input row that was not imported, and why. */
export interface Rejection {
  /** Physical line of the input (1-based; the CSV header is line 1). */
  line: number;
  /** Item number inside a JSON array (1-based); lines say little in a one-line JSON file. */
  record?: number;
  reason: string;
}

export interface ImportSummary {
  inserted: number;
  updated: number;
  /** The first `maxRejections` rejected rows; `rejectedCount` has them all. */
  rejected: Rejection[];
  rejectedCount: number;
  /** Rows read from the input, good and bad (the header not counted). */
  rows: number;
  durationMs: number;
}

export interface ImportProgress {
  /** Bytes of the file as stored on disk (compressed bytes for .gz). */
  bytesRead: number;
  totalBytes: number;
  rows: number;
  rejected: number;
}

export interface ImportOptions {
  /** Rows written per transaction. */
  batchSize?: number;
  /** Called after every batch and once at the end. */
  onProgress?: (progress: ImportProgress) => void;
  /** Keeps memory bounded on a hopeless file; counting goes on regardless. */
  maxRejections?: number;
}

/**
 * The input cannot be imported at all (missing file, wrong header, not a JSON
 * array), or reading broke off (a truncated .gz). Bad rows are never this:
 * they are rejected and the import goes on.
 */
export class ImportInputError extends Error {
  /** When reading broke off midway: what was imported before it did. */
  readonly partial?: ImportSummary;

  constructor(message: string, options?: { cause?: unknown; partial?: ImportSummary }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ImportInputError";
    this.partial = options?.partial;
  }
}
