import fs from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { createOpenAiProvider, MAX_TOOL_ROUNDS, parseSse, type OpenAiProviderOptions } from "@server/providers/llm/openai";
import { LlmProviderError, type AssistantTool, type AssistantViewer, type ChatMessage } from "@server/providers/llm/types";
import type { SupplierReportData } from "~/models/assistant/ai-report";
import { listenOnLoopback } from "../helpers/loopback";

/**
 * The OpenAI-compatible provider against a loopback chat-completions server that replays SSE streams written in the documented
 * chunk format (tests/fixtures/llm/*.sse), byte for byte, in slices the test chooses, and records every request.
 */

function fixture(name: string): Buffer {
  return fs.readFileSync(fileURLToPath(new URL(`../fixtures/llm/${name}`, import.meta.url)));
}

interface Reply {
  /** A fixture file, or raw bytes. */
  file?: string;
  bytes?: Buffer;
  status?: number;
  contentType?: string;
  /** Written in slices of these byte lengths (the last one repeats); the whole body at once when absent. */
  slices?: number[];
  /** Milliseconds between two slices (the next turn of the event loop when absent). */
  pauseMs?: number;
  /** Keep the connection open after the body: a stalled stream. */
  hold?: boolean;
  /** Never send the headers. */
  hang?: boolean;
}

interface Recorded {
  headers: http.IncomingHttpHeaders;
  path: string;
  body: {
    model: string;
    stream: boolean;
    tool_choice?: string;
    tools?: { type: string; function: { name: string; description: string; parameters: unknown } }[];
    messages: Record<string, unknown>[];
  };
  /** Set when the client went away before the reply was complete. */
  abortedByClient: boolean;
  /** Resolves when the connection of this request closes, whoever closed it. */
  closed: Promise<void>;
}

/** Replies are used in order; the last one answers every further request. */
async function fakeModelServer(replies: Reply[]) {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const raw: Buffer[] = [];
    req.on("data", (part: Buffer) => raw.push(part));
    req.on("end", () => {
      let resolveClosed!: () => void;
      const record: Recorded = {
        headers: req.headers,
        path: req.url ?? "",
        body: JSON.parse(Buffer.concat(raw).toString("utf8")) as Recorded["body"],
        abortedByClient: false,
        closed: new Promise((resolve) => (resolveClosed = resolve)),
      };
      requests.push(record);
      res.on("close", () => {
        if (!res.writableFinished) record.abortedByClient = true;
        resolveClosed();
      });
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)];
      if (reply.hang) return;
      const body = reply.bytes ?? fixture(reply.file!);
      res.writeHead(reply.status ?? 200, { "Content-Type": reply.contentType ?? "text/event-stream; charset=utf-8", "Cache-Control": "no-cache" });
      const slices = reply.slices;
      if (!slices) {
        if (reply.hold) res.write(body);
        else res.end(body);
        return;
      }
      let offset = 0;
      let n = 0;
      const next = () => {
        if (res.destroyed) return;
        if (offset >= body.length) {
          if (!reply.hold) res.end();
          return;
        }
        const size = slices[Math.min(n++, slices.length - 1)];
        res.write(body.subarray(offset, offset + size));
        offset += size;
        // A turn of the event loop between writes, so each slice leaves as its own write.
        if (reply.pauseMs) setTimeout(next, reply.pauseMs);
        else setImmediate(next);
      };
      next();
    });
  });
  const { baseUrl } = await listenOnLoopback(server);
  return { baseUrl: `${baseUrl}/v1`, requests };
}

const VIEWER: AssistantViewer = { userId: 11, organizationId: 3, language: "en" };
const API_KEY = "sk-test-Q7hX2pL9vR4mT8sW1yZ5";
const QUESTION: ChatMessage[] = [{ role: "user", content: "Which of my suppliers have the highest risk?" }];

interface ToolCallLog {
  name: string;
  args: unknown;
  viewer: AssistantViewer;
}

