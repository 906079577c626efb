/** The customer's actions on a sent task or survey: the `intent` each form posts to /supplier_tasks/{id}. */
export const INTENT = { accept: "accept", return: "return", remind: "remind", cancel: "cancel", revoke: "revoke" } as const;

export type SentTaskIntent = (typeof INTENT)[keyof typeof INTENT];

const INTENTS: readonly string[] = Object.values(INTENT);

export function isSentTaskIntent(value: unknown): value is SentTaskIntent {
  return typeof value === "string" && INTENTS.includes(value);
}
