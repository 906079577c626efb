import { db } from "@server/db";
import { fitHistory, HISTORY_CHARS_LIMIT, HISTORY_MESSAGES_LIMIT, MESSAGE_LIMIT, TITLE_LIMIT } from "~/components/chat/history";
import { defaultLlmProviderName, LLM_PROVIDER_NAMES, llmProvider, LlmProviderError, UnknownLlmProviderError } from "@server/providers/llm";
import type { AssistantViewer, AttachedDocument, ChatMessage, LlmProvider } from "@server/providers/llm/types";
import { assistantData } from "~/models/assistant/assistant-data.server";
import { assistantTools } from "~/models/assistant/assistant-tools.server";
import { documentsForQuestion, isOwnDocument } from "~/models/files/documents.server";
import { refuse } from "~/models/shared/refusal";

/**
 * The assistant's conversations (shared/spec/01-shell-chat-lei.md §3, §7). A conversation belongs to one user in one organisation: every query
 * here filters by both, so another user's (or another organisation's) id finds nothing and the route answers 404.
 */

export { HISTORY_CHARS_LIMIT, HISTORY_MESSAGES_LIMIT, MESSAGE_LIMIT, TITLE_LIMIT };

/** The provider the chat uses (LLM_PROVIDER; docs/architecture.md `llm`): `local` unless `openai` is chosen. */
export function defaultProviderName(environment: NodeJS.ProcessEnv = process.env): "local" | "openai" {
  return defaultLlmProviderName(environment);
}

export interface Owner {
  userId: number;
  organizationId: number;
}

export interface ConversationSummary {
  id: number;
  title: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface StoredMessage {
  id: number;
  text: string;
  is_assistant: boolean;
  fileUpload: { id: number; fileName: string; fileSize: number; mimeType: string } | null;
}

// Ties within the same millisecond keep their creation order (id) for "newest first".
export async function listConversations(owner: Owner): Promise<ConversationSummary[]> {
  const rows = await db()
    .selectFrom("conversations")
    .select(["id", "title", "created_at", "updated_at"])
    .where("user_id", "=", owner.userId)
    .where("organization_id", "=", owner.organizationId)
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, createdAt: r.created_at, updatedAt: r.updated_at }));
}

export async function createConversation(owner: Owner, title: string | null = null): Promise<ConversationSummary> {
  const at = new Date().toISOString();
  const row = await db()
    .insertInto("conversations")
    .values({ user_id: owner.userId, organization_id: owner.organizationId, title, created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, title, createdAt: at, updatedAt: at };
}

export async function getConversation(owner: Owner, id: number): Promise<ConversationSummary | null> {
  const row = await db()
    .selectFrom("conversations")
    .select(["id", "title", "created_at", "updated_at"])
    .where("id", "=", id)
    .where("user_id", "=", owner.userId)
    .where("organization_id", "=", owner.organizationId)
    .executeTakeFirst();
  return row ? { id: row.id, title: row.title, createdAt: row.created_at, updatedAt: row.updated_at } : null;
}

/** The conversation's messages in order, or null when it is not the owner's. */
export async function listMessages(owner: Owner, conversationId: number): Promise<StoredMessage[] | null> {
  if (!(await getConversation(owner, conversationId))) return null;
  const rows = await db()
    .selectFrom("conversation_messages as m")
    // A file of another organisation can never be shown, even if an id were stored.
    .leftJoin("file_uploads as f", (j) => j.onRef("f.id", "=", "m.file_upload_id").on("f.organization_id", "=", owner.organizationId))
    .select(["m.id", "m.text", "m.is_assistant", "f.id as file_id", "f.file_name", "f.file_size", "f.mime_type"])
    .where("m.conversation_id", "=", conversationId)
    .orderBy("m.id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    text: r.text,
    is_assistant: r.is_assistant === 1,
    fileUpload: r.file_id != null ? { id: r.file_id, fileName: r.file_name!, fileSize: r.file_size!, mimeType: r.mime_type! } : null,
  }));
}

/**
 * Saves a message and moves the conversation to the top of the list; null when the conversation is not the owner's.
 * `fileUploadId` attaches one of the owner's documents (the caller checks it is theirs: isOwnDocument).
 */
