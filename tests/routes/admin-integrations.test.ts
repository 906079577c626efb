import http from "node:http";
import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { decryptSetting, encryptSetting, SettingsKeyError, settingsKey } from "@server/settings-crypto";
import { redactMessage } from "@server/integration-status";
import { loader as listLoader } from "~/routes/_app.admin.integrations";
import { action, loader } from "~/routes/_app.admin.integrations_.$code";
import { maskUrl } from "~/models/admin/integrations.server";
import { company, makeOrg, signedIn } from "../helpers/fixtures";
import { listenOnLoopback } from "../helpers/loopback";
import { startCreditsafeFake } from "../helpers/creditsafe-fake";
import { BASE, call, get } from "../helpers/requests";

/**
 * /admin/integrations and /admin/integrations/{code} (decision 043): the installation's administrator only;
 * settings shown with secrets masked; a secret from the environment or from the runtime settings never appears in a
 * loader's data, an action's answer, the status table or a console line; test connection through the local providers
 * and loopback stand-ins; runtime settings encrypted with AES-256-GCM, a tampered value refused.
 */

const KEY = randomBytes(32).toString("base64");
const ENV_SECRET = "env-secret-Zq8vX2LmP4";
const RUNTIME_SECRET = "runtime-secret-Hk3Wc9Tn7";
const SMTP_PASSWORD = "smtp-pass-Rr5Yb1Ue6";

const cookie = (token: string) => ({ Cookie: `token=${token}` });

function post(code: string, fields: Record<string, string>, token: string): Parameters<typeof action>[0] {
  const request = new Request(`${BASE}/admin/integrations/${code}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...cookie(token) },
  });
  return { request, params: { code }, context: { clientAddress: "10.1.2.3" } };
}
const send = (code: string, fields: Record<string, string>, token: string) => call(action, post(code, fields, token));
const detail = (code: string, token: string, headers: Record<string, string> = {}) =>
  call(loader, { request: get(`/admin/integrations/${code}`, { ...cookie(token), ...headers }), params: { code }, context: {} });
const list = (token: string) => call(listLoader, { request: get("/admin/integrations", cookie(token)), params: {}, context: {} });

let admin: string;
let adminId: number;
let levels: string[];
let consoleSpies: MockInstance[] = [];
const logged = () => consoleSpies.flatMap((s) => s.mock.calls.map((c) => c.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" ")));

beforeAll(async () => {
  const org = await makeOrg("Operator AS", "customer");
  admin = await signedIn("root@integrations.test", org, 3);
  adminId = (await db().selectFrom("users").select("id").where("email", "=", "root@integrations.test").executeTakeFirstOrThrow()).id;
  await db().updateTable("users").set({ is_admin: 1 }).where("id", "=", adminId).execute();
  levels = [
    await signedIn("l1@integrations.test", org, 1),
    await signedIn("l2@integrations.test", org, 2),
    await signedIn("l3@integrations.test", org, 3),
    await signedIn("respondent@integrations.test", await makeOrg("Leverandør AS", "supplier"), 3),
  ];
  await company("923609016", "EQUINOR ASA");
});

afterEach(() => {
  vi.unstubAllEnvs();
  for (const spy of consoleSpies) spy.mockRestore();
  consoleSpies = [];
});

function spyConsole() {
  consoleSpies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
}

describe("access", () => {
  it("refuses every non-admin level with 403 on both pages and the action, and sends a visitor to sign in", async () => {
    for (const token of levels) {
      expect((await list(token)).status).toBe(403);
      expect((await detail("registry", token)).status).toBe(403);
      expect((await send("registry", { intent: "test" }, token)).status).toBe(403);
      expect((await send("llm", { intent: "set", name: "LLM_MODEL", value: "x" }, token)).status).toBe(403);
    }
    const visitor = await call(listLoader, { request: get("/admin/integrations"), params: {}, context: {} });
    expect(visitor.status).toBe(302);
    const visitorDetail = await call(loader, { request: get("/admin/integrations/mail"), params: { code: "mail" }, context: {} });
    expect(visitorDetail.status).toBe(302);
    expect(await db().selectFrom("integration_status").selectAll().execute()).toEqual([]);
  });

  it("answers 404 for an unknown service and 400 for an unknown intent or refused input", async () => {
    expect((await detail("ftp", admin)).status).toBe(404);
    expect((await send("ftp", { intent: "test" }, admin)).status).toBe(404);
    expect((await send("registry", { intent: "drop" }, admin)).status).toBe(400);
    expect((await send("registry", { intent: "test", query: "12345" }, admin)).status).toBe(400);
    expect((await send("mail", { intent: "test", email: "not-an-address" }, admin)).status).toBe(400);
    expect((await send("lei", { intent: "test", email: "a@b.test" }, admin)).status).toBe(400);
    expect((await send("lei", { intent: "test", query: "x".repeat(101) }, admin)).status).toBe(400);
    expect((await send("registry", { intent: "set", name: "REGISTRY_PROVIDER", value: "brreg" }, admin)).status).toBe(400);
  });
});

describe("the list and the settings", () => {
  it("shows each service's provider and masks secrets from the environment", async () => {
    vi.stubEnv("LLM_PROVIDER", "openai");
    vi.stubEnv("LLM_BASE_URL", "https://models.example.test/v1");
    vi.stubEnv("LLM_MODEL", "small-model");
    vi.stubEnv("LLM_API_KEY", ENV_SECRET);
    vi.stubEnv("CREDITSAFE_PASSWORD", ENV_SECRET);
    vi.stubEnv("SMTP_URL", `smtps://mailer:${SMTP_PASSWORD}@smtp.example.test:465`);
    const res = await list(admin);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(ENV_SECRET);
    expect(text).not.toContain(SMTP_PASSWORD);
    const body = JSON.parse(text) as { integrations: { code: string; provider: string; settings: { name: string; value: string | null; set: boolean }[] }[] };
    expect(body.integrations.map((i) => i.code)).toEqual(["registry", "lei", "credit", "llm", "mail"]);
    const llm = body.integrations.find((i) => i.code === "llm")!;
    expect(llm.provider).toBe("openai");
    expect(llm.settings.find((s) => s.name === "LLM_MODEL")).toMatchObject({ value: "small-model", set: true });
    expect(llm.settings.find((s) => s.name === "LLM_API_KEY")).toMatchObject({ value: null, set: true });
    const mail = body.integrations.find((i) => i.code === "mail")!;
    expect(mail.provider).toBe("smtp");
    expect(mail.settings.find((s) => s.name === "SMTP_URL")?.value).toBe("smtps://mailer:***@smtp.example.test:465");
    const credit = body.integrations.find((i) => i.code === "credit")!;
    expect(credit.settings.find((s) => s.name === "CREDITSAFE_PASSWORD")).toMatchObject({ value: null, set: true });
    expect(credit.settings.find((s) => s.name === "CREDITSAFE_USERNAME")).toMatchObject({ value: null, set: false });
  });

  it("masks a URL's password and query values", () => {
    expect(maskUrl("https://user:pw@host.test/path?key=abc")).toBe("https://user:***@host.test/path?key=***");
    expect(maskUrl("not a url")).toBe("***");
  });

  it("redacts credentials from stored error messages", () => {
    expect(redactMessage(`connect to smtp://u:${SMTP_PASSWORD}@h failed`)).not.toContain(SMTP_PASSWORD);
    expect(redactMessage(`Authorization: Bearer ${ENV_SECRET}`)).not.toContain(ENV_SECRET);
    expect(redactMessage(`api_key=${ENV_SECRET}&x=1`)).not.toContain(ENV_SECRET);
    expect(redactMessage(`it echoed ${RUNTIME_SECRET}`, [RUNTIME_SECRET])).toBe("it echoed ***");
    expect(redactMessage("x".repeat(500)).length).toBe(200);
  });
});

