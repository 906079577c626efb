import fs from "node:fs";
import { db, now } from "@server/db";
import { dataPath } from "@server/env";
import { sendMail } from "@server/mail";
import { INTEGRATION_CODES, recordIntegrationError, recordIntegrationSuccess, redactMessage, type IntegrationCode } from "@server/integration-status";
import { creditProvider } from "@server/providers/credit";
import { leiProvider } from "@server/providers/lei";
import { liveRegistryProvider } from "@server/providers/registry";
import { effectiveEnvironment } from "@server/runtime-settings";
import { encryptSetting, settingsKey } from "@server/settings-crypto";
import { CREDIT_REPORT_TEXTS, localCreditStore } from "~/models/credit/credit-reports.server";
import { recordSecurityEvent, type RequestSource } from "~/models/accounts/security-events.server";
import { refuse } from "~/models/shared/refusal";

/**
 * The outside services (decision 043): which provider each uses, its settings from the environment with the
 * secrets masked, the runtime settings (encrypted, never shown back), the last success and error, and a harmless test
 * call. For the installation's administrator only (the routes ask `admin`).
 */

export { INTEGRATION_CODES, type IntegrationCode };
/** The environment the providers see: the runtime settings that decrypt laid over it (one reader, server/runtime-settings). */
export { effectiveEnvironment };

type Environment = Record<string, string | undefined>;

interface SettingSpec {
  name: string;
  /** Never shown: only "set" or "not set". */
  secret?: boolean;
  /** A URL whose password part is masked. */
  url?: boolean;
  /** May be set at run time (stored encrypted). */
  runtime?: boolean;
  default?: string;
}

interface ServiceSpec {
  code: IntegrationCode;
  /** The variable that chooses the provider, its values (the first is the default). */
  providerVariable: string;
  providers: readonly string[];
  settings: readonly SettingSpec[];
}

export const SERVICES: readonly ServiceSpec[] = [
  {
    code: "registry",
    providerVariable: "REGISTRY_PROVIDER",
    providers: ["local", "brreg"],
    settings: [
      { name: "BRREG_BASE_URL", url: true, default: "https://data.brreg.no" },
      { name: "MONITOR_BRREG_UPDATES", default: "auto" },
    ],
  },
  {
    code: "lei",
    providerVariable: "LEI_PROVIDER",
    providers: ["local", "gleif"],
    settings: [{ name: "GLEIF_API_URL", url: true, default: "https://api.gleif.org/api/v1" }],
  },
  {
    code: "credit",
    providerVariable: "CREDIT_PROVIDER",
    providers: ["local", "creditsafe"],
    settings: [
      { name: "CREDITSAFE_BASE_URL", url: true, default: "https://connect.creditsafe.com/v1" },
      { name: "CREDITSAFE_USERNAME", secret: true, runtime: true },
      { name: "CREDITSAFE_PASSWORD", secret: true, runtime: true },
    ],
  },
  {
    code: "llm",
    providerVariable: "LLM_PROVIDER",
    providers: ["local", "openai"],
    settings: [
      { name: "LLM_BASE_URL", url: true, runtime: true },
      { name: "LLM_MODEL", runtime: true },
      { name: "LLM_API_KEY", secret: true, runtime: true },
      { name: "LLM_TIMEOUT_SECONDS", default: "60" },
    ],
  },
  {
    code: "mail",
    providerVariable: "SMTP_URL",
    providers: ["outbox", "smtp"],
    settings: [
      { name: "SMTP_URL", url: true },
      { name: "MAIL_FROM", default: "Supplier Risk <no-reply@localhost>" },
    ],
  },
];

export function serviceSpec(code: string): ServiceSpec | null {
  return SERVICES.find((s) => s.code === code) ?? null;
}

/** A URL without its password (and, for safety, without a query string's values). */
export function maskUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = "***";
    for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, "***");
    return url.toString();
  } catch {
    return "***";
  }
}

export interface ShownSetting {
  name: string;
  /** What may be shown: a plain value, a masked URL, or null for a secret / runtime value (see `set`). */
  value: string | null;
  set: boolean;
  source: "environment" | "runtime" | "default" | "none";
  secret: boolean;
  runtime: boolean;
  runtimeSetAt: string | null;
}

export interface RuntimeSetting {
  name: string;
  setAt: string;
}

async function runtimeRows(code?: IntegrationCode) {
  let query = db().selectFrom("integration_settings").selectAll();
  if (code) query = query.where("code", "=", code);
  return query.execute();
}

function activeProvider(spec: ServiceSpec, environment: Environment): string {
  if (spec.code === "mail") return environment.SMTP_URL ? "smtp" : "outbox";
  const value = environment[spec.providerVariable];
  return value && spec.providers.includes(value) ? value : spec.providers[0];
}

export interface IntegrationView {
  code: IntegrationCode;
  provider: string;
  providers: readonly string[];
  providerVariable: string;
  settings: ShownSetting[];
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  lastTest: { at: string; ok: boolean; ms: number | null; message: string | null } | null;
}

