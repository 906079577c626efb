import { createHash } from "node:crypto";
import { z } from "zod";
import { providerEnvironment } from "../../runtime-settings";
import type { LocalCreditOptions } from "./local";
import { CreditError, type CreditProvider } from "./types";

export * from "./types";
export type { LocalCompany, LocalCreditOptions, LocalCreditStore, LocalReportFacts } from "./local";
export type { ReportTextLanguage, ReportTexts } from "./pdf-report";

const creditEnvSchema = z.object({
  CREDIT_PROVIDER: z.enum(["local", "creditsafe"]).default("local"),
  CREDITSAFE_BASE_URL: z.string().url().default("https://connect.creditsafe.com/v1"),
  CREDITSAFE_USERNAME: z.string().optional(),
  CREDITSAFE_PASSWORD: z.string().optional(),
});

/** The installation's provider and a fingerprint of the settings it was built from (never the settings themselves). */
let cached: { fingerprint: string; provider: CreditProvider } | undefined;

/**
 * The credit provider the environment asks for: `local` (default) or
 * `creditsafe` (needs user name and password). The local provider reads the
 * registry store and prints texts that the caller hands over in `local`.
 *
 * Without an environment (or with `process.env`) the installation's settings apply: the environment with the runtime
 * settings of /admin/integrations/credit laid over it (decision 043). That provider is kept — with Creditsafe's token —
 * while those settings stay the same, and rebuilt (a new login) from the first call after they change.
 */
export async function creditProvider(local: LocalCreditOptions, environment?: Record<string, string | undefined>): Promise<CreditProvider> {
  const { environment: effective, installation } = await providerEnvironment("credit", environment);
  const settings = {
    CREDIT_PROVIDER: effective.CREDIT_PROVIDER || undefined,
    CREDITSAFE_BASE_URL: effective.CREDITSAFE_BASE_URL || undefined,
    CREDITSAFE_USERNAME: effective.CREDITSAFE_USERNAME || undefined,
    CREDITSAFE_PASSWORD: effective.CREDITSAFE_PASSWORD || undefined,
  };
  const fingerprint = createHash("sha256").update(JSON.stringify(settings)).digest("base64url");
  if (installation && cached?.fingerprint === fingerprint) return cached.provider;
  const parsed = creditEnvSchema.safeParse(settings);
  if (!parsed.success)
    throw new Error(`Invalid credit provider environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  let provider: CreditProvider;
  if (parsed.data.CREDIT_PROVIDER === "creditsafe") {
    const { CREDITSAFE_USERNAME: username, CREDITSAFE_PASSWORD: password } = parsed.data;
    if (!username || !password) throw new CreditError("not_configured", "CREDIT_PROVIDER=creditsafe needs CREDITSAFE_USERNAME and CREDITSAFE_PASSWORD");
    const { createCreditsafeProvider } = await import("./creditsafe");
    provider = createCreditsafeProvider({ baseUrl: parsed.data.CREDITSAFE_BASE_URL, username, password });
  } else {
    const { createLocalCreditProvider } = await import("./local");
    provider = createLocalCreditProvider(local);
  }
  if (installation) cached = { fingerprint, provider };
  return provider;
}
