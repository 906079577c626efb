import { env } from "@server/env";
import type { RequestSource } from "~/models/accounts/security-events.server";

/**
 * What a request tells the models as plain values: the public address that mailed links start with, and where the
 * request came from for the security log.
 */

/**
 * The address mailed links start with: the public address (APP_URL) when set, else the address this server listens
 * on. Never the request's Host header: any client sets it, and a reset link mailed to the victim would point at the
 * client's host.
 */
export function publicOrigin(): string {
  const { APP_URL, HOST, PORT } = env();
  if (APP_URL) return APP_URL.replace(/\/+$/, "");
  const host = ["", "0.0.0.0", "::"].includes(HOST) ? "localhost" : HOST.includes(":") ? `[${HOST}]` : HOST;
  return `http://${host}:${PORT}`;
}

/** Where a request came from: the client's address (the server's `clientAddress`, proxy-aware) and its browser. */
export function requestSource(request: Request, context: { clientAddress?: string | null } | undefined): RequestSource {
  return { ip: context?.clientAddress ?? null, userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? null };
}
