import { z } from "zod";
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

let cached: CreditProvider | undefined;

/**
 * The credit provider the environment asks for: `local` (default) or
 * `creditsafe` (needs user name and password). The local provider reads the
 * registry store and prints texts that the caller hands over in `local`.
 */
export async function creditProvider(local: LocalCreditOptions, environment: Record<string, string | undefined> = process.env): Promise<CreditProvider> {
  if (cached && environment === process.env) return cached;
  const parsed = creditEnvSchema.safeParse({
    CREDIT_PROVIDER: environment.CREDIT_PROVIDER || undefined,
    CREDITSAFE_BASE_URL: environment.CREDITSAFE_BASE_URL || undefined,
    CREDITSAFE_USERNAME: environment.CREDITSAFE_USERNAME || undefined,
    CREDITSAFE_PASSWORD: environment.CREDITSAFE_PASSWORD || undefined,
  });
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
  if (environment === process.env) cached = provider;
  return provider;
}
