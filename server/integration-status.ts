import { db, now } from "./db";

/**
 * The outside services' last success and last error (decision 043), written where a service is called. The message
 * is cut short and stripped of anything that looks like a credential (a URL's user:password, a bearer token, a
 * key=value secret) before it is stored, so the admin page can show it.
 */

export const INTEGRATION_CODES = ["registry", "lei", "credit", "llm", "mail"] as const;
export type IntegrationCode = (typeof INTEGRATION_CODES)[number];

export function isIntegrationCode(value: unknown): value is IntegrationCode {
  return typeof value === "string" && (INTEGRATION_CODES as readonly string[]).includes(value);
}

/** A short message without secrets: URL credentials, bearer tokens and `key=`/`password=` values are replaced. */
export function redactMessage(message: string, secrets: readonly string[] = []): string {
  let text = message.replace(/\s+/g, " ");
  for (const secret of secrets) if (secret && secret.length >= 4) text = text.split(secret).join("***");
  text = text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]*@/gi, "$1***@")
    .replace(/(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 ***")
    .replace(/((?:api[_-]?key|key|token|password|passwd|secret|authorization)["']?\s*[:=]\s*["']?)[^\s"'&,;]+/gi, "$1***");
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

export async function recordIntegrationSuccess(code: IntegrationCode): Promise<void> {
  const at = now();
  await db()
    .insertInto("integration_status")
    .values({ code, last_success_at: at })
    .onConflict((oc) => oc.column("code").doUpdateSet({ last_success_at: at }))
    .execute();
}

export async function recordIntegrationError(code: IntegrationCode, error: unknown, secrets: readonly string[] = []): Promise<void> {
  const at = now();
  const message = redactMessage(error instanceof Error ? error.message : String(error), secrets);
  await db()
    .insertInto("integration_status")
    .values({ code, last_error_at: at, last_error: message })
    .onConflict((oc) => oc.column("code").doUpdateSet({ last_error_at: at, last_error: message }))
    .execute();
}

/**
 * For the call sites of the live providers: records the outcome and never throws, so a status write that fails cannot
 * take the call it describes with it (it is logged without the message, which may carry the provider's words).
 */
export async function noteIntegration(code: IntegrationCode, outcome: { ok: true } | { ok: false; error: unknown }): Promise<void> {
  try {
    if (outcome.ok) await recordIntegrationSuccess(code);
    else await recordIntegrationError(code, outcome.error);
  } catch (error) {
    console.error("integration status not recorded", { code, error: error instanceof Error ? error.name : "unknown" });
  }
}
