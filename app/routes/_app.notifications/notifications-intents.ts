/**
 * The forms of /notifications, by the `intent` each posts. "readAll" keeps the spelling that links and scripts already
 * post; the others are one word.
 */
export const NOTIFICATIONS_INTENT = { read: "read", readAll: "readAll", dismiss: "dismiss", restore: "restore" } as const;

/** Dismissing and restoring change the notification for the whole organisation: they need the triage permission. */
export const TRIAGE_INTENTS: readonly string[] = [NOTIFICATIONS_INTENT.dismiss, NOTIFICATIONS_INTENT.restore];
