import { Migrator, type Kysely } from "kysely";
import { migrations } from "../migrations/index";
import type { DB } from "./db-types";

export async function migrateToLatest(database: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({
    db: database,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? "?"} failed: ${String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