function fakeTools(log: ToolCallLog[], overrides: Partial<Record<string, AssistantTool["run"]>> = {}): AssistantTool[] {
  const tool = (name: string, description: string, parameters: Record<string, unknown>, answer: unknown): AssistantTool => ({
    name,
    description,
    parameters,
    async run(args, viewer) {
      log.push({ name, args, viewer });
      const override = overrides[name];
      return override ? override(args, viewer) : answer;
    },
  });
  return [
    tool("find_suppliers", "Finds the organisation's suppliers by name.", { type: "object", properties: { query: { type: "string" } }, required: ["query"] }, [
      { name: "Aktieselskapet Vinmonopolet", orgnr: "817209882", link: "/supplier?externalId=817209882&localId=7" },
    ]),
    tool(
      "highest_risk_suppliers",
      "The organisation's followed suppliers with the highest risk score.",
      { type: "object", properties: { limit: { type: "integer", minimum: 1, maximum: 20 } } },
      [{ name: "Aktieselskapet Vinmonopolet", riskScore: 41 }],
    ),
  ];
}

function provider(baseUrl: string, overrides: Partial<OpenAiProviderOptions> = {}) {
  return createOpenAiProvider({ baseUrl, model: "gpt-4o-mini", apiKey: API_KEY, tools: [], timeoutMs: 2_000, ...overrides });
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function failure(promise: Promise<unknown>): Promise<LlmProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmProviderError);
  return error as LlmProviderError;
}

/** The text content of the fixture's chunks, decoded the way a reader of the documented format would. */
function contentOf(file: string): string {
  return fixture(file)
    .toString("utf8")
    .split(/\r?\n/)
    .filter((line) => line.startsWith("data: {"))
    .map((line) => (JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string | null } }[] }).choices?.[0]?.delta?.content ?? "")
    .join("");
}