export async function addMessage(
  owner: Owner,
  conversationId: number,
  input: { text: string; isAssistant: boolean; fileUploadId?: number | null },
): Promise<StoredMessage | null> {
  const conversation = await getConversation(owner, conversationId);
  if (!conversation) return null;
  const file =
    input.fileUploadId != null
      ? await db()
          .selectFrom("file_uploads")
          .select(["id", "file_name as fileName", "file_size as fileSize", "mime_type as mimeType"])
          .where("id", "=", input.fileUploadId)
          .where("organization_id", "=", owner.organizationId)
          .where("user_id", "=", owner.userId)
          .executeTakeFirst()
      : undefined;
  const at = new Date().toISOString();
  return db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .insertInto("conversation_messages")
        .values({
          conversation_id: conversationId,
          text: input.text,
          is_assistant: input.isAssistant ? 1 : 0,
          file_upload_id: file?.id ?? null,
          created_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      // The first user message names the conversation in the list (/ai/chat).
      const title = conversation.title ?? (input.isAssistant ? null : titleFrom(input.text));
      await trx.updateTable("conversations").set({ updated_at: at, title }).where("id", "=", conversationId).execute();
      return { id: row.id, text: input.text, is_assistant: input.isAssistant, fileUpload: file ?? null };
    });
}

