import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { dataPath } from "./env";
import type { DB } from "./db-types";

export type { DB } from "./db-types";

/** Opens a SQLite file with the pragmas the app relies on. */
export function openSqlite(file: string): Database.Database {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  return sqlite;
}

export function createDb(file: string): Kysely<DB> {
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: openSqlite(file) }) });
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
