import fs from "node:fs";
import http from "node:http";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { createDb, databaseFile, db } from "@server/db";
import { creditProvider } from "@server/providers/credit";
import { effectiveEnvironment, runtimeSettings } from "@server/runtime-settings";
import { encryptSetting } from "@server/settings-crypto";
import { findProvider } from "~/models/assistant/conversations.server";
import { CREDIT_REPORT_TEXTS, localCreditStore, searchCreditCompanies } from "~/models/credit/credit-reports.server";
import { clearRuntimeSetting, setRuntimeSetting } from "~/models/admin/integrations.server";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { listenOnLoopback } from "../helpers/loopback";
import { startCreditsafeFake } from "../helpers/creditsafe-fake";

/**
 * Runtime settings really apply (decision 043): what the administrator stores on /admin/integrations/{code}
 * reaches the credit provider and the assistant's model from the next call on, without a restart; clearing falls back to
 * the environment; unchanged settings keep Creditsafe's token; no secret reaches the console.
 */

const KEY = randomBytes(32).toString("base64");
const ENV_PASSWORD = "env-pass-Jd7Qw2Xs9";
const RUNTIME_PASSWORD = "runtime-pass-Lp4Vn8Kt3";
const ENV_LLM_KEY = "sk-env-Bc5Mz1Ra6";
const RUNTIME_LLM_KEY = "sk-runtime-Gh2Yt7We4";
const SECRETS = [ENV_PASSWORD, RUNTIME_PASSWORD, ENV_LLM_KEY, RUNTIME_LLM_KEY];
const LOCAL = { store: localCreditStore, texts: CREDIT_REPORT_TEXTS };
const VIEWER = { userId: 1, organizationId: 1, language: "en" as const };

let actor: { userId: number; source: null };
let consoleSpies: MockInstance[] = [];
const logged = () =>
  consoleSpies.flatMap((s) => s.mock.calls.map((c) => c.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : JSON.stringify(a))).join(" ")));