describe("the OpenAI-compatible provider", () => {
  it("streams a normal answer chunk by chunk and sends the model, stream flag, messages and key as documented", async () => {
    const server = await fakeModelServer([{ file: "answer.sse" }]);
    const chunks = await collect(provider(server.baseUrl).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal }));

    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join("")).toBe(contentOf("answer.sse"));
    expect(chunks.join("")).toContain("1. **Nordvik Bygg AS** (risk 82)");

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body.model).toBe("gpt-4o-mini");
    expect(request.body.stream).toBe(true);
    expect(request.body.tools).toBeUndefined();
    // The system prompt first (who it is, the language, the rules), then the conversation as given.
    expect(request.body.messages[0].role).toBe("system");
    expect(request.body.messages[0].content).toMatch(/Supplier Risk/);
    expect(request.body.messages[0].content).toMatch(/Answer in English/);
    expect(request.body.messages[0].content).toMatch(/Never invent/);
    expect(request.body.messages.slice(1)).toEqual(QUESTION);
    // The key travels in the header only.
    expect(JSON.stringify(request.body)).not.toContain(API_KEY);
  });

  it("sends no Authorization header when no key is configured (Ollama, llama.cpp)", async () => {
    const server = await fakeModelServer([{ file: "answer.sse" }]);
    await collect(provider(server.baseUrl, { apiKey: undefined }).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal }));
    expect(server.requests[0].headers.authorization).toBeUndefined();
  });

  it("asks for an answer in Norwegian for a Norwegian user", async () => {
    const server = await fakeModelServer([{ file: "answer.sse" }]);
    await collect(provider(server.baseUrl).stream({ messages: QUESTION, viewer: { ...VIEWER, language: "no" }, signal: new AbortController().signal }));
    expect(server.requests[0].body.messages[0].content).toMatch(/Answer in Norwegian \(bokmål\)/);
  });

  it.each([
    ["one byte at a time", [1]],
    // 7 bytes then 3 at a time cut æ, ø, å, «, – and the emoji's four bytes in every possible place over the stream.
    ["odd slices", [7, 3]],
    ["slices of 2 and 5", [2, 5]],
  ])("survives chunks split inside UTF-8 characters and CRLF pairs (%s)", async (_label, slices) => {
    const bytes = fixture("multibyte.sse");
    // The fixture really holds multi-byte characters and CRLF line ends.
    expect(bytes.length).toBeGreaterThan(bytes.toString("utf8").length);
    expect(bytes.includes("\r\n")).toBe(true);

    const server = await fakeModelServer([{ file: "multibyte.sse", slices }]);
    const chunks = await collect(provider(server.baseUrl).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal }));
    const text = chunks.join("");
    expect(text).toBe("Blåbærsyltetøy AS – «Ærlig, ørlite og åpent» 🍓 ✓ 100 % på Ørsta.");
    expect(text).not.toContain("\uFFFD");
  });

  it("parses events cut at every byte (inside ø and 🍓 too): comments, multi-line data, a lone \\r at a chunk's end, a last event without a blank line", async () => {
    const text = ": ping\r\n\r\nevent: message\ndata: a\ndata: bø\r\n\r\nid: 4\ndata:c🍓\r\rdata: last";
    const bytes = Buffer.from(text, "utf8");
    for (let cut = 0; cut <= bytes.length; cut++) {
      async function* parts() {
        yield bytes.subarray(0, cut);
        yield bytes.subarray(cut);
      }
      const events = [];
      for await (const event of parseSse(parts())) events.push(event);
      expect(events, `cut at ${cut}`).toEqual([
        { event: "message", data: "a\nbø" },
        { event: "message", data: "c🍓" },
        { event: "message", data: "last" },
      ]);
    }
  });

  it("runs the tools the model calls (arguments streamed in pieces) and sends their results back, then streams the answer", async () => {
    const log: ToolCallLog[] = [];
    const server = await fakeModelServer([{ file: "tool-call.sse", slices: [50] }, { file: "tool-answer.sse" }]);
    const chunks = await collect(
      provider(server.baseUrl, { tools: fakeTools(log) }).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal }),
    );

    expect(chunks.join("")).toBe("[Aktieselskapet Vinmonopolet](/supplier?externalId=817209882&localId=7) has risk score 41.");
    // Both calls, with their arguments put back together, run with the route's viewer (never one the model could choose).
    expect(log).toEqual([
      { name: "find_suppliers", args: { query: "vinmonopolet" }, viewer: VIEWER },
      { name: "highest_risk_suppliers", args: { limit: 3 }, viewer: VIEWER },
    ]);

    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(first.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "find_suppliers",
          description: "Finds the organisation's suppliers by name.",
          parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
        },
      },
      expect.objectContaining({ type: "function", function: expect.objectContaining({ name: "highest_risk_suppliers" }) }),
    ]);
    expect(first.body.tool_choice).toBe("auto");
    expect(first.body.messages[0].content).toMatch(/call the tools/);
    // The second request: the conversation, the assistant's tool calls, then one tool message per call.
    expect(second.body.messages.slice(1, 2)).toEqual(QUESTION);
    expect(second.body.messages[2]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_Vn8kq1", type: "function", function: { name: "find_suppliers", arguments: '{"query":"vinmonopolet"}' } },
        { id: "call_Rk2m7z", type: "function", function: { name: "highest_risk_suppliers", arguments: '{"limit": 3}' } },
      ],
    });
    expect(second.body.messages[3]).toEqual({
      role: "tool",
      tool_call_id: "call_Vn8kq1",
      content: JSON.stringify([{ name: "Aktieselskapet Vinmonopolet", orgnr: "817209882", link: "/supplier?externalId=817209882&localId=7" }]),
    });
    expect(second.body.messages[4]).toEqual({
      role: "tool",
      tool_call_id: "call_Rk2m7z",
      content: JSON.stringify([{ name: "Aktieselskapet Vinmonopolet", riskScore: 41 }]),
    });
    expect(second.body.messages).toHaveLength(5);
  });

  it("answers a tool that throws, bad JSON arguments and an unknown tool with a tool result saying so, and carries on", async () => {
    const log: ToolCallLog[] = [];
    const tools = fakeTools(log, {
      find_suppliers: async () => {
        throw new Error("the search index is being rebuilt");
      },
    });
    const calls = Buffer.from(
      [
        `data: {"id":"c1","object":"chat.completion.chunk","created":1764000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"find_suppliers","arguments":"{\\"query\\":\\"x\\"}"}}]},"finish_reason":null}]}`,
        `data: {"id":"c1","object":"chat.completion.chunk","created":1764000000,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"highest_risk_suppliers","arguments":"{limit: 3"}}]},"finish_reason":null}]}`,
        `data: {"id":"c1","object":"chat.completion.chunk","created":1764000000,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"id":"call_c","type":"function","function":{"name":"drop_table","arguments":"{}"}}]},"finish_reason":null}]}`,
        `data: {"id":"c1","object":"chat.completion.chunk","created":1764000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
        "data: [DONE]",
        "",
      ].join("\n\n"),
    );
    const server = await fakeModelServer([{ bytes: calls }, { file: "tool-answer.sse" }]);
    const chunks = await collect(provider(server.baseUrl, { tools }).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal }));

    expect(chunks.join("")).toContain("Vinmonopolet");
    // Only the call with valid arguments to a known tool ran.
    expect(log.map((entry) => entry.name)).toEqual(["find_suppliers"]);
    const results = server.requests[1].body.messages.filter((m) => m.role === "tool");
    expect(results.map((m) => m.tool_call_id)).toEqual(["call_a", "call_b", "call_c"]);
    const errors = results.map((m) => (JSON.parse(m.content as string) as { error: string }).error);
    expect(errors[0]).toBe("find_suppliers failed: the search index is being rebuilt");
    expect(errors[1]).toMatch(/arguments of highest_risk_suppliers are not valid JSON/);
    expect(errors[2]).toMatch(/no tool named "drop_table"/);
  });

  it(`stops after ${MAX_TOOL_ROUNDS} rounds of tool calls: the next request tells the model to answer, and one that still calls tools is an error`, async () => {
    const log: ToolCallLog[] = [];
    const server = await fakeModelServer([{ file: "tool-call.sse" }]);
    const error = await failure(
      collect(provider(server.baseUrl, { tools: fakeTools(log) }).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal })),
    );
    expect(error.kind).toBe("invalid_response");
    expect(error.message).toMatch(/after 5 rounds/);
    expect(server.requests).toHaveLength(MAX_TOOL_ROUNDS + 1);
    expect(log).toHaveLength(MAX_TOOL_ROUNDS * 2);
    expect(server.requests.map((r) => r.body.tool_choice)).toEqual(["auto", "auto", "auto", "auto", "auto", "none"]);
  });

  it("after the last round, an answer in words is streamed as usual", async () => {
    const log: ToolCallLog[] = [];
    const replies: Reply[] = [...Array.from({ length: MAX_TOOL_ROUNDS }, () => ({ file: "tool-call.sse" })), { file: "tool-answer.sse" }];
    const server = await fakeModelServer(replies);
    const chunks = await collect(
      provider(server.baseUrl, { tools: fakeTools(log) }).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal }),
    );
    expect(chunks.join("")).toContain("has risk score 41.");
    expect(server.requests).toHaveLength(MAX_TOOL_ROUNDS + 1);
  });

  it.each([
    ["an `event: error` in the stream", "error-event.sse", /The server had an error while processing your request/],
    ['a data payload {"error": …}', "error-data.sse", /maximum context length is 8192 tokens/],
  ])("turns %s into an LlmProviderError", async (_label, file, message) => {
    const server = await fakeModelServer([{ file }]);
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const chunk of provider(server.baseUrl).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal }))
          seen.push(chunk);
      })(),
    );
    expect(error.kind).toBe("http");
    expect(error.message).toMatch(message);
    // What came before the error was streamed as it came.
    expect(seen.join("")).toBe(contentOf(file));
  });

  it("turns an HTTP error status into an LlmProviderError with the status and the server's message, never the key", async () => {
    const body = Buffer.from(
      JSON.stringify({
        error: {
          message: `Incorrect API key provided: ${API_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      }),
    );
    const server = await fakeModelServer([{ bytes: body, status: 401, contentType: "application/json" }]);
    const error = await failure(collect(provider(server.baseUrl).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal })));
    expect(error.kind).toBe("http");
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/answered 401: Incorrect API key provided: \[redacted\]/);
    for (const shown of [error.message, String(error), error.stack ?? "", inspect(error, { depth: 5 }), JSON.stringify(error)])
      expect(shown).not.toContain(API_KEY);
  });

  it("keeps the key out of tool error results too", async () => {
    const log: ToolCallLog[] = [];
    const tools = fakeTools(log, {
      find_suppliers: async () => {
        throw new Error(`upstream said: bad key ${API_KEY}`);
      },
    });
    const server = await fakeModelServer([{ file: "tool-call.sse" }, { file: "tool-answer.sse" }]);
    await collect(provider(server.baseUrl, { tools }).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal }));
    expect(JSON.stringify(server.requests[1].body)).not.toContain(API_KEY);
  });

  it("reports an unreachable server as a network error without the key", async () => {
    const server = await fakeModelServer([{ file: "answer.sse" }]);
    const closed = http.createServer();
    const { baseUrl, close } = await listenOnLoopback(closed);
    await close();
    const error = await failure(collect(provider(baseUrl).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal })));
    expect(error.kind).toBe("network");
    expect(inspect(error, { depth: 5 })).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(0);
  });

  it("ends a stream that stalls with a timeout, and closes the upstream request", async () => {
    const server = await fakeModelServer([{ file: "stalled.sse", hold: true }]);
    const seen: string[] = [];
    const started = Date.now();
    const error = await failure(
      (async () => {
        for await (const chunk of provider(server.baseUrl, { timeoutMs: 300 }).stream({
          messages: QUESTION,
          viewer: VIEWER,
          signal: new AbortController().signal,
        }))
          seen.push(chunk);
      })(),
    );
    expect(error.kind).toBe("timeout");
    expect(error.message).not.toContain(API_KEY);
    expect(seen.join("")).toBe("Looking into it");
    expect(Date.now() - started).toBeLessThan(1_500);
    await server.requests[0].closed;
    expect(server.requests[0].abortedByClient).toBe(true);
  });

  it("times out a server that never sends its headers", async () => {
    const server = await fakeModelServer([{ hang: true }]);
    const error = await failure(
      collect(provider(server.baseUrl, { timeoutMs: 300 }).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal })),
    );
    expect(error.kind).toBe("timeout");
    await server.requests[0].closed;
    expect(server.requests[0].abortedByClient).toBe(true);
  });

  it("keeps a slow but steady stream going: the timeout is between chunks, not for the whole answer", async () => {
    // 11 slices 60 ms apart: well over the 300 ms allowed in all, never near it between two chunks.
    const server = await fakeModelServer([{ file: "answer.sse", slices: [400], pauseMs: 60 }]);
    const started = Date.now();
    const chunks = await collect(
      provider(server.baseUrl, { timeoutMs: 300 }).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal }),
    );
    expect(chunks.join("")).toBe(contentOf("answer.sse"));
    expect(Date.now() - started).toBeGreaterThan(550);
  });

  it("stops generation when the client goes away: the upstream request is aborted too", async () => {
    const server = await fakeModelServer([{ file: "stalled.sse", hold: true }]);
    const controller = new AbortController();
    const seen: string[] = [];
    const outcome = (async () => {
      for await (const chunk of provider(server.baseUrl, { timeoutMs: 10_000 }).stream({ messages: QUESTION, viewer: VIEWER, signal: controller.signal })) {
        seen.push(chunk);
        if (seen.length === 2) controller.abort();
      }
    })().then(
      () => "ended",
      (error: unknown) => error,
    );
    const result = await outcome;
    expect(result).toBeInstanceOf(DOMException);
    expect((result as DOMException).name).toBe("AbortError");
    expect(seen).toEqual(["Looking", " into it"]);
    await server.requests[0].closed;
    expect(server.requests[0].abortedByClient).toBe(true);
  });

  it("closes the upstream request when the consumer stops reading early", async () => {
    const server = await fakeModelServer([{ file: "stalled.sse", hold: true }]);
    for await (const chunk of provider(server.baseUrl, { timeoutMs: 10_000 }).stream({
      messages: QUESTION,
      viewer: VIEWER,
      signal: new AbortController().signal,
    })) {
      expect(chunk).toBe("Looking");
      break;
    }
    await server.requests[0].closed;
    expect(server.requests[0].abortedByClient).toBe(true);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const server = await fakeModelServer([{ file: "answer.sse" }]);
    const controller = new AbortController();
    controller.abort();
    await expect(collect(provider(server.baseUrl).stream({ messages: QUESTION, viewer: VIEWER, signal: controller.signal }))).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(server.requests).toHaveLength(0);
  });

  it("reads a server that ignores stream: true and answers one JSON completion", async () => {
    const completion = {
      id: "chatcmpl-x",
      object: "chat.completion",
      created: 1764000000,
      model: "llama3.1",
      choices: [{ index: 0, message: { role: "assistant", content: "Ingen funn." }, finish_reason: "stop" }],
    };
    const server = await fakeModelServer([{ bytes: Buffer.from(JSON.stringify(completion)), contentType: "application/json" }]);
    expect(await collect(provider(server.baseUrl).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal }))).toEqual([
      "Ingen funn.",
    ]);
  });

  it("rejects a stream that is not chat-completion chunks", async () => {
    const server = await fakeModelServer([{ bytes: Buffer.from("<html>502 Bad Gateway</html>"), contentType: "text/html" }]);
    const error = await failure(collect(provider(server.baseUrl).stream({ messages: QUESTION, viewer: VIEWER, signal: new AbortController().signal })));
    expect(error.kind).toBe("invalid_response");
  });
});

