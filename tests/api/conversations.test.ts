import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { action as listAction, loader as listLoader } from "~/routes/api.conversations";
import { action as messagesAction, loader as messagesLoader } from "~/routes/api.conversations.$id.messages";
import { action as clientAction } from "~/routes/api.clients.$provider";
import { HISTORY_MESSAGES_LIMIT, MESSAGE_LIMIT } from "~/models/assistant/conversations.server";
import { BASE, call } from "../helpers/requests";
import { makeOrg, signedIn } from "../helpers/fixtures";

const w = {} as {
  orgA: number;
  orgB: number;
  supplierOrg: number;
  tokenA: string;
  tokenA2: string;
  tokenB: string;
  tokenViewer: string;
  tokenRespondent: string;
  tokenNoOrg: string;
};

beforeAll(async () => {
  w.orgA = await makeOrg("Chat Customer A AS", "customer");
  w.orgB = await makeOrg("Chat Customer B AS", "customer");
  w.supplierOrg = await makeOrg("Chat Supplier AS", "supplier", "919000001");
  w.tokenA = await signedIn("a@chat.test", w.orgA, 2);
  w.tokenA2 = await signedIn("a2@chat.test", w.orgA, 3);
  w.tokenB = await signedIn("b@chat.test", w.orgB, 2);
  w.tokenViewer = await signedIn("viewer@chat.test", w.orgA, 1);
  w.tokenRespondent = await signedIn("respondent@chat.test", w.supplierOrg, 2);
  w.tokenNoOrg = await signedIn("nobody@chat.test", null, 2);
});

type Fn = (a: ActionFunctionArgs) => unknown;

function send(fn: Fn, method: string, path: string, params: Record<string, string>, token?: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const init: RequestInit = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  return call(fn as (a: LoaderFunctionArgs) => unknown, { request: new Request(BASE + path, init), params, context: {} });
}

const list = (token?: string) => send(listLoader, "GET", "/api/conversations", {}, token);
const create = (token?: string) => send(listAction, "POST", "/api/conversations", {}, token, {});
const messages = (id: number, token?: string) => send(messagesLoader, "GET", `/api/conversations/${id}/messages`, { id: String(id) }, token);
const post = (id: number, body: unknown, token?: string) => send(messagesAction, "POST", `/api/conversations/${id}/messages`, { id: String(id) }, token, body);
const ask = (body: unknown, token?: string, provider = "local") => send(clientAction, "POST", `/api/clients/${provider}`, { provider }, token, body);