describe("runtime settings", () => {
  it("stores nothing without the key and says so", async () => {
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", "");
    const page = (await (await detail("llm", admin)).json()) as { canStore: boolean };
    expect(page.canStore).toBe(false);
    const res = await send("llm", { intent: "set", name: "LLM_API_KEY", value: RUNTIME_SECRET }, admin);
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain(RUNTIME_SECRET);
    expect(await db().selectFrom("integration_settings").selectAll().execute()).toEqual([]);
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", Buffer.alloc(16).toString("base64"));
    expect(settingsKey()).toBeNull();
  });

  it("stores a value encrypted, shows only that it is set, records the setting's name only, and clears it", async () => {
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", KEY);
    spyConsole();
    const res = await send("llm", { intent: "set", name: "LLM_API_KEY", value: RUNTIME_SECRET }, admin);
    expect(res.status).toBe(302);
    const row = await db().selectFrom("integration_settings").selectAll().where("name", "=", "LLM_API_KEY").executeTakeFirstOrThrow();
    expect(row.ciphertext).not.toContain(RUNTIME_SECRET);
    expect(decryptSetting(row.ciphertext, Buffer.from(KEY, "base64"), "llm:LLM_API_KEY")).toBe(RUNTIME_SECRET);
    const page = await (await detail("llm", admin)).text();
    expect(page).not.toContain(RUNTIME_SECRET);
    expect(page).not.toContain(row.ciphertext);
    const shown = (JSON.parse(page) as { item: { settings: { name: string; value: string | null; source: string; runtimeSetAt: string | null }[] } }).item
      .settings;
    expect(shown.find((s) => s.name === "LLM_API_KEY")).toMatchObject({ value: null, source: "runtime" });
    expect(shown.find((s) => s.name === "LLM_API_KEY")?.runtimeSetAt).toBeTruthy();
    const events = await db().selectFrom("security_events").selectAll().where("kind", "=", "admin_action").execute();
    expect(events.map((e) => JSON.parse(e.detail ?? "{}"))).toContainEqual({ action: "integration_setting_set", integration: "llm", setting: "LLM_API_KEY" });
    expect(JSON.stringify(events)).not.toContain(RUNTIME_SECRET);
    expect(logged().join("\n")).not.toContain(RUNTIME_SECRET);

    expect((await send("llm", { intent: "clear", name: "LLM_API_KEY" }, admin)).status).toBe(302);
    expect(await db().selectFrom("integration_settings").selectAll().execute()).toEqual([]);
  });

  it("round-trips and refuses a tampered value, another key and another setting's value", () => {
    const key = Buffer.from(KEY, "base64");
    const stored = encryptSetting("hemmelig", key, "credit:CREDITSAFE_PASSWORD");
    expect(decryptSetting(stored, key, "credit:CREDITSAFE_PASSWORD")).toBe("hemmelig");
    expect(encryptSetting("hemmelig", key, "credit:CREDITSAFE_PASSWORD")).not.toBe(stored);
    const [v, nonce, tag, body] = stored.split(".");
    const flipped = Buffer.from(body, "base64url");
    flipped[0] ^= 1;
    expect(() => decryptSetting([v, nonce, tag, flipped.toString("base64url")].join("."), key, "credit:CREDITSAFE_PASSWORD")).toThrow(SettingsKeyError);
    expect(() => decryptSetting(stored, randomBytes(32), "credit:CREDITSAFE_PASSWORD")).toThrow(SettingsKeyError);
    expect(() => decryptSetting(stored, key, "llm:LLM_API_KEY")).toThrow(SettingsKeyError);
    expect(() => decryptSetting("garbage", key, "llm:LLM_API_KEY")).toThrow(SettingsKeyError);
  });
});

