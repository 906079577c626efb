import { createHash, randomBytes } from "node:crypto";

/** A 256-bit random token, URL- and cookie-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Tokens are stored hashed, so a copy of the database gives no live sessions or reset links. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