async function newConversation(token: string): Promise<number> {
  const res = await create(token);
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

describe("who may use the conversations", () => {
  it("answers 401 to a visitor on every endpoint", async () => {
    const id = await newConversation(w.tokenA);
    for (const res of [await list(), await create(), await messages(id), await post(id, { text: "hi", is_assistant: false }), await ask({ messages: [] })]) {
      expect(res.status).toBe(401);
    }
  });

  it("answers 403 to a level 1 viewer, a supplier respondent and a user without organisation", async () => {
    const id = await newConversation(w.tokenA);
    for (const token of [w.tokenViewer, w.tokenRespondent, w.tokenNoOrg]) {
      for (const res of [
        await list(token),
        await create(token),
        await messages(id, token),
        await post(id, { text: "hi" }, token),
        await ask({ messages: [{ role: "user", content: "hi" }] }, token),
      ]) {
        expect(res.status).toBe(403);
      }
    }
  });
});

describe("a conversation belongs to one user", () => {
  it("is created empty, takes messages and lists them in order with fileUpload", async () => {
    const id = await newConversation(w.tokenA);
    expect((await post(id, { text: "  What is the risk?  ", is_assistant: false }, w.tokenA)).status).toBe(201);
    expect((await post(id, { text: "**Low**", is_assistant: true }, w.tokenA)).status).toBe(201);
    const res = await messages(id, w.tokenA);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { text: string; is_assistant: boolean; fileUpload: unknown }[];
    expect(body.map((m) => [m.text, m.is_assistant, m.fileUpload])).toEqual([
      ["  What is the risk?  ", false, null],
      ["**Low**", true, null],
    ]);
  });

  it("is a 404 for another user of the same organisation and for another organisation", async () => {
    const id = await newConversation(w.tokenA);
    await post(id, { text: "private", is_assistant: false }, w.tokenA);
    for (const token of [w.tokenA2, w.tokenB]) {
      expect((await messages(id, token)).status).toBe(404);
      expect((await post(id, { text: "intrusion", is_assistant: false }, token)).status).toBe(404);
      const asked = await ask({ messages: [{ role: "user", content: "hi" }], conversationId: id }, token);
      expect(asked.status).toBe(404);
      const listed = (await (await list(token)).json()) as { id: number }[];
      expect(listed.map((c) => c.id)).not.toContain(id);
    }
    const stored = await db().selectFrom("conversation_messages").select("text").where("conversation_id", "=", id).execute();
    expect(stored.map((m) => m.text)).toEqual(["private"]);
    expect((await messages(999999, w.tokenA)).status).toBe(404);
  });

  it("lists the user's own conversations, newest updatedAt first", async () => {
    const token = await signedIn("order@chat.test", w.orgA, 2);
    const first = await newConversation(token);
    const second = await newConversation(token);
    const third = await newConversation(token);
    // The first one is written to last: it moves to the top.
    await db().updateTable("conversations").set({ updated_at: "2020-01-01T00:00:00.000Z" }).where("id", "in", [second, third]).execute();
    await db().updateTable("conversations").set({ updated_at: "2020-01-02T00:00:00.000Z" }).where("id", "=", third).execute();
    await post(first, { text: "newest", is_assistant: false }, token);
    const body = (await (await list(token)).json()) as { id: number; title: string | null; createdAt: string; updatedAt: string }[];
    expect(body.map((c) => c.id)).toEqual([first, third, second]);
    expect(body[0]).toMatchObject({ title: "newest" });
    expect(Object.keys(body[0]!).sort()).toEqual(["createdAt", "id", "title", "updatedAt"]);
  });
});

describe("limits", () => {
  it("refuses a message over the limit, a blank user message and a bad body with 400", async () => {
    const id = await newConversation(w.tokenA);
    const long = await post(id, { text: "x".repeat(MESSAGE_LIMIT + 1), is_assistant: false }, w.tokenA);
    expect(long.status).toBe(400);
    expect(((await long.json()) as { message: string }).message).toContain("8,000");
    expect((await post(id, { text: "x".repeat(MESSAGE_LIMIT), is_assistant: false }, w.tokenA)).status).toBe(201);
    expect((await post(id, { text: "   ", is_assistant: false }, w.tokenA)).status).toBe(400);
    expect((await post(id, { text: 3 }, w.tokenA)).status).toBe(400);
    expect((await send(messagesLoader, "GET", "/api/conversations/abc/messages", { id: "abc" }, w.tokenA)).status).toBe(400);
  });

  it("refuses an oversized question or history with 400 and a clear message, before any provider runs", async () => {
    const cases: [unknown, string][] = [
      [{ messages: [{ role: "user", content: "x".repeat(MESSAGE_LIMIT + 1) }] }, "at most 8,000 characters"],
      [
        { messages: Array.from({ length: HISTORY_MESSAGES_LIMIT + 1 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: "hi" })) },
        "at most 40 messages",
      ],
      [{ messages: Array.from({ length: 6 }, () => ({ role: "user", content: "x".repeat(7000) })) }, "at most 40,000 characters"],
      [{ messages: [] }, "at least one message"],
      [{ messages: [{ role: "user", content: "   " }] }, "blank"],
      [{ messages: [{ role: "robot", content: "hi" }] }, "role"],
    ];
    for (const [body, message] of cases) {
      const res = await ask(body, w.tokenA);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(message);
    }
  });
});
