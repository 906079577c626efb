import { answerPageQuestion, PAGE_QUESTION_REFUSALS } from "~/models/assistant/conversations.server";
import { isRefusalOf } from "~/models/shared/refusal";
import type { OrgUser } from "./auth.server";
import { parseId } from "./ids";
import { errorResponse } from "./responses.server";

/**
 * The chat pages' question form without JavaScript (/ai/chat and /ai/chat-v2): `message`, the conversation `c` and an
 * attached `fileUploadId`. Answers where to go next (the conversation, `failed=1` when no answer came), or the
 * question's own error for the form; a malformed id or another user's conversation or document is an error page.
 */
export async function askOnPage(
  form: FormData,
  user: OrgUser,
  signal: AbortSignal,
): Promise<{ error: "blank" | "tooLong" } | { conversationId: number; failed: boolean }> {
  const rawConversation = String(form.get("c") ?? "");
  const conversationId = rawConversation ? parseId(rawConversation) : null;
  const rawFile = String(form.get("fileUploadId") ?? "");
  const fileUploadId = rawFile ? parseId(rawFile) : null;
  const message = String(form.get("message") ?? "");
  try {
    const blank = !message.trim();
    if (rawConversation && conversationId === null && !blank) throw errorResponse(400, "c must be a positive whole number");
    if (rawFile && fileUploadId === null && !blank) throw errorResponse(400, "fileUploadId must be a positive whole number");
    return await answerPageQuestion({
      owner: { userId: user.id, organizationId: user.organizationId },
      language: user.language,
      message,
      conversationId,
      fileUploadId,
      signal,
    });
  } catch (error) {
    if (!isRefusalOf(error, PAGE_QUESTION_REFUSALS)) throw error;
    switch (error.code) {
      case "question-blank":
        return { error: "blank" };
      case "question-too-long":
        return { error: "tooLong" };
      case "conversation-not-found":
        throw errorResponse(404, "No conversation with this id.");
      case "document-not-found":
        throw errorResponse(404, "No document with this id.");
    }
  }
}
