import { z } from "zod";
import { createBrregProvider } from "./brreg";
import type { RegistryProvider } from "./types";

export * from "./types";
export { createBrregProvider, type BrregProviderOptions } from "./brreg";

// Parsed here rather than in server/env.ts so that choosing a provider stays a
// concern of the provider module; both variables are optional.
const registryEnvSchema = z.object({
  REGISTRY_PROVIDER: z.enum(["local", "brreg"]).default("local"),
  BRREG_BASE_URL: z.string().url().optional(),
});

/**
 * The live registry the environment asks for, or null for 'local' (the
 * default): then the SQLite store, filled by importers and the seed, is the
 * registry, and the app never needs the network. A live provider refreshes
 * the store (see sync.ts); screens always read the store.
 */
export function liveRegistryProvider(environment: Record<string, string | undefined> = process.env): RegistryProvider | null {
  // An empty `REGISTRY_PROVIDER=` line in a .env file means "default", not "invalid".
  const parsed = registryEnvSchema.safeParse({
    REGISTRY_PROVIDER: environment.REGISTRY_PROVIDER || undefined,
    BRREG_BASE_URL: environment.BRREG_BASE_URL || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid registry provider environment: ${problems}`);
  }
  if (parsed.data.REGISTRY_PROVIDER === "brreg") {
    return createBrregProvider({ baseUrl: parsed.data.BRREG_BASE_URL });
  }
  return null;
}
