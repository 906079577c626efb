import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readJson, parseId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { findProvider, getConversation, historyProblem, streamAnswer } from "~/models/assistant/conversations.server";
import { documentsForQuestion, isOwnDocument } from "~/models/files/documents.server";

const body = z.object({
  messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"], { error: "role must be user or assistant" }), content: z.string() }), {
    error: "messages must be a list of {role, content}",
  }),
  conversationId: z.union([z.number(), z.string(), z.null()]).optional(),
  fileUploadId: z.union([z.number(), z.string(), z.null()], { error: "fileUploadId must be a positive whole number" }).optional(),
});

/**
 * POST /api/clients/{llm_provider} `{messages: [{role, content}], conversationId}` → the answer as a streamed
 * `text/plain` body, chunk by chunk as the provider writes it (shared/spec/01-shell-chat-lei.md §7). Closing the request stops the provider.
 * The assistant reads the documents attached to the conversation's messages and, when given, `fileUploadId` (one of the
 * user's own files: anyone else's is a 404) — decision 030.
 * Unknown provider: 404; unconfigured: 400; over the limits: 400; the provider failing before it answers: 502 "Error from server".
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["POST"]);
  const user = await requireUser(request, "assistantUse");
  const input = await readJson(request, body);
  // A system message is the server's to write, never the browser's.
  const messages = input.messages.filter((m) => m.role !== "system").map((m) => ({ role: m.role, content: m.content.trim() }));
  const problem = historyProblem(messages);
  if (problem) throw errorResponse(400, problem);
  const owner = { userId: user.id, organizationId: user.organizationId };
  let conversationId: number | null = null;
  if (input.conversationId != null && input.conversationId !== "") {
    conversationId = parseId(String(input.conversationId));
    if (conversationId === null) throw errorResponse(400, "conversationId must be a positive whole number");
    if (!(await getConversation(owner, conversationId))) throw errorResponse(404, "No conversation with this id.");
  }
  let fileUploadId: number | null = null;
  if (input.fileUploadId != null && input.fileUploadId !== "") {
    fileUploadId = parseId(String(input.fileUploadId));
    if (fileUploadId === null) throw errorResponse(400, "fileUploadId must be a positive whole number");
    if (!(await isOwnDocument(owner, fileUploadId))) throw errorResponse(404, "No document with this id.");
  }
  const found = await findProvider(params.provider ?? "");
  if (!("provider" in found)) throw errorResponse(found.status, found.message);
  return streamAnswer({
    provider: found.provider,
    messages,
    viewer: { userId: user.id, organizationId: user.organizationId, language: user.language },
    signal: request.signal,
    documents: await documentsForQuestion(owner, { conversationId, fileUploadId }),
  });
}

export function loader() {
  throw methodNotAllowed(["POST"]);
}