describe("the OpenAI-compatible provider writing a supplier report", () => {
  const DATA = {
    generatedAt: "2026-11-20T12:00:00.000Z",
    organizationName: "Nordvik Demo Industrier AS",
    registry: { name: "Aktieselskapet Vinmonopolet", orgNumber: "817209882", countryCode: "NO", countryName: "Norge" },
    risk: { credit: 23, geography: 1, reputation: 65, operational: 23, legal: 8, highest: 65 },
  } as unknown as SupplierReportData;
  const NORWEGIAN: AssistantViewer = { ...VIEWER, language: "no" };

  it("sends the data as JSON after a report prompt in the viewer's language, offers no tools, and streams the markdown", async () => {
    const server = await fakeModelServer([{ file: "report.sse", slices: [7] }]);
    const tools = fakeTools([]);
    const chunks = await collect(provider(server.baseUrl, { tools }).writeReport({ data: DATA, viewer: NORWEGIAN, signal: new AbortController().signal }));
    expect(chunks.join("")).toBe(contentOf("report.sse"));
    expect(chunks.join("")).toContain("| Driftsinntekter | 11 101 466 | 10 605 644 |");
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.body.stream).toBe(true);
    expect(request.body.tools).toBeUndefined();
    expect(request.body.tool_choice).toBeUndefined();
    expect(request.body.messages).toHaveLength(2);
    expect(request.body.messages[0]).toMatchObject({ role: "system" });
    expect(request.body.messages[0].content).toMatch(/Write the whole report in Norwegian \(bokmål\), as markdown/);
    expect(request.body.messages[0].content).toMatch(/Use only facts from the JSON/);
    expect(request.body.messages[1]).toEqual({ role: "user", content: JSON.stringify(DATA) });
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("fails like the chat does: an error event, a stall, an abort", async () => {
    const errorServer = await fakeModelServer([{ file: "error-event.sse" }]);
    const error = await failure(collect(provider(errorServer.baseUrl).writeReport({ data: DATA, viewer: VIEWER, signal: new AbortController().signal })));
    expect(error.kind).toBe("http");

    const stalled = await fakeModelServer([{ file: "stalled.sse", hold: true }]);
    const timeout = await failure(
      collect(provider(stalled.baseUrl, { timeoutMs: 200 }).writeReport({ data: DATA, viewer: VIEWER, signal: new AbortController().signal })),
    );
    expect(timeout.kind).toBe("timeout");
    await stalled.requests[0].closed;

    const slow = await fakeModelServer([{ file: "report.sse", slices: [40], pauseMs: 30 }]);
    const controller = new AbortController();
    const received: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of provider(slow.baseUrl).writeReport({ data: DATA, viewer: VIEWER, signal: controller.signal })) {
          received.push(chunk);
          controller.abort();
        }
      })(),
    ).rejects.toThrow();
    await slow.requests[0].closed;
    expect(slow.requests[0].abortedByClient).toBe(true);
  });
});

