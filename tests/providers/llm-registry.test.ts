import fs from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  defaultLlmProviderName,
  isLlmProviderConfigured,
  llmProvider,
  LlmProviderError,
  UnknownLlmProviderError,
  type AssistantTool,
  type LlmProvider,
} from "@server/providers/llm";
import { listenOnLoopback } from "../helpers/loopback";

/** The provider registry: which names exist, when `openai` is available, and that the environment reaches the provider. */

const KEY = "sk-registry-test-9Zq4Lm2Xc8Vb";
const NO_TOOLS: AssistantTool[] = [];
const VIEWER = { userId: 1, organizationId: 1, language: "en" as const };

async function error(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

/** A chat-completions server that answers with a fixture and records the headers and body of each request. */
async function modelServer(file: string, hold = false) {
  const requests: { headers: http.IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
  const server = http.createServer((req, res) => {
    const raw: Buffer[] = [];
    req.on("data", (part: Buffer) => raw.push(part));
    req.on("end", () => {
      requests.push({ headers: req.headers, body: JSON.parse(Buffer.concat(raw).toString("utf8")) as Record<string, unknown> });
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      const body = fs.readFileSync(fileURLToPath(new URL(`../fixtures/llm/${file}`, import.meta.url)));
      if (hold) res.write(body);
      else res.end(body);
    });
  });
  const { baseUrl } = await listenOnLoopback(server);
  return { baseUrl: `${baseUrl}/v1`, requests };
}

async function collect(provider: LlmProvider): Promise<string> {
  let text = "";
  for await (const chunk of provider.stream({ messages: [{ role: "user", content: "Hei" }], viewer: VIEWER, signal: new AbortController().signal }))
    text += chunk;
  return text;
}

describe("llmProvider", () => {
  it.each(["gpt", "OpenAI", "", "../local", "constructor"])("refuses the unknown name %j with an UnknownLlmProviderError", async (name) => {
    const failure = await error(llmProvider(name, {}, { tools: NO_TOOLS }));
    expect(failure).toBeInstanceOf(UnknownLlmProviderError);
    expect((failure as Error).message).toMatch(/no assistant provider named/);
  });

  it.each([
    ["nothing set", {}],
    ["only the base URL", { LLM_BASE_URL: "http://127.0.0.1:11434/v1" }],
    ["only the model", { LLM_MODEL: "llama3.1" }],
    ["empty values", { LLM_BASE_URL: "", LLM_MODEL: "", LLM_API_KEY: KEY }],
  ])("answers openai with %s as not configured", async (_label, environment) => {
    const failure = await error(llmProvider("openai", environment, { tools: NO_TOOLS }));
    expect(failure).toBeInstanceOf(LlmProviderError);
    expect((failure as LlmProviderError).kind).toBe("not_configured");
    expect((failure as Error).message).toMatch(/LLM_BASE_URL and LLM_MODEL/);
    expect((failure as Error).message).not.toContain(KEY);
    expect(isLlmProviderConfigured("openai", environment)).toBe(false);
  });

  it("reports an invalid setting by name, never by value", async () => {
    const failure = await error(llmProvider("openai", { LLM_BASE_URL: "ftp://models.example", LLM_MODEL: "m", LLM_API_KEY: KEY }, { tools: NO_TOOLS }));
    expect(failure).toBeInstanceOf(LlmProviderError);
    expect((failure as Error).message).toMatch(/LLM_BASE_URL/);
    expect((failure as Error).message).not.toContain(KEY);
    expect((failure as Error).message).not.toContain("models.example");
  });

  it("builds openai from the environment: base URL, model, key in the header, the tools handed in, the timeout in seconds", async () => {
    const server = await modelServer("answer.sse");
    const tool: AssistantTool = { name: "find_suppliers", description: "Finds suppliers.", parameters: { type: "object" }, run: async () => [] };
    const environment = { LLM_BASE_URL: server.baseUrl, LLM_MODEL: "qwen2.5:7b", LLM_API_KEY: KEY };
    expect(isLlmProviderConfigured("openai", environment)).toBe(true);
    const provider = await llmProvider("openai", environment, { tools: [tool] });
    expect(provider.name).toBe("openai");
    expect(await collect(provider)).toContain("Nordvik Bygg AS");
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0].body.model).toBe("qwen2.5:7b");
    expect(server.requests[0].body.tools).toEqual([
      { type: "function", function: { name: "find_suppliers", description: "Finds suppliers.", parameters: { type: "object" } } },
    ]);

    const stalled = await modelServer("stalled.sse", true);
    const slow = await llmProvider("openai", { ...environment, LLM_BASE_URL: stalled.baseUrl, LLM_TIMEOUT_SECONDS: "0.3" }, { tools: [tool] });
    const started = Date.now();
    const failure = await error(collect(slow));
    expect((failure as LlmProviderError).kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("refuses to build openai without the organisation's tools (a model without them could only guess)", async () => {
    await expect(llmProvider("openai", { LLM_BASE_URL: "http://127.0.0.1:1/v1", LLM_MODEL: "m" })).rejects.toThrow(/needs the assistant's tools/);
  });

  it("gives local whatever the environment, without any model settings", async () => {
    const local: LlmProvider = {
      name: "local",
      async *stream() {
        yield "local answer";
      },
      async *writeReport() {
        yield "# local report";
      },
      writeIntelligence: async () => null,
    };
    const provider = await llmProvider("local", {}, { createLocalAssistant: () => local });
    expect(provider).toBe(local);
  });
});

describe("the default provider (LLM_PROVIDER)", () => {
  it("is local unless set", () => {
    expect(defaultLlmProviderName({})).toBe("local");
    expect(defaultLlmProviderName({ LLM_PROVIDER: "" })).toBe("local");
    expect(defaultLlmProviderName({ LLM_PROVIDER: "openai" })).toBe("openai");
  });

  it("rejects an unknown value", () => {
    expect(() => defaultLlmProviderName({ LLM_PROVIDER: "claude" })).toThrow(/LLM_PROVIDER/);
  });
});
