import { env } from "@server/env";
import type { RequestSource } from "~/models/accounts/security-events.server";

/**
 * What a request tells the models as plain values: the public address that mailed links start with, and where the
 * request came from for the security log.
 */

/** Links in mails use the public address (APP_URL) when set, else the address the request came to. */
export function publicOrigin(request: Request): string {
  return env().APP_URL?.replace(/\/+$/, "") ?? new URL(request.url).origin;
}

/** Where a request came from: the client's address (the server's `clientAddress`, proxy-aware) and its browser. */
export function requestSource(request: Request, context: { clientAddress?: string | null } | undefined): RequestSource {
  return { ip: context?.clientAddress ?? null, userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? null };
}
