import http from "node:http";
import type { AddressInfo } from "node:net";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@server/app";
import { LlmProviderError, type LlmProvider, type StreamInput } from "@server/providers/llm/types";
import { action as clientAction } from "~/routes/api.clients.$provider";
import { collectAnswer, SERVER_FAILURE, streamAnswer } from "~/models/assistant/conversations.server";
import { fakeServerBuild } from "../helpers/fake-build";
import { BASE, call } from "../helpers/requests";
import { makeOrg, signedIn } from "../helpers/fixtures";

/**
 * The streamed answer of POST /api/clients/{llm_provider}: chunks reach the client while the provider is still working,
 * through the real express app (its compression must not hold them back), and closing the request stops the provider.
 * The providers themselves are helpers F's and G's; here a fake one, injected into `streamAnswer`, says what happened.
 */

const viewer = { userId: 1, organizationId: 1, language: "en" as const };

/** A provider that yields the chunks one by one, each only when the test releases it, and records how it ended. */
function gatedProvider(chunks: string[], failAt: number | null = null) {
  const state = { released: 0, produced: 0, stopped: false, finished: false, signal: null as AbortSignal | null };
  const waiters: (() => void)[] = [];
  const release = () => {
    state.released += 1;
    waiters.splice(0).forEach((w) => w());
  };
  const provider: LlmProvider = {
    name: "local",
    async *stream(input: StreamInput) {
      state.signal = input.signal;
      try {
        for (let i = 0; i < chunks.length; i += 1) {
          while (state.released <= i) {
            if (input.signal.aborted) return;
            await new Promise<void>((resolve) => {
              waiters.push(resolve);
              input.signal.addEventListener("abort", () => resolve(), { once: true });
            });
          }
          if (input.signal.aborted) return;
          if (failAt === i) throw new LlmProviderError("network", "upstream closed the connection");
          state.produced += 1;
          yield chunks[i]!;
        }
        state.finished = true;
      } finally {
        state.stopped = true;
      }
    },
    // Not used here: streamAnswer only streams answers.
    async *writeReport() {},
    writeIntelligence: async () => null,
  };
  return { provider, state, release };
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

describe("streamAnswer", () => {
  it("answers text/plain whose chunks can be read before the provider has finished", async () => {
    const { provider, state, release } = gatedProvider(["Hello", ", ", "world"]);
    release();
    const res = await streamAnswer({ provider, messages: [{ role: "user", content: "hi" }], viewer, signal: new AbortController().signal });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toContain("no-transform");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe("Hello");
    expect(state.finished).toBe(false);
    release();
    expect(decoder.decode((await reader.read()).value)).toBe(", ");
    release();
    expect(decoder.decode((await reader.read()).value)).toBe("world");
    expect((await reader.read()).done).toBe(true);
    expect(state.finished).toBe(true);
  });

  it("answers 502 'Error from server' when the provider fails before its first chunk", async () => {
    const { provider, release } = gatedProvider(["never"], 0);
    release();
    const res = await streamAnswer({ provider, messages: [{ role: "user", content: "hi" }], viewer, signal: new AbortController().signal });
    expect([res.status, await res.text()]).toEqual([502, SERVER_FAILURE]);
  });

  it("ends the body with an error when the provider fails midway", async () => {
    const { provider, release } = gatedProvider(["partial ", "never"], 1);
    release();
    release();
    const res = await streamAnswer({ provider, messages: [{ role: "user", content: "hi" }], viewer, signal: new AbortController().signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("partial ");
    await expect(reader.read()).rejects.toThrow("upstream closed the connection");
  });

  it("collects the whole answer for the page without JavaScript", async () => {
    const { provider, release } = gatedProvider(["a", "b", "c"]);
    release();
    release();
    release();
    expect(await collectAnswer({ provider, messages: [{ role: "user", content: "hi" }], viewer, signal: new AbortController().signal })).toBe("abc");
  });
});

describe("through the express app", () => {
  let current: ReturnType<typeof gatedProvider>;
  const build = fakeServerBuild(() => new Response("", { status: 404 }), {
    "routes/api.stream": {
      path: "api/stream",
      module: {
        action: ({ request }: { request: Request }) =>
          streamAnswer({ provider: current.provider, messages: [{ role: "user", content: "hi" }], viewer, signal: request.signal }),
      },
    },
  });
  const server = createApp(build, { trustProxy: false }).listen(0, "127.0.0.1");
  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/stream`;

  beforeAll(async () => {
    if (!server.listening) await new Promise((r) => server.once("listening", r));
  });
  afterAll(() => server.close());

  function open(): Promise<{ res: http.IncomingMessage; req: http.ClientRequest }> {
    return new Promise((resolve, reject) => {
      // A browser would accept compression: the chunks must arrive all the same.
      const req = http.request(url(), { method: "POST", headers: { "Content-Type": "application/json", "Accept-Encoding": "gzip, deflate, br" } });
      req.on("response", (res) => resolve({ res, req }));
      req.on("error", reject);
      req.end("{}");
    });
  }

  /** The body's pieces as they arrive, one `data` event each. */
  function pieces(res: http.IncomingMessage) {
    const got: string[] = [];
    let wake: (() => void) | null = null;
    res.on("data", (chunk: Buffer) => {
      got.push(chunk.toString("utf8"));
      wake?.();
    });
    return async (): Promise<string> => {
      for (let i = 0; got.length === 0 && i < 100; i += 1) await new Promise<void>((r) => ((wake = r), setTimeout(r, 50)));
      return got.shift() ?? "(nothing arrived)";
    };
  }

  it("sends each chunk as the provider yields it, chunked and uncompressed", async () => {
    current = gatedProvider(["First ", "second ", "third"]);
    current.release();
    const { res } = await open();
    const nextData = pieces(res);
    const ended = new Promise((r) => res.once("end", r));
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(await nextData()).toBe("First ");
    expect(current.state.produced).toBe(1);
    current.release();
    expect(await nextData()).toBe("second ");
    current.release();
    expect(await nextData()).toBe("third");
    await ended;
    expect(current.state.finished).toBe(true);
  });

  it("stops the provider when the client goes away", async () => {
    current = gatedProvider(["one ", "two ", "three"]);
    current.release();
    const { res, req } = await open();
    expect(await pieces(res)()).toBe("one ");
    req.destroy();
    for (let i = 0; i < 50 && !current.state.stopped; i += 1) await tick();
    expect(current.state.stopped).toBe(true);
    expect(current.state.signal?.aborted).toBe(true);
    // Released later, it produces nothing more.
    current.release();
    current.release();
    await tick();
    expect(current.state.produced).toBe(1);
    expect(current.state.finished).toBe(false);
  });
});

describe("POST /api/clients/{llm_provider}", () => {
  let token: string;
  beforeAll(async () => {
    token = await signedIn("llm@chat.test", await makeOrg("LLM Customer AS", "customer"), 2);
  });

  const ask = (provider: string, body: unknown) =>
    call(clientAction as (a: LoaderFunctionArgs) => unknown, {
      request: new Request(`${BASE}/api/clients/${provider}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
      params: { provider },
      context: {},
    });

  it("answers 404 with a clear message for an unknown provider", async () => {
    for (const name of ["gpt-9", "LOCAL", "..", ""]) {
      const res = await ask(name, { messages: [{ role: "user", content: "hi" }], conversationId: null });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toMatch(/assistant provider/);
    }
  });

  it("answers 405 to a GET", async () => {
    const { loader } = await import("~/routes/api.clients.$provider");
    expect(() => loader()).toThrow();
  });
});
