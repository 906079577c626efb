import fs from "node:fs";
import { closeDb, databaseFile, db } from "../db";
import { IMPORTERS, ImportInputError, isImportKind, type ImportProgress, type ImportSummary } from "../importers/index";
import { migrateToLatest } from "../migrate";

/**
 * npm run import -- <kind> <file>
 *
 * Exits non-zero only when the input is unusable (unknown kind, missing file,
 * wrong header). Rejected rows are part of a normal import: they are listed,
 * and the good rows are in.
 */

const USAGE = `Usage: npm run import -- <kind> <file>

Kinds:
  brreg-units     Enhetsregisteret units: the bulk CSV or enheter_alle.json (by extension; .gz allowed)
  brreg-roles     Enhetsregisteret roles (board, chair, CEO): the roles bulk JSON, one {organisasjonsnummer, rollegrupper} per unit
  konsern-roller  group relations (influencing_tax_ident,influenced_tax_ident,rel_type_code,percentage);
                  import the units first
  countries       countries.csv (region, governance percentile, CO2 intensity change)
  gleif-lei2      GLEIF LEI records: the LEI-CDF golden copy CSV, or the .zip GLEIF publishes it in
  gleif-rr        GLEIF relationship records (RR-CDF golden copy, .csv or .zip): direct and ultimate parents
  gleif-repex     GLEIF reporting exceptions (golden copy, .csv or .zip): why an entity names no parent
  gleif-elf       GLEIF's Entity Legal Form (ELF) code list CSV

Example: npm run import -- brreg-units server/seed-data/brreg/enheter-selection.csv`;

const SHOW_REJECTED = 20;
/** Without a terminal (CI, a log file) one line per this many rows. */
const LOG_EVERY_ROWS = 10_000;

const number = (n: number) => Math.round(n).toLocaleString("en-GB");
const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

function progressReporter(started: number): { update: (p: ImportProgress) => void; done: () => void } {
  const out = process.stdout;
  if (out.isTTY) {
    let lastDraw = 0;
    let drawn = false;
    return {
      update(p) {
        const t = Date.now();
        // A redraw per batch would flicker and cost more than the import on fast disks.
        if (t - lastDraw < 100 && p.bytesRead < p.totalBytes) return;
        lastDraw = t;
        const fraction = p.totalBytes > 0 ? Math.min(1, p.bytesRead / p.totalBytes) : 0;
        const rate = p.rows / Math.max(0.001, (t - started) / 1000);
        const text = ` ${(fraction * 100).toFixed(0).padStart(3)}%  ${megabytes(p.bytesRead)} / ${megabytes(p.totalBytes)}  ${number(p.rows)} rows  ${number(rate)} rows/s${p.rejected ? `  ${number(p.rejected)} rejected` : ""}`;
        const width = Math.max(10, Math.min(40, (out.columns ?? 80) - text.length - 3));
        const filled = Math.round(fraction * width);
        out.write(`\r[${"█".repeat(filled)}${"░".repeat(width - filled)}]${text}\x1b[K`);
        drawn = true;
      },
      done() {
        if (drawn) out.write("\n");
      },
    };
  }
  let logged = 0;
  return {
    update(p) {
      const step = Math.floor(p.rows / LOG_EVERY_ROWS);
      if (step <= logged) return;
      logged = step;
      const rate = p.rows / Math.max(0.001, (Date.now() - started) / 1000);
      const percent = p.totalBytes > 0 ? ` (${((p.bytesRead / p.totalBytes) * 100).toFixed(0)}% of the file)` : "";
      console.log(`  ${number(p.rows)} rows${percent}, ${number(rate)} rows/s, ${number(p.rejected)} rejected`);
    },
    done() {},
  };
}

function printSummary(kind: string, file: string, s: ImportSummary): void {
  const seconds = s.durationMs / 1000;
  console.log(`${kind} ${file}: ${number(s.rows)} rows in ${seconds.toFixed(1)} s (${number(s.rows / Math.max(0.001, seconds))} rows/s)`);
  console.log(`  inserted ${number(s.inserted)}, updated ${number(s.updated)}, rejected ${number(s.rejectedCount)}`);
  if (s.rejectedCount > 0) {
    const shown = s.rejected.slice(0, SHOW_REJECTED);
    console.log(s.rejectedCount > shown.length ? `Rejected rows (first ${shown.length} of ${number(s.rejectedCount)}):` : "Rejected rows:");
    for (const r of shown) {
      console.log(`  line ${r.line}${r.record !== undefined ? ` (item ${r.record})` : ""}: ${r.reason}`);
    }
  }
}

async function main(args: string[]): Promise<number> {
  const [kind, file, ...extra] = args;
  if (!kind || kind === "--help" || kind === "-h") {
    console.log(USAGE);
    return kind ? 0 : 2;
  }
  if (!isImportKind(kind)) {
    console.error(`Unknown kind '${kind}'.\n\n${USAGE}`);
    return 2;
  }
  if (!file || extra.length > 0) {
    console.error(`Give exactly one file.\n\n${USAGE}`);
    return 2;
  }
  if (!fs.existsSync(file)) {
    console.error(`No such file: ${file}`);
    return 2;
  }

  await migrateToLatest(db());
  console.log(`Importing ${kind} from ${file} into ${databaseFile()}`);
  const progress = progressReporter(Date.now());
  try {
    const summary = await IMPORTERS[kind](db(), file, { onProgress: progress.update });
    progress.done();
    printSummary(kind, file, summary);
    return 0;
  } catch (error) {
    progress.done();
    if (error instanceof ImportInputError) {
      if (error.partial) printSummary(kind, file, error.partial);
      console.error(`${error.partial ? "Incomplete import of" : "Cannot import"} ${file}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} finally {
  await closeDb();
}
