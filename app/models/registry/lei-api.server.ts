import { db } from "@server/db";
import { noteIntegration } from "@server/integration-status";
import { LeiProviderError, leiProvider, type LeiProvider, type LeiRecordAnswer } from "@server/providers/lei";

/**
 * Between the `/api/lei-api/*` routes and the LEI provider: the LEI check and
 * the provider call whose failures become a plain result the route answers
 * with 502/504 (never a raw fetch error, never a 500).
 */

export const MALFORMED_LEI_MESSAGE = "lei: not a valid LEI (20 characters A–Z and 0–9 ending in ISO 17442 / ISO 7064 MOD 97-10 check digits)";

export type LeiCallResult<T> = { ok: true; value: T } | { ok: false; status: 502 | 504; message: string };

export async function callLeiProvider<T>(call: (provider: LeiProvider) => Promise<T>): Promise<LeiCallResult<T>> {
  const provider = await leiProvider();
  try {
    const value = await call(provider);
    // The live service's last success and error for /admin/integrations (decision 043); the local store is no outside service.
    if (provider.name !== "local") await noteIntegration("lei", { ok: true });
    return { ok: true, value };
  } catch (error) {
    if (!(error instanceof LeiProviderError)) throw error;
    if (provider.name !== "local") await noteIntegration("lei", { ok: false, error });
    console.error("LEI provider failed", { provider: provider.name, kind: error.kind, status: error.status, error: error.message });
    return error.kind === "timeout"
      ? { ok: false, status: 504, message: "The LEI registry did not answer in time." }
      : { ok: false, status: 502, message: "The LEI registry could not be reached." };
  }
}

/** Any Latin letter: a local name without one (Greek, Cyrillic, …) is shown by its ISO transliteration when the list has one. */
const LATIN = /\p{Script=Latin}/u;

/**
 * The ELF name of an entity legal form code (ISO 20275), from the store's ELF list (`npm run import -- gleif-elf`):
 * the local name as the list gives it (for a code listed in several languages, the first language of the file, which
 * the importer keeps), or its transliterated name when the local name is not in Latin script. Null for no code, an
 * unknown code (GLEIF's 8888 "other" included) and when the lookup fails — the modal then shows the code alone.
 * See docs/decisions/020.
 */
export async function leiElfName(code: string | null): Promise<string | null> {
  if (!code) return null;
  try {
    const row = await db().selectFrom("lei_elf_codes").select(["name", "transliterated_name"]).where("code", "=", code).executeTakeFirst();
    if (!row) return null;
    return !LATIN.test(row.name) && row.transliterated_name ? row.transliterated_name : row.name;
  } catch (error) {
    console.warn(`ELF name lookup failed for ${code}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** The record with `entity.legalForm.name` added (see leiElfName), whichever provider answered it. */
export async function withLegalFormName(answer: LeiRecordAnswer): Promise<LeiRecordAnswer> {
  const { entity } = answer.data.attributes;
  const legalForm = entity.legalForm ?? { id: null, other: null };
  const name = await leiElfName(legalForm.id ?? null);
  return {
    ...answer,
    data: { ...answer.data, attributes: { ...answer.data.attributes, entity: { ...entity, legalForm: { ...legalForm, name } } } },
  };
}
