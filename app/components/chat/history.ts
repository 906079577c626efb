/**
 * The limits of the assistant (decision 027), shared by the chat panel, the /ai/chat page and the API: a message has at
 * most 8,000 characters; the history sent with a question at most 40 messages and 40,000 characters (the oldest are
 * left out first). Pure: the browser and the server agree.
 */
export const MESSAGE_LIMIT = 8000;
export const HISTORY_MESSAGES_LIMIT = 40;
export const HISTORY_CHARS_LIMIT = 40000;

export interface HistoryMessage {
  role: "user" | "assistant";
  content: string;
}

/** The newest messages that fit the limits, in order; the last one (the question) is always kept. */
export function fitHistory(messages: HistoryMessage[]): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  let chars = 0;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i]!;
    if (out.length > 0 && (out.length >= HISTORY_MESSAGES_LIMIT || chars + message.content.length > HISTORY_CHARS_LIMIT)) break;
    out.unshift(message);
    chars += message.content.length;
  }
  // A history starts with a question: an answer without its question is left out.
  while (out.length > 1 && out[0]!.role === "assistant") out.shift();
  return out;
}

/** The longest title a user may give a conversation (/ai/chat-v2's rename). */
export const TITLE_LIMIT = 120;