function showSettings(spec: ServiceSpec, environment: Environment, runtime: Map<string, string>): ShownSetting[] {
  return spec.settings.map((s) => {
    const runtimeSetAt = runtime.get(s.name) ?? null;
    const fromEnv = environment[s.name] || undefined;
    const base = { name: s.name, secret: Boolean(s.secret), runtime: Boolean(s.runtime), runtimeSetAt };
    // A runtime value is never shown back, whatever it is.
    if (runtimeSetAt) return { ...base, value: null, set: true, source: "runtime" as const };
    if (fromEnv !== undefined) {
      const value = s.secret ? null : s.url ? maskUrl(fromEnv) : fromEnv;
      return { ...base, value, set: true, source: "environment" as const };
    }
    if (s.default !== undefined) return { ...base, value: s.default, set: true, source: "default" as const };
    return { ...base, value: null, set: false, source: "none" as const };
  });
}

export async function listIntegrations(environment: Environment = process.env): Promise<IntegrationView[]> {
  const [statuses, settings] = await Promise.all([db().selectFrom("integration_status").selectAll().execute(), runtimeRows()]);
  return SERVICES.map((spec) => {
    const status = statuses.find((s) => s.code === spec.code);
    const runtime = new Map(settings.filter((r) => r.code === spec.code).map((r) => [r.name, r.set_at]));
    return {
      code: spec.code,
      provider: activeProvider(spec, environment),
      providers: spec.providers,
      providerVariable: spec.providerVariable,
      settings: showSettings(spec, environment, runtime),
      lastSuccessAt: status?.last_success_at ?? null,
      lastErrorAt: status?.last_error_at ?? null,
      lastError: status?.last_error ?? null,
      lastTest: status?.last_test_at
        ? { at: status.last_test_at, ok: status.last_test_ok === 1, ms: status.last_test_ms, message: status.last_test_message }
        : null,
    };
  });
}

export async function integration(code: string, environment: Environment = process.env): Promise<IntegrationView | null> {
  if (!serviceSpec(code)) return null;
  return (await listIntegrations(environment)).find((i) => i.code === code) ?? null;
}

/** What a test may be given: registry an org number, LEI a term, credit a name, mail an address. */
export interface TestInput {
  query?: string;
  email?: string;
}

export interface TestResult {
  ok: boolean;
  ms: number;
  /** Short, without secrets. */
  message: string;
}

export const TEST_TIMEOUT_MS = 10_000;

class TimeoutError extends Error {}

function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new TimeoutError(`No answer within ${Math.round(ms / 1000)} s`));
    }, ms);
  });
  return Promise.race([work(controller.signal), timeout]).finally(() => clearTimeout(timer));
}

function secretsOf(spec: ServiceSpec, environment: Environment): string[] {
  const values: string[] = [];
  for (const s of spec.settings) {
    const value = environment[s.name];
    if (!value) continue;
    if (s.secret) values.push(value);
    if (s.url) {
      try {
        const url = new URL(value);
        if (url.password) values.push(decodeURIComponent(url.password), url.password);
      } catch {
        // not a URL: nothing to pull out
      }
    }
  }
  return values;
}

async function runTest(code: IntegrationCode, environment: Environment, input: TestInput, signal: AbortSignal): Promise<string> {
  switch (code) {
    case "registry": {
      const live = liveRegistryProvider(environment);
      if (live) {
        const orgNumber = input.query || "923609016";
        const found = await live.getOrganization(orgNumber);
        return found ? `${orgNumber}: ${found.legal_name}` : `${orgNumber}: not found`;
      }
      let query = db().selectFrom("companies").select(["org_number", "legal_name"]);
      query = input.query ? query.where("org_number", "=", input.query) : query.orderBy("id").limit(1);
      const row = await query.executeTakeFirst();
      if (!row && !input.query) throw new Error("The local registry store holds no company yet (run the importers or the seed)");
      return row ? `${row.org_number}: ${row.legal_name}` : `${input.query}: not found`;
    }
    case "lei": {
      const provider = await leiProvider(environment);
      const items = await provider.autocomplete(input.query || "equinor");
      return `${items.length} suggestion(s)`;
    }
    case "credit": {
      const provider = await creditProvider({ store: localCreditStore, texts: CREDIT_REPORT_TEXTS }, environment);
      const companies = await provider.searchCompanies({ country: "NO", name: input.query || "equinor" });
      return `${companies.length} compan${companies.length === 1 ? "y" : "ies"}`;
    }
    case "llm": {
      if ((environment.LLM_PROVIDER || "local") !== "openai") return "The local assistant needs no connection";
      const baseUrl = environment.LLM_BASE_URL;
      const model = environment.LLM_MODEL;
      if (!baseUrl || !model) throw new Error("LLM_BASE_URL and LLM_MODEL are needed");
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (environment.LLM_API_KEY) headers.Authorization = `Bearer ${environment.LLM_API_KEY}`;
      const response = await fetch(`${baseUrl.replace(/\/+$/, "")}/chat/completions`, {
        method: "POST",
        headers,
        signal,
        body: JSON.stringify({ model, max_tokens: 5, messages: [{ role: "user", content: "Answer with one word: OK" }] }),
      });
      if (!response.ok) throw new Error(`The model server answered HTTP ${response.status}`);
      const body = (await response.json().catch(() => null)) as { choices?: { message?: { content?: unknown } }[] } | null;
      const content = body?.choices?.[0]?.message?.content;
      if (typeof content !== "string") throw new Error("The model server's answer has no message");
      return `${model}: ${content.trim().slice(0, 40)}`;
    }
    case "mail": {
      if (input.email) {
        await sendMail({
          to: input.email,
          subject: "Test mail / Testmelding",
          text: "This is a test mail from the administration.\n\nDette er en testmelding fra administrasjonen.\n",
        });
        return `Test mail sent to ${input.email}`;
      }
      if (environment.SMTP_URL) {
        const nodemailer = (await import("nodemailer")).default;
        const transport = nodemailer.createTransport(environment.SMTP_URL);
        try {
          await transport.verify();
        } finally {
          transport.close();
        }
        return "The SMTP server accepted the connection (no mail sent)";
      }
      fs.accessSync(dataPath(), fs.constants.W_OK);
      return "The outbox folder is writable (no mail sent)";
    }
  }
}

