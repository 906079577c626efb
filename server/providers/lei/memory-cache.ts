/**
 * Where the live GLEIF adapter keeps answers between calls. Two kinds: an
 * in-memory LRU (tests, or a process without a store) and the store's
 * `lei_cache` table (store-cache.ts, the default), which survives restarts.
 * An entry older than its time to live is never answered.
 */
export interface LeiCache {
  get(key: string): Promise<{ value: unknown } | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

/** One hour: GLEIF publishes its golden copy three times a day; records change rarely within one. */
export const LEI_CACHE_TTL_MS = 60 * 60 * 1000;

export function createMemoryCache(options: { maxEntries?: number; ttlMs?: number; now?: () => number } = {}): LeiCache {
  const maxEntries = options.maxEntries ?? 500;
  const ttlMs = options.ttlMs ?? LEI_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on read keeps the least recently used first.
  const entries = new Map<string, { value: unknown; storedAt: number }>();
  return {
    async get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (now() - entry.storedAt >= ttlMs) return undefined;
      entries.set(key, entry);
      return { value: entry.value };
    },
    async set(key, value) {
      entries.delete(key);
      entries.set(key, { value, storedAt: now() });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
  };
}
