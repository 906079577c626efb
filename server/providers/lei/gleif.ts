import { z } from "zod";
import { createMemoryCache, type LeiCache } from "./memory-cache";
import { LeiProviderError, type LeiAutocompleteItem, type LeiProvider, type LeiRecordAnswer, type LeiRecordData } from "./types";

/**
 * The LEI provider over the GLEIF API v1 (api.gleif.org, CC0 data). Answers
 * keep GLEIF's own JSON (checked for the fields the app reads, everything else
 * passed through). Every failure reaches the caller as a LeiProviderError;
 * a 404 is an answer (null), not a failure.
 */

export interface GleifProviderOptions {
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  /** Covers the whole exchange, body included. */
  timeoutMs?: number;
  /** Where answers are kept between calls (1 hour); an in-memory LRU unless given (the app gives the store's, see index.ts). */
  cache?: LeiCache;
  /** Where failures that are swallowed (the managing-LOU lookup) are reported. */
  log?: (line: string) => void;
}

export const GLEIF_API_URL = "https://api.gleif.org/api/v1";
/** GLEIF's largest page size: children come in as few requests as possible. */
const CHILDREN_PAGE_SIZE = 200;
/** A parent with more children than this (40,000) is cut off rather than requested for ever. */
const MAX_CHILDREN_PAGES = 200;

const text = z.string().nullish();
const address = z.looseObject({ addressLines: z.array(z.string()).nullish(), postalCode: text, city: text, region: text, country: text });
const recordData = z.looseObject({
  type: z.literal("lei-records"),
  id: z.string(),
  attributes: z.looseObject({
    lei: z.string(),
    entity: z.looseObject({ legalName: z.looseObject({ name: z.string() }), legalAddress: address.nullish() }),
    registration: z.looseObject({ status: text, nextRenewalDate: text, managingLou: text }),
  }),
});
const recordAnswer = z.looseObject({ data: recordData });
// An ultimate-parent answer is a record, or a reporting exception saying why there is none.
const parentAnswer = z.looseObject({ data: z.union([recordData, z.looseObject({ type: z.literal("reporting-exceptions") })]) });
const childrenPage = z.looseObject({
  data: z.array(recordData),
  meta: z.looseObject({ pagination: z.looseObject({ currentPage: z.number(), lastPage: z.number() }).nullish() }).nullish(),
});
const autocompleteAnswer = z.looseObject({
  data: z.array(
    z.looseObject({
      type: z.string(),
      attributes: z.looseObject({ value: z.string(), highlighting: z.string() }),
      relationships: z.looseObject({ "lei-records": z.looseObject({ data: z.looseObject({ type: z.literal("lei-records"), id: z.string() }) }) }).nullish(),
    }),
  ),
});

export function createGleifProvider(options: GleifProviderOptions = {}): LeiProvider {
  const baseUrl = (options.baseUrl ?? GLEIF_API_URL).replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 8000;
  const cache = options.cache ?? createMemoryCache();
  const log = options.log ?? ((line: string) => console.warn(line));

  /** GET a path: the parsed body for 2xx, null for 404, a LeiProviderError for anything else. */
  async function get<T>(path: string, schema: z.ZodType<T>): Promise<T | null> {
    const cached = await cache.get(path);
    if (cached) return cached.value as T | null;
    let status: number;
    let raw: string;
    try {
      const response = await fetchImpl(`${baseUrl}${path}`, {
        headers: { Accept: "application/vnd.api+json, application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      if (status === 404) {
        await response.body?.cancel().catch(() => undefined);
        await cache.set(path, null);
        return null;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new LeiProviderError("http", `GLEIF answered ${status} for ${path}`, { status });
      }
      raw = await response.text();
    } catch (error) {
      if (error instanceof LeiProviderError) throw error;
      if (error instanceof DOMException && error.name === "TimeoutError") {
        throw new LeiProviderError("timeout", `GLEIF did not answer within ${timeoutMs} ms for ${path}`, { cause: error });
      }
      throw new LeiProviderError("network", `GLEIF could not be reached for ${path}`, { cause: error });
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (error) {
      throw new LeiProviderError("invalid_response", `GLEIF sent no JSON for ${path}`, { status, cause: error });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new LeiProviderError("invalid_response", `Unexpected response from GLEIF for ${path}: ${parsed.error.message}`, { status, cause: parsed.error });
    }
    await cache.set(path, parsed.data);
    return parsed.data;
  }

  const recordPath = (lei: string) => `/lei-records/${encodeURIComponent(lei)}`;

  return {
    name: "gleif",

    async autocomplete(term) {
      const q = term.trim();
      if (q === "") return [];
      const answer = await get(`/autocompletions?field=fulltext&q=${encodeURIComponent(q)}`, autocompleteAnswer);
      return (answer?.data ?? []) as LeiAutocompleteItem[];
    },

    async record(lei) {
      return (await get(recordPath(lei), recordAnswer)) as LeiRecordAnswer | null;
    },

    async directChildren(lei) {
      const children: LeiRecordData[] = [];
      for (let page = 1; page <= MAX_CHILDREN_PAGES; page++) {
        const answer = await get(`${recordPath(lei)}/direct-children?page%5Bnumber%5D=${page}&page%5Bsize%5D=${CHILDREN_PAGE_SIZE}`, childrenPage);
        if (!answer) break;
        children.push(...(answer.data as LeiRecordData[]));
        const pagination = answer.meta?.pagination;
        if (!pagination || pagination.currentPage >= pagination.lastPage || answer.data.length === 0) break;
      }
      return children;
    },

    async ultimateParent(lei) {
      const answer = await get(`${recordPath(lei)}/ultimate-parent`, parentAnswer);
      if (!answer || answer.data.type !== "lei-records") return null;
      return answer as unknown as LeiRecordAnswer;
    },

    async managingLou(lei) {
      try {
        return (await get(`${recordPath(lei)}/managing-lou`, recordAnswer)) as LeiRecordAnswer | null;
      } catch (error) {
        // The modal shows the raw managing-LOU value instead (shared/spec/01-shell-chat-lei.md §8: the lookup fails silently).
        log(`GLEIF managing-LOU lookup failed for ${lei}: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      }
    },
  };
}
