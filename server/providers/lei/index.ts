import { leiEnvSchema } from "../../env";
import { createGleifProvider } from "./gleif";
import type { LeiProvider } from "./types";

export * from "./types";
export { createGleifProvider, GLEIF_API_URL, type GleifProviderOptions } from "./gleif";

let cached: { key: string; provider: LeiProvider } | undefined;

/**
 * The LEI provider the environment asks for (`LEI_PROVIDER`, read on every
 * call so a test can switch it): `local` (default, the store) or `gleif` (the
 * live API at `GLEIF_API_URL`). The same provider is kept while the setting
 * does not change, so the live adapter's cache lives on between requests.
 */
export async function leiProvider(environment: Record<string, string | undefined> = process.env): Promise<LeiProvider> {
  const parsed = leiEnvSchema.safeParse({
    LEI_PROVIDER: environment.LEI_PROVIDER || undefined,
    GLEIF_API_URL: environment.GLEIF_API_URL || undefined,
  });
  if (!parsed.success) {
    throw new Error(`Invalid LEI provider environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  const key = `${parsed.data.LEI_PROVIDER} ${parsed.data.GLEIF_API_URL}`;
  if (cached?.key === key) return cached.provider;
  let provider: LeiProvider;
  if (parsed.data.LEI_PROVIDER === "gleif") {
    const [{ db }, { createStoreCache }] = await Promise.all([import("../../db"), import("./store-cache")]);
    provider = createGleifProvider({ baseUrl: parsed.data.GLEIF_API_URL, cache: createStoreCache(db) });
  } else {
    const { createLocalLeiProvider } = await import("./local");
    provider = createLocalLeiProvider();
  }
  cached = { key, provider };
  return provider;
}
