import { llmEnvSchema } from "../../env";
import { providerEnvironment } from "../../runtime-settings";
import type { AssistantData } from "~/models/assistant/assistant";
import { createLocalAssistant } from "./local";
import { createOpenAiProvider } from "./openai";
import { LlmProviderError, type AssistantTool, type LlmProvider } from "./types";

export * from "./types";
export { createOpenAiProvider, DEFAULT_TIMEOUT_MS, MAX_TOOL_ROUNDS, type OpenAiProviderOptions } from "./openai";

/** The names the `{llm_provider}` segment of `POST /api/clients/{llm_provider}` may take. */
export const LLM_PROVIDER_NAMES = ["local", "openai"] as const;
export type LlmProviderName = (typeof LLM_PROVIDER_NAMES)[number];

/** A provider name nobody knows: the route answers 404 (an unconfigured one is LlmProviderError "not_configured", a 400). */
export class UnknownLlmProviderError extends Error {
  readonly providerName: string;
  constructor(providerName: string) {
    super(`There is no assistant provider named "${providerName.slice(0, 40)}"; known: ${LLM_PROVIDER_NAMES.join(", ")}.`);
    this.name = "UnknownLlmProviderError";
    this.providerName = providerName;
  }
}

export function isLlmProviderName(name: string): name is LlmProviderName {
  return (LLM_PROVIDER_NAMES as readonly string[]).includes(name);
}

export interface LlmProviderDependencies {
  /**
   * The organisation-scoped tools the model may call: `assistantTools` of `app/models/assistant/assistant-tools.server.ts`. The route hands
   * them in because server/ never imports a `*.server` model (docs/architecture.md, "Dependency direction"; ESLint holds it).
   * Required for `openai`: a model without them could only guess about the organisation, which it must never do.
   */
  tools?: AssistantTool[];
  /**
   * The organisation-scoped data the local assistant answers from: `assistantData` of `app/models/assistant/assistant-data.server.ts`,
   * handed in by the route for the same reason as the tools. Required for `local`.
   */
  data?: AssistantData;
  /** Replaces the local assistant (tests). */
  createLocalAssistant?: () => LlmProvider;
  /** Replaces fetch for the openai provider (tests). */
  fetch?: typeof globalThis.fetch;
}

type Environment = Record<string, string | undefined>;

function parseEnvironment(environment: Environment) {
  const parsed = llmEnvSchema.safeParse({
    LLM_PROVIDER: environment.LLM_PROVIDER || undefined,
    LLM_BASE_URL: environment.LLM_BASE_URL || undefined,
    LLM_MODEL: environment.LLM_MODEL || undefined,
    LLM_API_KEY: environment.LLM_API_KEY || undefined,
    LLM_TIMEOUT_SECONDS: environment.LLM_TIMEOUT_SECONDS || undefined,
  });
  if (!parsed.success) {
    // Field names and zod's messages only: the values (the key among them) are never part of it.
    throw new LlmProviderError(
      "not_configured",
      `Invalid assistant environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  return parsed.data;
}

/** The provider the chat panel uses (`LLM_PROVIDER`, default `local`). */
export function defaultLlmProviderName(environment: Environment = process.env): LlmProviderName {
  return parseEnvironment(environment).LLM_PROVIDER;
}

/** Whether `openai` has what it needs (`LLM_BASE_URL` and `LLM_MODEL`); `local` always has. */
export function isLlmProviderConfigured(name: LlmProviderName, environment: Environment = process.env): boolean {
  if (name === "local") return true;
  const config = parseEnvironment(environment);
  return Boolean(config.LLM_BASE_URL && config.LLM_MODEL);
}

/**
 * The provider named by the route: `local` always; `openai` only when `LLM_BASE_URL` and `LLM_MODEL` are set (else
 * LlmProviderError "not_configured"); any other name is an UnknownLlmProviderError. Read per call: providers hold no state
 * worth keeping, and tests switch the environment. Without an environment (or with `process.env`) the installation's
 * settings apply: the runtime settings of /admin/integrations/llm (base URL, model, key) over the environment (decision 043).
 */
export async function llmProvider(name: string, environment?: Environment, dependencies: LlmProviderDependencies = {}): Promise<LlmProvider> {
  if (!isLlmProviderName(name)) throw new UnknownLlmProviderError(name);
  if (name === "local") {
    if (dependencies.createLocalAssistant) return dependencies.createLocalAssistant();
    if (!dependencies.data) {
      throw new Error("llmProvider('local') needs the assistant's data: pass { data: assistantData } from app/models/assistant/assistant-data.server.");
    }
    return createLocalAssistant(dependencies.data);
  }

  const config = parseEnvironment((await providerEnvironment("llm", environment)).environment);
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) {
    throw new LlmProviderError("not_configured", "The openai assistant needs LLM_BASE_URL and LLM_MODEL (see the README's configuration table).");
  }
  if (!dependencies.tools) {
    throw new Error("llmProvider('openai') needs the assistant's tools: pass { tools: assistantTools } from app/models/assistant/assistant-tools.server.");
  }
  return createOpenAiProvider({
    baseUrl: config.LLM_BASE_URL,
    model: config.LLM_MODEL,
    apiKey: config.LLM_API_KEY,
    tools: dependencies.tools,
    timeoutMs: config.LLM_TIMEOUT_SECONDS * 1000,
    fetch: dependencies.fetch,
  });
}