describe("writeIntelligence", () => {
  const FACTS = {
    orgNumber: "982309255",
    legalName: "AKTIESELSKAPET VINMONOPOLET",
    orgFormDescription: "Aksjeselskap",
    industryCode: "47.251",
    industryDescription: "Butikkhandel med vin og brennevin",
    purpose: "Detaljsalg av brennevin, vin og sterkøl.",
    employees: 2100,
    establishmentDate: "1939-01-01",
    municipality: "OSLO",
    streetAddress: "Møllergata 1",
    postalCode: "0179",
    postalArea: "OSLO",
    website: "www.vinmonopolet.no",
  };

  it("asks for the JSON object from the facts alone, keeps the model's words and nothing the registry cannot back", async () => {
    const server = await fakeModelServer([{ file: "intelligence.sse", slices: [11] }]);
    const written = await provider(server.baseUrl).writeIntelligence({ facts: FACTS, language: "no", signal: new AbortController().signal });
    const [request] = server.requests;
    expect(request.body.tools).toBeUndefined();
    expect(request.body.messages[0].content).toMatch(/Answer with one JSON object and nothing else, written in Norwegian \(bokmål\)/);
    expect(request.body.messages[0].content).toMatch(/Never invent certifications/);
    expect(request.body.messages[1]).toEqual({ role: "user", content: JSON.stringify(FACTS) });

    expect(written?.writtenBy).toEqual({ kind: "model", model: "gpt-4o-mini" });
    expect(written?.label).toBe("Skrevet av språkmodellen gpt-4o-mini fra registerdata");
    expect(written?.overview.description).toMatch(/^Aktieselskapet Vinmonopolet er et statlig aksjeselskap/);
    expect(written?.tags).toEqual(["Vinmonopol", "Detaljhandel", "Alkohol"]);
    expect(written?.products).toEqual([{ name: "Vin og brennevin", description: "Detaljsalg av vin, brennevin og sterkøl i egne butikker." }]);
    // What the model made up about certifications and contacts is dropped; the registry's own facts stand.
    expect(written?.certifications_and_compliance).toEqual([]);
    expect(written?.key_information).toEqual({ email: "", phone: "", address: "Møllergata 1, 0179 OSLO", organization_number: "982309255" });
    expect(written?.source.url).toBe("https://virksomhet.brreg.no/nb/oppslag/enheter/982309255");
  });

  it("refuses an answer that is not the JSON object, and times out on a stall", async () => {
    const prose = await fakeModelServer([{ file: "intelligence-prose.sse" }]);
    expect((await failure(provider(prose.baseUrl).writeIntelligence({ facts: FACTS, language: "en", signal: new AbortController().signal }))).kind).toBe(
      "invalid_response",
    );
    const stalled = await fakeModelServer([{ file: "stalled.sse", hold: true }]);
    const timeout = await failure(
      provider(stalled.baseUrl, { timeoutMs: 200 }).writeIntelligence({ facts: FACTS, language: "en", signal: new AbortController().signal }),
    );
    expect(timeout.kind).toBe("timeout");
    await stalled.requests[0].closed;
  });
});
