import { z } from "zod";
import { RegistryError } from "./types";

/**
 * Brønnøysund's update feed for main units (Enhetsregisteret, NLOD 2.0):
 * `GET /enhetsregisteret/api/oppdateringer/enheter?oppdateringsid=…&includeChanges=true&size=…` (or `dato=…` for a first
 * read). HAL JSON: `_embedded.oppdaterteEnheter[]` — each `{oppdateringsid, dato, organisasjonsnummer, endringstype, endringer}`,
 * `endringstype` one of Ny, Endring, Sletting, Fjernet, Ukjent and `endringer` a JSON Patch (RFC 6902) of the unit when
 * `includeChanges=true` — with `page` and `_links.next` while more follow. Update ids grow; the monitor keeps the last one it
 * handled and asks for the ones after it (decision 023). Knows nothing of our store.
 */

export const CHANGE_TYPES = ["Ny", "Endring", "Sletting", "Fjernet", "Ukjent"] as const;
export type BrregChangeType = (typeof CHANGE_TYPES)[number];

export interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

export interface BrregUpdate {
  /** oppdateringsid: grows with every published change. */
  id: number;
  /** When the change was published (ISO 8601). */
  date: string;
  orgNumber: string;
  changeType: BrregChangeType;
  changes: JsonPatchOperation[];
}

export interface BrregUpdatesPage {
  updates: BrregUpdate[];
  /** The feed has more after this page. */
  hasMore: boolean;
}

export interface BrregUpdatesQuery {
  /** The last update already handled: the page starts after it. */
  afterId?: number | null;
  /** Without a cursor: updates published from this instant on. */
  since?: string | null;
  size?: number;
}

export interface BrregUpdatesClient {
  page(query: BrregUpdatesQuery): Promise<BrregUpdatesPage>;
}

export interface BrregUpdatesOptions {
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}

export const DEFAULT_UPDATES_PAGE_SIZE = 100;
// The register caps a page at 10 000 updates; smaller pages keep one transaction short.
const MAX_UPDATES_PAGE_SIZE = 1000;

const patchSchema = z.object({ op: z.string(), path: z.string(), value: z.unknown().optional(), from: z.string().optional() });

const updateSchema = z.object({
  oppdateringsid: z.number().int().nonnegative(),
  dato: z.string(),
  organisasjonsnummer: z.string().regex(/^\d{9}$/),
  // A type added later by the register is read as Ukjent rather than refused.
  endringstype: z
    .string()
    .nullish()
    .transform((t): BrregChangeType => ((CHANGE_TYPES as readonly string[]).includes(t ?? "") ? (t as BrregChangeType) : "Ukjent")),
  endringer: z.array(patchSchema).nullish(),
});

const pageSchema = z.object({
  _embedded: z
    .object({
      oppdaterteEnheter: z.array(updateSchema).nullish(),
    })
    .nullish(),
  _links: z.object({ next: z.object({ href: z.string() }).nullish() }).nullish(),
  page: z.object({ size: z.number(), totalElements: z.number(), totalPages: z.number(), number: z.number() }).nullish(),
});

export function createBrregUpdatesClient(options: BrregUpdatesOptions = {}): BrregUpdatesClient {
  const baseUrl = (options.baseUrl ?? "https://data.brreg.no").replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;

  return {
    async page(query) {
      const size = Math.min(MAX_UPDATES_PAGE_SIZE, Math.max(1, Math.floor(query.size ?? DEFAULT_UPDATES_PAGE_SIZE)));
      const params = new URLSearchParams({ includeChanges: "true", size: String(size) });
      if (query.afterId != null) params.set("oppdateringsid", String(query.afterId + 1));
      else params.set("dato", query.since ?? new Date().toISOString());
      const path = `/enhetsregisteret/api/oppdateringer/enheter?${params.toString()}`;

      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      let status: number;
      let raw: string;
      try {
        const response = await fetchImpl(`${baseUrl}${path}`, { headers: { Accept: "application/json" }, signal: controller.signal });
        status = response.status;
        if (!response.ok) {
          await response.body?.cancel().catch(() => undefined);
          throw new RegistryError("http", `Brønnøysund answered ${status} for ${path}`, { status });
        }
        raw = await response.text();
      } catch (error) {
        if (error instanceof RegistryError) throw error;
        if (controller.signal.aborted) throw new RegistryError("timeout", `Brønnøysund did not answer within ${timeoutMs} ms for ${path}`, { cause: error });
        throw new RegistryError("network", `Brønnøysund could not be reached for ${path}`, { cause: error });
      } finally {
        clearTimeout(timer);
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch (error) {
        throw new RegistryError("invalid_response", `Brønnøysund sent no JSON for ${path}`, { status, cause: error });
      }
      const parsed = pageSchema.safeParse(body);
      if (!parsed.success) {
        throw new RegistryError("invalid_response", `Unexpected update feed from Brønnøysund for ${path}: ${parsed.error.message}`, {
          status,
          cause: parsed.error,
        });
      }
      const data = parsed.data;
      const updates = (data._embedded?.oppdaterteEnheter ?? [])
        .map((u) => ({ id: u.oppdateringsid, date: u.dato, orgNumber: u.organisasjonsnummer, changeType: u.endringstype, changes: u.endringer ?? [] }))
        .sort((a, b) => a.id - b.id);
      const morePages = data.page ? data.page.number + 1 < data.page.totalPages : false;
      return { updates, hasMore: updates.length > 0 && (Boolean(data._links?.next) || morePages) };
    },
  };
}
