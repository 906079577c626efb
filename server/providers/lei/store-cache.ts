import type { Kysely } from "kysely";
import type { DB } from "../../db-types";
import { LEI_CACHE_TTL_MS, type LeiCache } from "./memory-cache";

/**
 * The live adapter's cache in the store (`lei_cache`, migration 0011): one row
 * per GLEIF request path with the answer as JSON (null for a 404). Expired rows
 * are never answered and are deleted every `pruneEvery` writes.
 */
export function createStoreCache(database: () => Kysely<DB>, options: { ttlMs?: number; now?: () => number; pruneEvery?: number } = {}): LeiCache {
  const ttlMs = options.ttlMs ?? LEI_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const pruneEvery = options.pruneEvery ?? 100;
  let writes = 0;
  const oldestFresh = () => new Date(now() - ttlMs).toISOString();
  return {
    async get(key) {
      const row = await database().selectFrom("lei_cache").select("body").where("key", "=", key).where("fetched_at", ">", oldestFresh()).executeTakeFirst();
      return row ? { value: JSON.parse(row.body) as unknown } : undefined;
    },
    async set(key, value) {
      const row = { key, body: JSON.stringify(value ?? null), fetched_at: new Date(now()).toISOString() };
      await database()
        .insertInto("lei_cache")
        .values(row)
        .onConflict((oc) => oc.column("key").doUpdateSet({ body: row.body, fetched_at: row.fetched_at }))
        .execute();
      if (++writes % pruneEvery === 0) await database().deleteFrom("lei_cache").where("fetched_at", "<=", oldestFresh()).execute();
    },
  };
}