/** One harmless call through the configured provider, with a timeout; the result is recorded and returned. */
export async function testIntegration(
  code: IntegrationCode,
  input: TestInput,
  actor: { userId: number; source: RequestSource | null },
  options: { environment?: Environment; timeoutMs?: number } = {},
): Promise<TestResult> {
  const spec = serviceSpec(code)!;
  const environment = await effectiveEnvironment(code, options.environment ?? process.env);
  const started = performance.now();
  let result: TestResult;
  try {
    const message = await withTimeout((signal) => runTest(code, environment, input, signal), options.timeoutMs ?? TEST_TIMEOUT_MS);
    result = { ok: true, ms: Math.round(performance.now() - started), message: redactMessage(message, secretsOf(spec, environment)) };
    await recordIntegrationSuccess(code);
  } catch (error) {
    const message = redactMessage(error instanceof Error ? error.message : String(error), secretsOf(spec, environment));
    result = { ok: false, ms: Math.round(performance.now() - started), message };
    await recordIntegrationError(code, message);
  }
  await db()
    .updateTable("integration_status")
    .set({ last_test_at: now(), last_test_ok: result.ok ? 1 : 0, last_test_ms: result.ms, last_test_message: result.message })
    .where("code", "=", code)
    .execute();
  await recordSecurityEvent({
    kind: "admin_action",
    userId: actor.userId,
    actorUserId: actor.userId,
    source: actor.source,
    detail: { action: "integration_test", integration: code, mailed: Boolean(input.email) },
  });
  return result;
}

/** Whether the settings key is there: without it nothing is stored. */
export function canStoreSettings(environment: Environment = process.env): boolean {
  return settingsKey(environment) !== null;
}

/**
 * A stored change of a setting. Refused (a `Refusal`, invalid) for a name that is no runtime setting of the service
 * (`unknown-setting`) and, when storing, without the settings key (`no-settings-key`).
 */
export type SettingChange = { ok: true };
export const SETTING_REFUSALS = ["unknown-setting", "no-settings-key"] as const;

function runtimeSpec(code: IntegrationCode, name: string): SettingSpec | null {
  return serviceSpec(code)?.settings.find((s) => s.name === name && s.runtime) ?? null;
}

/** Stores a runtime setting encrypted (replacing an earlier one) and records who did it, naming the setting only. */
export async function setRuntimeSetting(
  code: IntegrationCode,
  name: string,
  value: string,
  actor: { userId: number; source: RequestSource | null },
  environment: Environment = process.env,
): Promise<SettingChange> {
  if (!runtimeSpec(code, name)) throw refuse("invalid", "unknown-setting");
  const key = settingsKey(environment);
  if (!key) throw refuse("invalid", "no-settings-key");
  const ciphertext = encryptSetting(value, key, `${code}:${name}`);
  const at = now();
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto("integration_settings")
        .values({ code, name, ciphertext, set_at: at, set_by: actor.userId })
        .onConflict((oc) => oc.columns(["code", "name"]).doUpdateSet({ ciphertext, set_at: at, set_by: actor.userId }))
        .execute();
      await recordSecurityEvent(
        {
          kind: "admin_action",
          userId: actor.userId,
          actorUserId: actor.userId,
          source: actor.source,
          detail: { action: "integration_setting_set", integration: code, setting: name },
        },
        trx,
      );
    });
  return { ok: true };
}

export async function clearRuntimeSetting(
  code: IntegrationCode,
  name: string,
  actor: { userId: number; source: RequestSource | null },
): Promise<SettingChange> {
  if (!runtimeSpec(code, name)) throw refuse("invalid", "unknown-setting");
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom("integration_settings").where("code", "=", code).where("name", "=", name).execute();
      await recordSecurityEvent(
        {
          kind: "admin_action",
          userId: actor.userId,
          actorUserId: actor.userId,
          source: actor.source,
          detail: { action: "integration_setting_cleared", integration: code, setting: name },
        },
        trx,
      );
    });
  return { ok: true };
}