function spyConsole() {
  consoleSpies = (["log", "info", "warn", "error", "debug"] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
}

function expectNoSecretLogged() {
  const text = logged().join("\n");
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

beforeAll(async () => {
  await signedIn("root@runtime-settings.test", await makeOrg("Drift AS", "customer"), 3);
  const user = await db().selectFrom("users").select("id").where("email", "=", "root@runtime-settings.test").executeTakeFirstOrThrow();
  actor = { userId: user.id, source: null };
});

afterEach(async () => {
  vi.unstubAllEnvs();
  for (const spy of consoleSpies) spy.mockRestore();
  consoleSpies = [];
  await db().deleteFrom("integration_settings").execute();
});

describe("the reader", () => {
  it("lays decrypting runtime values over the environment and ignores one stored under another key", async () => {
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", KEY);
    vi.stubEnv("LLM_MODEL", "env-model");
    vi.stubEnv("LLM_API_KEY", ENV_LLM_KEY);
    expect(await runtimeSettings("llm")).toEqual({});
    expect(await setRuntimeSetting("llm", "LLM_MODEL", "runtime-model", actor)).toEqual({ ok: true });
    // A value from before a key change does not decrypt: the environment's value is used.
    const stale = encryptSetting(RUNTIME_LLM_KEY, randomBytes(32), "llm:LLM_API_KEY");
    await db()
      .insertInto("integration_settings")
      .values({ code: "llm", name: "LLM_API_KEY", ciphertext: stale, set_at: new Date().toISOString(), set_by: actor.userId })
      .execute();
    const environment = await effectiveEnvironment("llm");
    expect(environment.LLM_MODEL).toBe("runtime-model");
    expect(environment.LLM_API_KEY).toBe(ENV_LLM_KEY);
    // Another service's settings are not touched; without the key nothing is laid over.
    expect((await effectiveEnvironment("credit")).LLM_MODEL).toBe("env-model");
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", "");
    expect((await effectiveEnvironment("llm")).LLM_MODEL).toBe("env-model");
  });

  it("sees a value another process stored (its own connection to the database file) on the next call", async () => {
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", KEY);
    vi.stubEnv("LLM_MODEL", "env-model");
    expect((await effectiveEnvironment("llm")).LLM_MODEL).toBe("env-model");
    const other = createDb(databaseFile());
    try {
      const ciphertext = encryptSetting("worker-model", Buffer.from(KEY, "base64"), "llm:LLM_MODEL");
      await other
        .insertInto("integration_settings")
        .values({ code: "llm", name: "LLM_MODEL", ciphertext, set_at: new Date().toISOString(), set_by: actor.userId })
        .execute();
      expect((await effectiveEnvironment("llm")).LLM_MODEL).toBe("worker-model");
      // Replaced within the same millisecond, with the same number of rows: still seen (a fresh nonce each time).
      const again = encryptSetting("worker-model-2", Buffer.from(KEY, "base64"), "llm:LLM_MODEL");
      await other.updateTable("integration_settings").set({ ciphertext: again }).where("code", "=", "llm").where("name", "=", "LLM_MODEL").execute();
      expect((await effectiveEnvironment("llm")).LLM_MODEL).toBe("worker-model-2");
    } finally {
      await other.destroy();
    }
  });
});

describe("the credit provider", () => {
  it("authenticates with runtime credentials from the next call, keeps the token while they stay, and falls back to the environment when cleared", async () => {
    const fake = await startCreditsafeFake({ username: "runtime-user", password: RUNTIME_PASSWORD });
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", KEY);
    vi.stubEnv("CREDIT_PROVIDER", "creditsafe");
    vi.stubEnv("CREDITSAFE_BASE_URL", fake.baseUrl);
    vi.stubEnv("CREDITSAFE_USERNAME", "env-user");
    vi.stubEnv("CREDITSAFE_PASSWORD", ENV_PASSWORD);
    spyConsole();
    const logins = () => fake.requestsTo("authenticate").map((r) => JSON.parse(r.body) as { username: string; password: string });

    // The environment's credentials are not Creditsafe's: the search fails softly (an empty list, logged).
    expect(await searchCreditCompanies({ country: "NO", name: "Fjordlys" })).toEqual([]);
    expect(logins()).toEqual([{ username: "env-user", password: ENV_PASSWORD }]);

    await setRuntimeSetting("credit", "CREDITSAFE_USERNAME", "runtime-user", actor);
    await setRuntimeSetting("credit", "CREDITSAFE_PASSWORD", RUNTIME_PASSWORD, actor);
    const found = await searchCreditCompanies({ country: "NO", name: "Fjordlys" });
    expect(found.map((c) => c.name)).toContain("FJORDLYS ENERGI AS");
    expect(logins().at(-1)).toEqual({ username: "runtime-user", password: RUNTIME_PASSWORD });

    // Unchanged settings: the same provider, the same token — two more calls, no new login.
    const loginsBefore = logins().length;
    const first = await creditProvider(LOCAL);
    await first.searchCompanies({ country: "NO", name: "Fjordlys" });
    expect(await creditProvider(LOCAL)).toBe(first);
    await (await creditProvider(LOCAL)).searchCompanies({ country: "NO", name: "Fjordlys" });
    expect(logins().length).toBe(loginsBefore);
    expect(fake.requestsTo("search").length).toBe(3);

    // Cleared: the environment's credentials again, from the next call on.
    await clearRuntimeSetting("credit", "CREDITSAFE_USERNAME", actor);
    await clearRuntimeSetting("credit", "CREDITSAFE_PASSWORD", actor);
    expect(await creditProvider(LOCAL)).not.toBe(first);
    expect(await searchCreditCompanies({ country: "NO", name: "Fjordlys" })).toEqual([]);
    expect(logins().at(-1)).toEqual({ username: "env-user", password: ENV_PASSWORD });

    expectNoSecretLogged();
  });

  it("gives a provider built from an explicit environment without the runtime settings and without caching it", async () => {
    const fake = await startCreditsafeFake({ password: RUNTIME_PASSWORD });
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", KEY);
    await setRuntimeSetting("credit", "CREDITSAFE_PASSWORD", "not-this-one", actor);
    const environment = {
      CREDIT_PROVIDER: "creditsafe",
      CREDITSAFE_BASE_URL: fake.baseUrl,
      CREDITSAFE_USERNAME: fake.username,
      CREDITSAFE_PASSWORD: RUNTIME_PASSWORD,
    };
    const provider = await creditProvider(LOCAL, environment);
    expect(await provider.reportLanguages("NO")).toEqual(["EN", "NO"]);
    expect(JSON.parse(fake.requestsTo("authenticate")[0].body)).toMatchObject({ password: RUNTIME_PASSWORD });
    expect(await creditProvider(LOCAL, environment)).not.toBe(provider);
  });
});

describe("the assistant's model", () => {
  async function modelServer() {
    const requests: { authorization?: string; model: unknown }[] = [];
    const server = http.createServer((req, res) => {
      const raw: Buffer[] = [];
      req.on("data", (part: Buffer) => raw.push(part));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(raw).toString("utf8")) as { model: unknown };
        requests.push({ authorization: req.headers.authorization, model: body.model });
        res.writeHead(200, { "Content-Type": "text/event-stream" });
        res.end(fs.readFileSync(fileURLToPath(new URL("../fixtures/llm/answer.sse", import.meta.url))));
      });
    });
    const { baseUrl } = await listenOnLoopback(server);
    return { baseUrl: `${baseUrl}/v1`, requests };
  }

  async function ask(): Promise<string> {
    const found = await findProvider("openai");
    if (!("provider" in found)) throw new Error(`no provider: ${found.status}`);
    let text = "";
    for await (const chunk of found.provider.stream({ messages: [{ role: "user", content: "Hei" }], viewer: VIEWER, signal: new AbortController().signal }))
      text += chunk;
    return text;
  }

  it("sends the runtime base URL, model and key from the next question on, and the environment's again once cleared", async () => {
    const server = await modelServer();
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", KEY);
    vi.stubEnv("LLM_PROVIDER", "openai");
    vi.stubEnv("LLM_BASE_URL", "");
    vi.stubEnv("LLM_MODEL", "env-model");
    vi.stubEnv("LLM_API_KEY", ENV_LLM_KEY);
    spyConsole();

    // Without a base URL the model is not configured: the route would answer 400.
    expect(await findProvider("openai")).toMatchObject({ status: 400 });

    await setRuntimeSetting("llm", "LLM_BASE_URL", server.baseUrl, actor);
    expect(await ask()).toContain("Nordvik Bygg AS");
    expect(server.requests.at(-1)).toEqual({ authorization: `Bearer ${ENV_LLM_KEY}`, model: "env-model" });

    await setRuntimeSetting("llm", "LLM_MODEL", "runtime-model", actor);
    await setRuntimeSetting("llm", "LLM_API_KEY", RUNTIME_LLM_KEY, actor);
    await ask();
    expect(server.requests.at(-1)).toEqual({ authorization: `Bearer ${RUNTIME_LLM_KEY}`, model: "runtime-model" });

    await clearRuntimeSetting("llm", "LLM_MODEL", actor);
    await clearRuntimeSetting("llm", "LLM_API_KEY", actor);
    await ask();
    expect(server.requests.at(-1)).toEqual({ authorization: `Bearer ${ENV_LLM_KEY}`, model: "env-model" });

    expectNoSecretLogged();
  });

  it("keeps a runtime key out of the error a model server echoes it into", async () => {
    const echo = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(401, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: `Bad key: ${req.headers.authorization}` } }));
      });
    });
    const { baseUrl } = await listenOnLoopback(echo);
    vi.stubEnv("SETTINGS_ENCRYPTION_KEY", KEY);
    vi.stubEnv("LLM_PROVIDER", "openai");
    vi.stubEnv("LLM_BASE_URL", `${baseUrl}/v1`);
    vi.stubEnv("LLM_MODEL", "env-model");
    vi.stubEnv("LLM_API_KEY", ENV_LLM_KEY);
    await setRuntimeSetting("llm", "LLM_API_KEY", RUNTIME_LLM_KEY, actor);
    const failure = await ask().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/401/);
    expect((failure as Error).message).toContain("[redacted]");
    expect((failure as Error).message).not.toContain(RUNTIME_LLM_KEY);
  });
});
