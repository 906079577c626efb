import { createHash } from "node:crypto";
import { db } from "./db";
import type { IntegrationCode } from "./integration-status";
import { decryptSetting, settingsKey, SettingsKeyError } from "./settings-crypto";

/**
 * The one reader of the runtime settings (decision 043): the values an administrator stored on /admin/integrations/{code}
 * (encrypted in `integration_settings`) laid over the environment. The providers (credit, the assistant's model) and the
 * administration's test call all read them here.
 *
 * Cheap on every call: one SELECT of the service's few rows (name and ciphertext, no decryption). The rows and the key
 * make a fingerprint; only when it differs from the last one is anything decrypted. Every store gives a fresh nonce, so
 * any set or clear — in this process or another (the worker, the CLI) — changes the fingerprint, even within one
 * millisecond or with the row count unchanged.
 */

type Environment = Record<string, string | undefined>;

interface Overlay {
  fingerprint: string;
  values: Readonly<Record<string, string>>;
}

const overlays = new Map<IntegrationCode, Overlay>();

/** The service's runtime values that decrypt under the current key; a value that does not (another key, tampered) is left out. */
export async function runtimeSettings(code: IntegrationCode, environment: Environment = process.env): Promise<Readonly<Record<string, string>>> {
  const key = settingsKey(environment);
  if (!key) return {};
  const rows = await db().selectFrom("integration_settings").select(["name", "ciphertext"]).where("code", "=", code).orderBy("name").execute();
  const fingerprint = createHash("sha256")
    .update(key)
    .update(JSON.stringify(rows.map((r) => [r.name, r.ciphertext])))
    .digest("base64url");
  const cached = overlays.get(code);
  if (cached?.fingerprint === fingerprint) return cached.values;
  const values: Record<string, string> = {};
  for (const row of rows) {
    try {
      const value = decryptSetting(row.ciphertext, key, `${code}:${row.name}`);
      if (value) values[row.name] = value;
    } catch (error) {
      if (!(error instanceof SettingsKeyError)) throw error;
    }
  }
  Object.freeze(values);
  overlays.set(code, { fingerprint, values });
  return values;
}

/** The environment with the service's runtime settings laid over it: a runtime value wins over the environment's. */
export async function effectiveEnvironment(code: IntegrationCode, environment: Environment = process.env): Promise<Environment> {
  return { ...environment, ...(await runtimeSettings(code, environment)) };
}

/**
 * What a provider reads: the installation's settings (no environment given, or `process.env` itself) are the effective
 * ones; an environment handed in explicitly (a test call that already laid the overlay, a test) is used as it is.
 */
export async function providerEnvironment(code: IntegrationCode, environment?: Environment): Promise<{ environment: Environment; installation: boolean }> {
  if (environment === undefined || environment === process.env) return { environment: await effectiveEnvironment(code), installation: true };
  return { environment, installation: false };
}
