import { createHash, createHmac, randomBytes } from "node:crypto";
import { sessionSecret } from "../env";

/** A 256-bit random token, URL- and cookie-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Tokens are stored hashed, so a copy of the database gives no live sessions or reset links. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * A keyed digest (HMAC-SHA-256 with a key derived from the session secret for one `purpose`), base64url. For values
 * the server hands out and must recognise later without storing them: a session's handle in the list of one's
 * sessions, a signed unsubscribe link (decision 040). Different purposes never share a key.
 */
export function keyedDigest(purpose: string, value: string): string {
  const key = createHmac("sha256", sessionSecret()).update(`purpose:${purpose}`).digest();
  return createHmac("sha256", key).update(value).digest("base64url");
}
