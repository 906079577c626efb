import { z } from "zod";
import { createBrregProvider } from "./brreg";
import { RegistryError, type RegistryProvider } from "./types";

export * from "./types";
export { createBrregProvider, type BrregProviderOptions } from "./brreg";

// Parsed here rather than in server/env.ts so that choosing a provider stays a
// concern of the provider module; both variables are optional.
const registryEnvSchema = z.object({
  REGISTRY_PROVIDER: z.enum(["local", "brreg"]).default("local"),
  BRREG_BASE_URL: z.string().url().optional(),
});

function notWired(): never {
  throw new RegistryError(
    "not_configured",
    "local registry provider is not wired yet; set REGISTRY_PROVIDER=brreg to use the live Brønnøysund API",
  );
}

/**
 * Stands in for the store-backed provider until it exists, failing loudly
 * rather than pretending the store is empty.
 */
export const localRegistryPlaceholder: RegistryProvider = {
  getOrganization: async () => notWired(),
  getRoles: async () => notWired(),
  searchOrganizations: async () => notWired(),
  getFinancialStatements: async () => notWired(),
};

/** The registry provider the environment asks for; 'local' (the store) unless REGISTRY_PROVIDER=brreg. */
export function registryProvider(environment: Record<string, string | undefined> = process.env): RegistryProvider {
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
  return localRegistryPlaceholder;
}