describe("test connection", () => {
  const status = (code: string) => db().selectFrom("integration_status").selectAll().where("code", "=", code).executeTakeFirstOrThrow();

  it("looks up one organisation number in the local registry and shows the result and its duration", async () => {
    const res = await send("registry", { intent: "test", query: "923609016" }, admin);
    expect(res.status).toBe(302);
    const row = await status("registry");
    expect(row).toMatchObject({ last_test_ok: 1, last_test_message: "923609016: EQUINOR ASA", last_error: null });
    expect(row.last_success_at).toBeTruthy();
    expect(row.last_test_ms).toBeGreaterThanOrEqual(0);
    const page = (await (await detail("registry", admin)).json()) as { item: { lastTest: { ok: boolean; message: string; ms: number } } };
    expect(page.item.lastTest).toMatchObject({ ok: true, message: "923609016: EQUINOR ASA" });
  });

  it("records an error from a loopback Brønnøysund without failing the page", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(503).end();
    });
    const { baseUrl } = await listenOnLoopback(server);
    vi.stubEnv("REGISTRY_PROVIDER", "brreg");
    vi.stubEnv("BRREG_BASE_URL", baseUrl);
    spyConsole();
    expect((await send("registry", { intent: "test" }, admin)).status).toBe(302);
    const row = await status("registry");
    expect(row.last_test_ok).toBe(0);
    expect(row.last_error).toMatch(/503/);
    expect(row.last_error_at).toBeTruthy();
  });

  it("searches the local credit provider and the local LEI store", async () => {
    expect((await send("credit", { intent: "test", query: "equinor" }, admin)).status).toBe(302);
    expect(await status("credit")).toMatchObject({ last_test_ok: 1 });
    expect((await send("lei", { intent: "test", query: "equinor" }, admin)).status).toBe(302);
    expect(await status("lei")).toMatchObject({ last_test_ok: 1 });
  });

  it("uses runtime Creditsafe credentials against the loopback Creditsafe, never showing or logging them", async () => {
    const fake = await startCreditsafeFake({ password: RUNTIME_SECRET });
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", KEY);
    vi.stubEnv("CREDIT_PROVIDER", "creditsafe");
    vi.stubEnv("CREDITSAFE_BASE_URL", fake.baseUrl);
    vi.stubEnv("CREDITSAFE_USERNAME", fake.username);
    vi.stubEnv("CREDITSAFE_PASSWORD", ENV_SECRET);
    spyConsole();
    // The environment's password is wrong: the test fails, and says so without the password.
    expect((await send("credit", { intent: "test" }, admin)).status).toBe(302);
    let row = await status("credit");
    expect(row.last_test_ok).toBe(0);
    // The runtime password overrides it.
    expect((await send("credit", { intent: "set", name: "CREDITSAFE_PASSWORD", value: RUNTIME_SECRET }, admin)).status).toBe(302);
    expect((await send("credit", { intent: "test", query: "Equinor" }, admin)).status).toBe(302);
    row = await status("credit");
    expect(row.last_test_ok).toBe(1);
    expect(fake.requestsTo("authenticate").length).toBeGreaterThan(0);
    const everything = [JSON.stringify(row), await (await detail("credit", admin)).text(), await (await list(admin)).text(), logged().join("\n")].join("\n");
    expect(everything).not.toContain(RUNTIME_SECRET);
    expect(everything).not.toContain(ENV_SECRET);
    await send("credit", { intent: "clear", name: "CREDITSAFE_PASSWORD" }, admin);
  });

  it("sends a one-word prompt to a loopback OpenAI-compatible server with the key only in the header", async () => {
    let seen: { auth?: string; body?: { model: string; max_tokens: number } } = {};
    const server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c: Buffer) => (raw += c.toString()));
      req.on("end", () => {
        seen = { auth: req.headers.authorization, body: JSON.parse(raw) as { model: string; max_tokens: number } };
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ choices: [{ message: { content: `OK ${ENV_SECRET}` } }] }));
      });
    });
    const { baseUrl } = await listenOnLoopback(server);
    vi.stubEnv("LLM_PROVIDER", "openai");
    vi.stubEnv("LLM_BASE_URL", baseUrl);
    vi.stubEnv("LLM_MODEL", "tiny");
    vi.stubEnv("LLM_API_KEY", ENV_SECRET);
    spyConsole();
    expect((await send("llm", { intent: "test" }, admin)).status).toBe(302);
    expect(seen.auth).toBe(`Bearer ${ENV_SECRET}`);
    expect(seen.body).toMatchObject({ model: "tiny", max_tokens: 5 });
    const row = await status("llm");
    expect(row.last_test_ok).toBe(1);
    // Even a server that echoes the key does not get it onto the page.
    expect(JSON.stringify(row)).not.toContain(ENV_SECRET);
    expect(await (await detail("llm", admin)).text()).not.toContain(ENV_SECRET);
    expect(logged().join("\n")).not.toContain(ENV_SECRET);
  });

  it("gives up on a model server that never answers", async () => {
    const server = http.createServer(() => {});
    const { baseUrl } = await listenOnLoopback(server);
    const { testIntegration } = await import("~/models/admin/integrations.server");
    const result = await testIntegration(
      "llm",
      {},
      { userId: adminId, source: null },
      { environment: { LLM_PROVIDER: "openai", LLM_BASE_URL: baseUrl, LLM_MODEL: "tiny" }, timeoutMs: 200 },
    );
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/No answer within/);
  });

  it("checks the outbox without sending, and sends one test mail only to an address the admin typed", async () => {
    const before = outbox().length;
    expect((await send("mail", { intent: "test" }, admin)).status).toBe(302);
    expect(outbox().length).toBe(before);
    expect(await status("mail")).toMatchObject({ last_test_ok: 1 });
    expect((await send("mail", { intent: "test", email: "ops@integrations.test" }, admin)).status).toBe(302);
    const mails = outbox();
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)).toContain("To: ops@integrations.test");
    const events = await db().selectFrom("security_events").select("detail").where("kind", "=", "admin_action").execute();
    expect(events.map((e) => JSON.parse(e.detail ?? "{}"))).toContainEqual({ action: "integration_test", integration: "mail", mailed: true });
  });
});

describe("the live providers' call sites", () => {
  it("record a live LEI service's error (without secrets) and nothing for the local store", async () => {
    const { callLeiProvider } = await import("~/models/registry/lei-api.server");
    await db().deleteFrom("integration_status").where("code", "=", "lei").execute();
    await callLeiProvider((p) => p.autocomplete("equinor"));
    expect(await db().selectFrom("integration_status").selectAll().where("code", "=", "lei").execute()).toEqual([]);

    const server = http.createServer((_req, res) => {
      res.writeHead(500).end();
    });
    const { baseUrl } = await listenOnLoopback(server);
    vi.stubEnv("LEI_PROVIDER", "gleif");
    vi.stubEnv("GLEIF_API_URL", baseUrl);
    spyConsole();
    const result = await callLeiProvider((p) => p.autocomplete("equinor"));
    expect(result.ok).toBe(false);
    const row = await db().selectFrom("integration_status").selectAll().where("code", "=", "lei").executeTakeFirstOrThrow();
    expect(row.last_error_at).toBeTruthy();
    expect(row.last_error).toBeTruthy();
    expect(row.last_success_at).toBeNull();
  });
});
