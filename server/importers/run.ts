import type { InputFile } from "./input";
import { ImportInputError, type ImportOptions, type ImportSummary, type Rejection } from "./types";

/** A validated row waiting for its batch, with where it came from for error reports. */
export interface Staged<T> {
  line: number;
  record?: number;
  value: T;
}

export interface BatchResult {
  inserted: number;
  updated: number;
  rejected: Rejection[];
}

/**
 * Bookkeeping shared by the importers: counts, the capped rejection list,
 * batching and progress. The importer supplies only parsing and the writer.
 */
export class ImportRun<T> {
  private readonly started = Date.now();
  private readonly batchSize: number;
  private readonly maxRejections: number;
  private batch: Staged<T>[] = [];
  readonly summary: ImportSummary = { inserted: 0, updated: 0, rejected: [], rejectedCount: 0, rows: 0, durationMs: 0 };

  constructor(
    private readonly input: InputFile,
    private readonly options: ImportOptions,
    private readonly write: (batch: Staged<T>[]) => Promise<BatchResult>,
  ) {
    this.batchSize = Math.max(1, options.batchSize ?? 1000);
    this.maxRejections = options.maxRejections ?? 10_000;
  }

  reject(rejection: Rejection): void {
    this.summary.rejectedCount += 1;
    if (this.summary.rejected.length < this.maxRejections) this.summary.rejected.push(rejection);
  }

  /** Counts one input row; rows rejected before staging count too. */
  countRow(): void {
    this.summary.rows += 1;
  }

  async stage(item: Staged<T>): Promise<void> {
    this.batch.push(item);
    if (this.batch.length >= this.batchSize) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.batch.length > 0) {
      const batch = this.batch;
      this.batch = [];
      const result = await this.write(batch);
      this.summary.inserted += result.inserted;
      this.summary.updated += result.updated;
      for (const r of result.rejected) this.reject(r);
    }
    this.reportProgress();
  }

  /**
   * Feeds every item to `handle`, then writes the last batch. If reading
   * breaks off (a truncated download), the rows read so far are still
   * written, and the error says so and carries their summary.
   */
  async consume<I>(items: AsyncIterable<I>, handle: (item: I) => Promise<void>): Promise<ImportSummary> {
    const iterator = items[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<I>;
      try {
        next = await iterator.next();
      } catch (error) {
        if (this.summary.rows === 0 && error instanceof ImportInputError) throw error;
        const partial = await this.finish();
        const reason = errorMessage(error);
        throw new ImportInputError(reason.startsWith("Reading stopped") ? reason : `Reading stopped after ${partial.rows} rows: ${reason}`, {
          cause: error,
          partial,
        });
      }
      if (next.done) break;
      await handle(next.value);
    }
    return this.finish();
  }

  async finish(): Promise<ImportSummary> {
    await this.flush();
    // Reading may reject rows out of order (a replayed line after a broken one).
    this.summary.rejected.sort((a, b) => a.line - b.line || (a.record ?? 0) - (b.record ?? 0));
    this.summary.durationMs = Date.now() - this.started;
    return this.summary;
  }

  private reportProgress(): void {
    this.options.onProgress?.({
      bytesRead: this.input.bytesRead(),
      totalBytes: this.input.totalBytes,
      rows: this.summary.rows,
      rejected: this.summary.rejectedCount,
    });
  }
}

/** Splits for multi-row statements: SQLite allows 32 766 bound values per statement. */
export function chunk<T>(items: T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(30_000 / columns));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
