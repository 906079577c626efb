import type { CreditProvider } from "./types";

/** SCAFFOLDING: the Creditsafe Connect adapter is being built. */
export function createCreditsafeProvider(_options: { baseUrl: string; username: string; password: string; fetch?: typeof fetch; timeoutMs?: number }): CreditProvider {
  throw new Error("Creditsafe adapter not built yet");
}
