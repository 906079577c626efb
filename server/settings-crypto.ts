import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Runtime settings of the outside services are stored encrypted (decision 043): AES-256-GCM under the 32-byte key in
 * SETTINGS_ENCRYPTION_KEY (base64), a fresh 12-byte nonce per value, and the setting's name as additional data so a
 * value moved to another setting does not decrypt. Stored as `v1.<nonce>.<tag>.<ciphertext>` (base64url parts).
 */

export class SettingsKeyError extends Error {}

/** The key from the environment, or null when it is not set or not 32 bytes of base64. */
export function settingsKey(environment: Record<string, string | undefined> = process.env): Buffer | null {
  const raw = environment.SETTINGS_ENCRYPTION_KEY?.trim();
  if (!raw || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) return null;
  const key = Buffer.from(raw, "base64");
  return key.length === 32 ? key : null;
}

export function encryptSetting(plain: string, key: Buffer, name: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(Buffer.from(name, "utf8"));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ["v1", nonce.toString("base64url"), tag.toString("base64url"), body.toString("base64url")].join(".");
}

/** The clear value; throws SettingsKeyError for a wrong key, a tampered value or another setting's value. */
export function decryptSetting(stored: string, key: Buffer, name: string): string {
  const parts = stored.split(".");
  if (parts.length !== 4 || parts[0] !== "v1") throw new SettingsKeyError("Unknown setting format");
  const [nonce, tag, body] = parts.slice(1).map((p) => Buffer.from(p, "base64url"));
  if (nonce.length !== 12 || tag.length !== 16) throw new SettingsKeyError("Malformed setting");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, nonce);
    decipher.setAAD(Buffer.from(name, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    throw new SettingsKeyError("The setting does not decrypt under this key");
  }
}
