import Database from "better-sqlite3";
import { CompiledQuery, Kysely, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver } from "kysely";
import { dataPath } from "./env";
import type { DB } from "./db-types";

export type { DB } from "./db-types";

/**
 * The database handle models and jobs take: the app's instance or an open transaction on it (a kysely `Transaction`
 * is a `Kysely`). The one name for it; no module declares its own alias.
 */
export type Db = Kysely<DB>;

/** Opens a SQLite file with the pragmas the app relies on. */
export function openSqlite(file: string): Database.Database {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  return sqlite;
}

/**
 * Transactions begin IMMEDIATE: they take the write lock at once, waiting for it up to busy_timeout. A deferred
 * transaction that reads and then writes fails at once with SQLITE_BUSY when another process (the worker, the CLI)
 * wrote in between — the busy timeout does not apply to that upgrade — and the user would get a 500.
 */
class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class AppSqliteDialect extends SqliteDialect {
  readonly #database: Database.Database;
  constructor(database: Database.Database) {
    super({ database });
    this.#database = database;
  }
  override createDriver(): Driver {
    return new ImmediateTransactionDriver({ database: this.#database });
  }
}

export function createDb(file: string): Kysely<DB> {
  return new Kysely<DB>({ dialect: new AppSqliteDialect(openSqlite(file)) });
}

export function databaseFile(): string {
  return process.env.DATABASE_FILE ?? dataPath("app.db");
}

// One connection per process; kept on globalThis so the dev server's module
// reloads do not open a new handle on every edit.
const holder = globalThis as unknown as { __db?: Kysely<DB> };

export function db(): Kysely<DB> {
  if (!holder.__db) holder.__db = createDb(databaseFile());
  return holder.__db;
}

export async function closeDb(): Promise<void> {
  if (holder.__db) {
    const d = holder.__db;
    holder.__db = undefined;
    await d.destroy();
  }
}

/** SQLite stores timestamps as ISO-8601 text in UTC. */
export function now(): string {
  return new Date().toISOString();
}
