/** The forms of /notifications, by the `intent` each posts (kebab-case, as every intent of the app). */
export const NOTIFICATIONS_INTENT = { read: "read", readAll: "read-all", dismiss: "dismiss", restore: "restore" } as const;

/** Dismissing and restoring change the notification for the whole organisation: they need the triage permission. */
export const TRIAGE_INTENTS: readonly string[] = [NOTIFICATIONS_INTENT.dismiss, NOTIFICATIONS_INTENT.restore];
