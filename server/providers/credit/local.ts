import type { CreditProvider } from "./types";

/** SCAFFOLDING: the local credit provider (registry store + generated PDF) is being built. */
export function createLocalCreditProvider(): CreditProvider {
  throw new Error("local credit provider not built yet");
}