/** Renames the owner's conversation (the title is trimmed by the caller); false when it is not the owner's. */
export async function renameConversation(owner: Owner, id: number, title: string): Promise<boolean> {
  const result = await db()
    .updateTable("conversations")
    .set({ title })
    .where("id", "=", id)
    .where("user_id", "=", owner.userId)
    .where("organization_id", "=", owner.organizationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the owner's conversation and its messages (cascade); false when it is not the owner's. */
export async function deleteConversation(owner: Owner, id: number): Promise<boolean> {
  const result = await db()
    .deleteFrom("conversations")
    .where("id", "=", id)
    .where("user_id", "=", owner.userId)
    .where("organization_id", "=", owner.organizationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** Why a history cannot be sent to a provider (a 400's message), or null when it fits the limits. */
export function historyProblem(messages: ChatMessage[]): string | null {
  if (messages.length === 0) return "messages: send at least one message.";
  if (messages.length > HISTORY_MESSAGES_LIMIT) return `messages: at most ${HISTORY_MESSAGES_LIMIT} messages of history.`;
  const tooLong = messages.findIndex((m) => m.content.length > MESSAGE_LIMIT);
  if (tooLong >= 0) return `messages[${tooLong}].content: a message has at most ${MESSAGE_LIMIT.toLocaleString("en-GB")} characters.`;
  const total = messages.reduce((sum, m) => sum + m.content.length, 0);
  if (total > HISTORY_CHARS_LIMIT) return `messages: the history has at most ${HISTORY_CHARS_LIMIT.toLocaleString("en-GB")} characters.`;
  if (messages[messages.length - 1]!.role !== "user") return "messages: the last message must be the user's question.";
  if (!messages[messages.length - 1]!.content.trim()) return "messages: the question is blank.";
  return null;
}

/* ---------- the answer: a provider's chunks as a streamed text body ---------- */

/** What the route answers when the provider fails before its first chunk (shared/spec/01-shell-chat-lei.md §8: the server's failure message). */
export const SERVER_FAILURE = "Error from server";

/**
 * The provider's answer as a `text/plain` body whose chunks are written as the provider yields them. A failure before the
 * first chunk is a 502 "Error from server"; a failure later ends the body with an error (the browser's reader rejects, and the
 * panel shows "Error: …"). Aborting `signal` (the client went away) stops the provider: its iterator is returned.
 */
export async function streamAnswer(input: {
  provider: LlmProvider;
  messages: ChatMessage[];
  viewer: AssistantViewer;
  signal: AbortSignal;
  documents?: AttachedDocument[];
}): Promise<Response> {
  const answer = input.provider.stream({
    messages: input.messages,
    viewer: input.viewer,
    signal: input.signal,
    ...(input.documents?.length ? { documents: input.documents } : {}),
  });
  const iterator = answer[Symbol.asyncIterator]();
  let first: IteratorResult<string>;
  try {
    first = await iterator.next();
  } catch (error) {
    logFailure(error);
    return failureResponse();
  }
  const encoder = new TextEncoder();
  let finished = first.done === true;
  const stop = () => {
    if (finished) return;
    finished = true;
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  };
  input.signal.addEventListener("abort", stop, { once: true });
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!first.done && first.value) controller.enqueue(encoder.encode(first.value));
      if (first.done) controller.close();
    },
    async pull(controller) {
      if (finished) return;
      try {
        const next = await iterator.next();
        if (next.done || input.signal.aborted) {
          finished = true;
          controller.close();
        } else if (next.value) controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        finished = true;
        if (input.signal.aborted) return controller.close();
        logFailure(error);
        controller.error(error instanceof Error ? error : new Error(SERVER_FAILURE));
      }
    },
    cancel: stop,
  });
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      // no-transform: the compression middleware leaves the body alone, so every chunk is sent as it comes (not buffered).
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}

export function failureResponse(): Response {
  return new Response(SERVER_FAILURE, { status: 502, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** Never the message text of an upstream (it may quote a request); the kind and status say enough. */
function logFailure(error: unknown): void {
  if (error instanceof LlmProviderError) console.warn(`assistant: provider failed (${error.kind}${error.status ? ` ${error.status}` : ""})`);
  else console.warn("assistant: provider failed", error instanceof Error ? error.name : typeof error);
}

/** The whole answer as one text (the /ai/chat page without JavaScript). Throws what the provider throws. */
export async function collectAnswer(input: {
  provider: LlmProvider;
  messages: ChatMessage[];
  viewer: AssistantViewer;
  signal: AbortSignal;
  documents?: AttachedDocument[];
}): Promise<string> {
  let text = "";
  for await (const chunk of input.provider.stream(input)) text += chunk;
  return text;
}

/* ---------- the providers (server/providers/llm; decision 026) ---------- */

export const PROVIDER_NAMES = LLM_PROVIDER_NAMES;

export type ProviderLookup = { provider: LlmProvider } | { status: 400 | 404; message: string };

/**
 * The named provider, or why not: an unknown name is a 404, an unconfigured provider a 400. The route hands the
 * providers the organisation-scoped data and tools (server/ never imports app models): the local assistant answers from
 * `assistantData`, the openai provider's model calls `assistantTools`.
 */
export async function findProvider(name: string): Promise<ProviderLookup> {
  try {
    // No environment: the installation's, with the runtime settings of /admin/integrations/llm over it (decision 043).
    return { provider: await llmProvider(name, undefined, { data: assistantData, tools: assistantTools }) };
  } catch (error) {
    if (error instanceof UnknownLlmProviderError) return { status: 404, message: `No assistant provider named '${name.slice(0, 40)}'. Use local or openai.` };
    if (error instanceof LlmProviderError && error.kind === "not_configured") return { status: 400, message: error.message };
    throw error;
  }
}

/* ---------- the page's form (no JavaScript): /ai/chat and /ai/chat-v2 ---------- */

/** Why the page's question is refused: blank or too long (invalid, on `message`), a conversation or document not the user's. */
export const PAGE_QUESTION_REFUSALS = ["question-blank", "question-too-long", "conversation-not-found", "document-not-found"] as const;

/**
 * A question posted by the chat page's form: saves it (with the attached document, `fileUploadId`) in the conversation
 * (`conversationId`, a new one when null), runs the provider to the end with the conversation's documents and saves
 * the answer (no streaming). `failed`: no answer came. A refused question (PAGE_QUESTION_REFUSALS) changes nothing.
 */
export async function answerPageQuestion(input: {
  owner: Owner;
  language: AssistantViewer["language"];
  message: string;
  conversationId: number | null;
  fileUploadId: number | null;
  signal: AbortSignal;
}): Promise<{ conversationId: number; failed: boolean }> {
  const { owner, fileUploadId } = input;
  const text = input.message.trim();
  if (!text) throw refuse("invalid", "question-blank", { field: "message" });
  if (text.length > MESSAGE_LIMIT) throw refuse("invalid", "question-too-long", { field: "message" });
  if (fileUploadId !== null && !(await isOwnDocument(owner, fileUploadId))) throw refuse("not-found", "document-not-found");
  let id = input.conversationId;
  if (id === null) id = (await createConversation(owner)).id;
  const earlier = await listMessages(owner, id);
  if (!earlier) throw refuse("not-found", "conversation-not-found");
  await addMessage(owner, id, { text, isAssistant: false, fileUploadId });

  const found = await findProvider(defaultProviderName());
  let answer = "";
  if ("provider" in found) {
    try {
      const messages = fitHistory([
        ...earlier.map((m) => ({ role: m.is_assistant ? ("assistant" as const) : ("user" as const), content: m.text })),
        { role: "user", content: text },
      ]);
      const documents = await documentsForQuestion(owner, { conversationId: id, fileUploadId });
      answer = await collectAnswer({ provider: found.provider, messages, viewer: { ...owner, language: input.language }, signal: input.signal, documents });
    } catch {
      answer = "";
    }
  }
  if (!answer) return { conversationId: id, failed: true };
  await addMessage(owner, id, { text: answer, isAssistant: true });
  return { conversationId: id, failed: false };
}
