import type { SupplierReportData } from "~/models/assistant/ai-report";
import type { ComposedIntelligence, IntelligenceLanguage, RegistryFacts } from "~/models/assistant/supplier-intelligence";

/**
 * The assistant's providers (docs/architecture.md `llm`): `local` answers from the organisation's own data without a model;
 * `openai` streams from any OpenAI-compatible chat-completions endpoint and lets the model call the same organisation-scoped
 * tools. Both stream plain text chunks; the route `POST /api/clients/{llm_provider}` writes them to the response as they come.
 */

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Whose data the assistant may use, and in which language it answers. Every tool and every local answer is scoped by it. */
export interface AssistantViewer {
  userId: number;
  organizationId: number;
  language: "en" | "no";
}

export interface StreamInput {
  /** The conversation so far, the user's newest message last (already trimmed and within the limits). */
  messages: ChatMessage[];
  viewer: AssistantViewer;
  /** Aborted when the client goes away: generation stops. */
  signal: AbortSignal;
  /**
   * Documents the user attached to the conversation (/ai/documents; decision 030), newest first: the file's name and its
   * extracted text (a PDF's pages separated by a form feed; "" when no text could be read). The answer cites them by name.
   */
  documents?: AttachedDocument[];
}

export interface AttachedDocument {
  name: string;
  text: string;
}

/** A supplier report to write (/ai/reports): the gathered data of one followed supplier, for the viewer's organisation. */
export interface ReportInput {
  data: SupplierReportData;
  /** Whose report, and its language. */
  viewer: AssistantViewer;
  /** Aborted when generation must stop (timeout, shutdown): the report is then failed, never kept half-written. */
  signal: AbortSignal;
}

/** Supplier intelligence to write (shared/spec/02-supplier-credit-connections.md §3) from one company's registry facts alone. */
export interface IntelligenceInput {
  facts: RegistryFacts;
  language: IntelligenceLanguage;
  signal: AbortSignal;
}

export interface LlmProvider {
  readonly name: "local" | "openai";
  /** The answer as text chunks (markdown), in order. Throws LlmProviderError for what the route answers as "Error from server". */
  stream(input: StreamInput): AsyncIterable<string>;
  /** A supplier report as markdown chunks, in order, from `data` alone. Throws LlmProviderError like `stream`. */
  writeReport(input: ReportInput): AsyncIterable<string>;
  /**
   * Supplier intelligence from the facts alone (decision 028): the local provider composes it; a model writes the overview,
   * tags, products and services, and everything else stays the registry's. Null when the registry has nothing to tell.
   */
  writeIntelligence(input: IntelligenceInput): Promise<ComposedIntelligence | null>;
}

export type LlmErrorKind = "not_configured" | "timeout" | "network" | "http" | "invalid_response";

export class LlmProviderError extends Error {
  readonly kind: LlmErrorKind;
  readonly status: number | null;
  constructor(kind: LlmErrorKind, message: string, opts: { status?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "LlmProviderError";
    this.kind = kind;
    this.status = opts.status ?? null;
  }
}

/**
 * A function the model may call (OpenAI "tools"): organisation-scoped data, never raw SQL. `run` gets the parsed
 * arguments (validate them: they come from the model) and the viewer, and returns JSON-serialisable data.
 */
export interface AssistantTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  run(args: unknown, viewer: AssistantViewer): Promise<unknown>;
}
