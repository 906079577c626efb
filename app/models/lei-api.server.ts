import { LeiProviderError, leiProvider, type LeiProvider } from "@server/providers/lei";

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
    return { ok: true, value: await call(provider) };
  } catch (error) {
    if (!(error instanceof LeiProviderError)) throw error;
    console.error("LEI provider failed", { provider: provider.name, kind: error.kind, status: error.status, error: error.message });
    return error.kind === "timeout"
      ? { ok: false, status: 504, message: "The LEI registry did not answer in time." }
      : { ok: false, status: 502, message: "The LEI registry could not be reached." };
  }
}
