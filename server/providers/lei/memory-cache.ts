/**
 * A small in-memory cache for the live GLEIF adapter: least recently used
 * entries go first once `maxEntries` is reached, and an entry older than
 * `ttlMs` is never answered. It lives as long as the process; the store-backed
 * cache (`lei_cache`) can replace it behind the same interface.
 */
export interface LeiCache {
  get(key: string): { value: unknown } | undefined;
  set(key: string, value: unknown): void;
}

export function createMemoryCache(options: { maxEntries?: number; ttlMs?: number; now?: () => number } = {}): LeiCache {
  const maxEntries = options.maxEntries ?? 500;
  const ttlMs = options.ttlMs ?? 60 * 60 * 1000;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on read keeps the oldest first.
  const entries = new Map<string, { value: unknown; storedAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (now() - entry.storedAt >= ttlMs) return undefined;
      entries.set(key, entry);
      return { value: entry.value };
    },
    set(key, value) {
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
