import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { action, loader } from "~/routes/_app.ai.chat-v2";
import { addMessage, createConversation, TITLE_LIMIT } from "~/models/assistant/conversations.server";
import { BASE, call, get } from "../helpers/requests";
import { makeOrg, signedIn } from "../helpers/fixtures";

/** /ai/chat-v2: rename and delete of the user's own conversations, as browsers post them (with and without JavaScript). */

const w = {} as {
  orgA: number;
  orgB: number;
  tokenA: string;
  tokenA2: string;
  tokenB: string;
  tokenViewer: string;
  userA: number;
  userA2: number;
  userB: number;
};

async function userOf(email: string): Promise<number> {
  return (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
}

const headers = (token?: string) => ({ Origin: BASE, "Content-Type": "application/x-www-form-urlencoded", ...(token ? { Cookie: `token=${token}` } : {}) });

function post(token: string | undefined, fields: Record<string, string>, path = "/ai/chat-v2"): Promise<Response> {
  const request = new Request(BASE + path, { method: "POST", headers: headers(token), body: new URLSearchParams(fields).toString() });
  return call(action, { request, params: {}, context: {} });
}

const page = (path: string, token?: string) => call(loader, { request: get(path, token ? { Cookie: `token=${token}` } : {}), params: {}, context: {} });

async function titleOf(id: number): Promise<string | null | undefined> {
  return (await db().selectFrom("conversations").select("title").where("id", "=", id).executeTakeFirst())?.title;
}

async function exists(id: number): Promise<boolean> {
  return Boolean(await db().selectFrom("conversations").select("id").where("id", "=", id).executeTakeFirst());
}

type Reply = { intent: string; result: { status?: string; error?: Record<string, string[] | null> } };

beforeAll(async () => {
  w.orgA = await makeOrg("Chat v2 Customer A AS", "customer");
  w.orgB = await makeOrg("Chat v2 Customer B AS", "customer");
  w.tokenA = await signedIn("a@chat-v2.test", w.orgA, 2);
  w.tokenA2 = await signedIn("a2@chat-v2.test", w.orgA, 3);
  w.tokenB = await signedIn("b@chat-v2.test", w.orgB, 2);
  w.tokenViewer = await signedIn("viewer@chat-v2.test", w.orgA, 1);
  w.userA = await userOf("a@chat-v2.test");
  w.userA2 = await userOf("a2@chat-v2.test");
  w.userB = await userOf("b@chat-v2.test");
});

const ownerA = () => ({ userId: w.userA, organizationId: w.orgA });

describe("the page", () => {
  it("lists the user's own conversations, newest updatedAt first, and opens one by ?c=", async () => {
    const older = await createConversation(ownerA(), "Older");
    const newer = await createConversation(ownerA(), "Newer");
    // A later updatedAt moves the older conversation to the top.
    await db().updateTable("conversations").set({ updated_at: "2999-01-01T00:00:00.000Z" }).where("id", "=", older.id).execute();
    const theirs = await createConversation({ userId: w.userA2, organizationId: w.orgA }, "Colleague's");
    const res = await page(`/ai/chat-v2?c=${newer.id}`, w.tokenA);
    expect(res.status).toBe(200);
    const data = (await res.json()) as { conversations: Array<{ id: number }>; current: number };
    const ids = data.conversations.map((c) => c.id);
    expect(ids.indexOf(older.id)).toBeLessThan(ids.indexOf(newer.id));
    expect(ids).not.toContain(theirs.id);
    expect(data.current).toBe(newer.id);
  });

  it("is 403 for a level 1 viewer and 404 for another user's conversation or delete step", async () => {
    const theirs = await createConversation({ userId: w.userB, organizationId: w.orgB }, "B's");
    expect((await page("/ai/chat-v2", w.tokenViewer)).status).toBe(403);
    expect((await page(`/ai/chat-v2?c=${theirs.id}`, w.tokenA)).status).toBe(404);
    expect((await page(`/ai/chat-v2?delete=${theirs.id}`, w.tokenA)).status).toBe(404);
  });
});

describe("rename", () => {
  it("renames with JavaScript (a Conform reply) and without (a redirect back with a notice)", async () => {
    const c = await createConversation(ownerA(), "Before");
    const res = await post(w.tokenA, { intent: "rename", id: String(c.id), title: "  Risk questions  " });
    expect(res.status).toBe(200);
    expect(await titleOf(c.id)).toBe("Risk questions");
    const plain = await post(w.tokenA, { intent: "rename", id: String(c.id), title: "Plain", redirectTo: `/ai/chat-v2?c=${c.id}` });
    expect([plain.status, plain.headers.get("Location")]).toEqual([302, `/ai/chat-v2?c=${c.id}`]);
    expect(await titleOf(c.id)).toBe("Plain");
  });

  it("refuses a blank or too long title with a 400 and its message, and changes nothing", async () => {
    const c = await createConversation(ownerA(), "Kept");
    for (const title of ["", "   ", "x".repeat(TITLE_LIMIT + 1)]) {
      const res = await post(w.tokenA, { intent: "rename", id: String(c.id), title });
      expect(res.status).toBe(400);
      const body = (await res.json()) as Reply;
      expect(body.result.error?.title?.[0]).toMatch(title.trim() ? /at most 120 characters/ : /Give the conversation a title/);
    }
    expect((await post(w.tokenA, { intent: "rename", id: String(c.id), title: "x".repeat(TITLE_LIMIT) })).status).toBe(200);
  });

  it("is 404 for another user's conversation (same organisation or another), 403 for a viewer, and nothing changes", async () => {
    const colleague = await createConversation({ userId: w.userA2, organizationId: w.orgA }, "Colleague");
    const other = await createConversation({ userId: w.userB, organizationId: w.orgB }, "Other org");
    for (const id of [colleague.id, other.id]) {
      const res = await post(w.tokenA, { intent: "rename", id: String(id), title: "Taken" });
      expect(res.status).toBe(404);
    }
    expect((await post(w.tokenViewer, { intent: "rename", id: String(colleague.id), title: "Taken" })).status).toBe(403);
    expect(await titleOf(colleague.id)).toBe("Colleague");
    expect(await titleOf(other.id)).toBe("Other org");
  });
});

describe("delete", () => {
  it("deletes the conversation and its messages and leaves the step (and ?c= of the deleted one)", async () => {
    const c = await createConversation(ownerA(), "Doomed");
    await addMessage(ownerA(), c.id, { text: "a question", isAssistant: false });
    const res = await post(w.tokenA, { intent: "delete", id: String(c.id), redirectTo: `/ai/chat-v2?c=${c.id}` }, `/ai/chat-v2?c=${c.id}&delete=${c.id}`);
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/ai/chat-v2"]);
    expect(await exists(c.id)).toBe(false);
    expect(await db().selectFrom("conversation_messages").select("id").where("conversation_id", "=", c.id).execute()).toEqual([]);
  });

  it("is 404 for another user's conversation, 403 for a viewer, 400 for a bad id, and nothing is deleted", async () => {
    const colleague = await createConversation({ userId: w.userA2, organizationId: w.orgA }, "Colleague");
    const other = await createConversation({ userId: w.userB, organizationId: w.orgB }, "Other org");
    expect((await post(w.tokenA, { intent: "delete", id: String(colleague.id), redirectTo: "/ai/chat-v2" })).status).toBe(404);
    expect((await post(w.tokenA, { intent: "delete", id: String(other.id), redirectTo: "/ai/chat-v2" })).status).toBe(404);
    expect((await post(w.tokenViewer, { intent: "delete", id: String(colleague.id) })).status).toBe(403);
    expect((await post(w.tokenA, { intent: "delete", id: "1e3" })).status).toBe(400);
    expect(await exists(colleague.id)).toBe(true);
    expect(await exists(other.id)).toBe(true);
  });

  it("a visitor is sent away and nothing changes", async () => {
    const c = await createConversation(ownerA(), "Safe");
    const res = await post(undefined, { intent: "delete", id: String(c.id) });
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(await exists(c.id)).toBe(true);
  });
});
