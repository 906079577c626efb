import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { action as listAction, loader as listLoader } from "~/routes/_app.ai.documents";
import { loader as documentLoader } from "~/routes/_app.ai.documents_.$fileId";
import { action as chatAction, loader as chatLoader } from "~/routes/_app.ai.chat";
import { action as messagesAction, loader as messagesLoader } from "~/routes/api.conversations.$id.messages";
import { action as clientAction } from "~/routes/api.clients.$provider";
import { createConversation } from "~/models/assistant/conversations.server";
import { storeUpload } from "~/models/files/files.server";
import { BASE, call, get } from "../helpers/requests";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { makePdf } from "../fixtures/documents/make";

/**
 * /ai/documents, /ai/documents/:fileId and the attached document in the chat (page and API), against a real database:
 * only the user's own files, in their organisation, are listed, opened or attached; anyone else's is a 404.
 */

const LINES = {
  title: "Årsrapport for Nordlys Bærekraft AS",
  risk: "Leverandørrisiko: moderat, på grunn av én stor kunde.",
  audit: "The audit found missing sanctions screening for two suppliers.",
};

const w = {} as { orgA: number; orgB: number; tokenA: string; tokenA2: string; tokenB: string; userA: number; userA2: number; userB: number };

async function userOf(email: string): Promise<number> {
  return (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
}

beforeAll(async () => {
  w.orgA = await makeOrg("Docs Customer A AS", "customer");
  w.orgB = await makeOrg("Docs Customer B AS", "customer");
  w.tokenA = await signedIn("a@docs.test", w.orgA, 2);
  w.tokenA2 = await signedIn("a2@docs.test", w.orgA, 2);
  w.tokenB = await signedIn("b@docs.test", w.orgB, 2);
  w.userA = await userOf("a@docs.test");
  w.userA2 = await userOf("a2@docs.test");
  w.userB = await userOf("b@docs.test");
});

const cookie = (token?: string) => ({ Origin: BASE, ...(token ? { Cookie: `token=${token}` } : {}) });
const page = (fn: (a: LoaderFunctionArgs) => unknown, path: string, token?: string, params: Record<string, string> = {}) =>
  call(fn, { request: get(path, cookie(token)), params, context: {} });

function upload(token: string, file: File, intent = "upload"): Promise<Response> {
  const body = new FormData();
  body.append("intent", intent);
  body.append("file", file);
  return call(listAction as (a: LoaderFunctionArgs) => unknown, {
    request: new Request(`${BASE}/ai/documents`, { method: "POST", body, headers: cookie(token) }),
    params: {},
    context: {},
  });
}

async function uploadPdf(token: string, name = "rapport.pdf"): Promise<number> {
  const pdf = await makePdf([`${LINES.title}\n${LINES.risk}`, LINES.audit]);
  const res = await upload(token, new File([new Uint8Array(pdf)], name, { type: "application/pdf" }));
  expect(res.status).toBe(302);
  const id = Number(res.headers.get("Location")!.match(/^\/ai\/documents\/(\d+)$/)![1]);
  return id;
}

type Fn = (a: ActionFunctionArgs) => unknown;
function json(fn: Fn, path: string, params: Record<string, string>, token: string, body: unknown): Promise<Response> {
  return call(fn as (a: LoaderFunctionArgs) => unknown, {
    request: new Request(BASE + path, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
    params,
    context: {},
  });
}

describe("/ai/documents", () => {
  it("uploads a PDF, reads its text at once and opens its page with the text", async () => {
    const id = await uploadPdf(w.tokenA);
    const row = await db().selectFrom("document_texts").selectAll().where("file_upload_id", "=", id).executeTakeFirstOrThrow();
    expect([row.status, row.pages, row.organization_id, row.truncated]).toEqual(["ready", 2, w.orgA, 0]);
    const res = await page(documentLoader, `/ai/documents/${id}`, w.tokenA, { fileId: String(id) });
    expect(res.status).toBe(200);
    const data = (await res.json()) as { pageText: string; pageCount: number; document: { fileName: string; state: string } };
    expect(data.document).toMatchObject({ fileName: "rapport.pdf", state: "ready" });
    expect(data.pageCount).toBe(2);
    expect(data.pageText).toContain(LINES.title);
    expect(data.pageText).toContain(LINES.risk);
    const second = (await (await page(documentLoader, `/ai/documents/${id}?page=2`, w.tokenA, { fileId: String(id) })).json()) as { pageText: string };
    expect(second.pageText).toContain(LINES.audit);
  });

  it("lists only the user's own documents in the organisation, with the state of their text", async () => {
    const own = await uploadPdf(w.tokenA, "egen.pdf");
    const colleague = await uploadPdf(w.tokenA2, "kollega.pdf");
    const res = await page(listLoader, "/ai/documents", w.tokenA);
    const { documents } = (await res.json()) as { documents: { id: number; fileName: string; state: string; pages: number }[] };
    const ids = documents.map((d) => d.id);
    expect(ids).toContain(own);
    expect(ids).not.toContain(colleague);
    expect(documents.find((d) => d.id === own)).toMatchObject({ fileName: "egen.pdf", state: "ready", pages: 2 });
  });

  it("reads an older upload's text the first time it is opened", async () => {
    const file = await storeUpload({
      organizationId: w.orgA,
      userId: w.userA,
      fileName: "notat.txt",
      contentType: "text/plain",
      data: Buffer.from("Møte med Tromsø Sjømat AS.\n"),
    });
    const listed = (await (await page(listLoader, "/ai/documents", w.tokenA)).json()) as { documents: { id: number; state: string }[] };
    expect(listed.documents.find((d) => d.id === file.id)?.state).toBe("pending");
    const opened = (await (await page(documentLoader, `/ai/documents/${file.id}`, w.tokenA, { fileId: String(file.id) })).json()) as { pageText: string };
    expect(opened.pageText).toBe("Møte med Tromsø Sjømat AS.\n");
    expect((await db().selectFrom("document_texts").select("status").where("file_upload_id", "=", file.id).executeTakeFirst())?.status).toBe("ready");
  });

  it("shows why a file has no text", async () => {
    const file = await storeUpload({
      organizationId: w.orgA,
      userId: w.userA,
      fileName: "bilde.png",
      contentType: "image/png",
      data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
    });
    const res = await page(documentLoader, `/ai/documents/${file.id}`, w.tokenA, { fileId: String(file.id) });
    expect(await res.json()).toMatchObject({ pageText: "", document: { state: "failed", errorKey: "aiDocuments:error.no-text-kind" } });
  });

  it("answers 404 for a colleague's and another organisation's file, 400 for a malformed id", async () => {
    const colleague = await uploadPdf(w.tokenA2, "kollega2.pdf");
    const other = await uploadPdf(w.tokenB, "annen.pdf");
    for (const id of [colleague, other, 999999]) expect((await page(documentLoader, `/ai/documents/${id}`, w.tokenA, { fileId: String(id) })).status).toBe(404);
    expect((await page(documentLoader, "/ai/documents/abc", w.tokenA, { fileId: "abc" })).status).toBe(400);
  });

  it("is for level 2 members: a level 1 viewer gets 403, a visitor the start page", async () => {
    const viewer = await signedIn("viewer@docs.test", w.orgA, 1);
    expect((await page(listLoader, "/ai/documents", viewer)).status).toBe(403);
    const visitor = await page(listLoader, "/ai/documents");
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
  });

  it("refuses an upload without a file, and an unknown intent, keeping nothing", async () => {
    const before = (
      await db()
        .selectFrom("file_uploads")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;
    expect((await upload(w.tokenA, new File([], ""))).status).toBe(400);
    expect((await upload(w.tokenA, new File(["x"], "x.txt"), "shred")).status).toBe(400);
    const after = (
      await db()
        .selectFrom("file_uploads")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;
    expect(after).toBe(before);
  });
});

describe("a document attached to a message", () => {
  it("POST /api/conversations/{id}/messages stores fileUploadId and GET returns it as fileUpload", async () => {
    const file = await uploadPdf(w.tokenA, "vedlegg.pdf");
    const conversation = await createConversation({ userId: w.userA, organizationId: w.orgA });
    const path = `/api/conversations/${conversation.id}/messages`;
    const saved = await json(messagesAction, path, { id: String(conversation.id) }, w.tokenA, {
      text: "Hva står det om revisjonen?",
      is_assistant: false,
      fileUploadId: file,
    });
    expect(saved.status).toBe(201);
    expect(await saved.json()).toMatchObject({ fileUpload: { id: file, fileName: "vedlegg.pdf" } });
    const listed = await call(messagesLoader, {
      request: new Request(BASE + path, { headers: { Authorization: `Bearer ${w.tokenA}` } }),
      params: { id: String(conversation.id) },
      context: {},
    });
    expect(await listed.json()).toEqual([
      {
        id: expect.any(Number),
        text: "Hva står det om revisjonen?",
        is_assistant: false,
        fileUpload: expect.objectContaining({ id: file, fileName: "vedlegg.pdf" }),
      },
    ]);
  });

  it("refuses someone else's file (404) and a malformed id (400), saving nothing", async () => {
    const colleague = await uploadPdf(w.tokenA2, "kollega3.pdf");
    const other = await uploadPdf(w.tokenB, "annen2.pdf");
    const conversation = await createConversation({ userId: w.userA, organizationId: w.orgA });
    const path = `/api/conversations/${conversation.id}/messages`;
    for (const fileUploadId of [colleague, other]) {
      const res = await json(messagesAction, path, { id: String(conversation.id) }, w.tokenA, { text: "hei", fileUploadId });
      expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([404, "No document with this id."]);
    }
    expect((await json(messagesAction, path, { id: String(conversation.id) }, w.tokenA, { text: "hei", fileUploadId: "1x" })).status).toBe(400);
    expect(
      (await json(clientAction, "/api/clients/local", { provider: "local" }, w.tokenA, { messages: [{ role: "user", content: "hei" }], fileUploadId: other }))
        .status,
    ).toBe(404);
    expect(await db().selectFrom("conversation_messages").select("id").where("conversation_id", "=", conversation.id).execute()).toEqual([]);
  });

  it("POST /api/clients/local answers from the attached document, naming it", async () => {
    const file = await uploadPdf(w.tokenA, "revisjon.pdf");
    const res = await json(clientAction, "/api/clients/local", { provider: "local" }, w.tokenA, {
      messages: [{ role: "user", content: "What did the audit find about sanctions screening?" }],
      conversationId: null,
      fileUploadId: file,
    });
    expect(res.status).toBe(200);
    const answer = await res.text();
    expect(answer).toContain("From «revisjon.pdf», page 2:");
    expect(answer).toContain(LINES.audit);
  });

  it("the conversation's attached document answers the next questions too (the spec's body, unchanged)", async () => {
    const file = await uploadPdf(w.tokenA, "oppfolging.pdf");
    const conversation = await createConversation({ userId: w.userA, organizationId: w.orgA });
    await json(messagesAction, `/api/conversations/${conversation.id}/messages`, { id: String(conversation.id) }, w.tokenA, {
      text: "Her er rapporten",
      fileUploadId: file,
    });
    const res = await json(clientAction, "/api/clients/local", { provider: "local" }, w.tokenA, {
      messages: [{ role: "user", content: "Hva er leverandørrisikoen?" }],
      conversationId: conversation.id,
    });
    expect(await res.text()).toContain(LINES.risk);
  });

  it("/ai/chat without JavaScript: ?attach preselects the document, the form attaches it and the answer names it", async () => {
    const file = await uploadPdf(w.tokenA, "skjema.pdf");
    const opened = await page(chatLoader, `/ai/chat?attach=${file}`, w.tokenA);
    expect(await opened.json()).toMatchObject({ attach: file, documents: expect.arrayContaining([{ id: file, fileName: "skjema.pdf" }]) });
    const other = await uploadPdf(w.tokenB, "fremmed.pdf");
    expect((await page(chatLoader, `/ai/chat?attach=${other}`, w.tokenA)).status).toBe(404);

    const post = (fields: Record<string, string>) =>
      call(chatAction as (a: LoaderFunctionArgs) => unknown, {
        request: new Request(`${BASE}/ai/chat`, {
          method: "POST",
          headers: { ...cookie(w.tokenA), "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields).toString(),
        }),
        params: {},
        context: {},
      });
    expect((await post({ message: "Hva fant revisjonen?", fileUploadId: String(other) })).status).toBe(404);
    expect((await post({ message: "Hva fant revisjonen?", fileUploadId: "x" })).status).toBe(400);
    const res = await post({ message: "What did the audit find?", fileUploadId: String(file) });
    expect(res.status).toBe(302);
    const conversationId = Number(new URL(res.headers.get("Location")!, BASE).searchParams.get("c"));
    const messages = await db()
      .selectFrom("conversation_messages")
      .select(["text", "is_assistant", "file_upload_id"])
      .where("conversation_id", "=", conversationId)
      .orderBy("id")
      .execute();
    expect(messages[0]).toMatchObject({ text: "What did the audit find?", is_assistant: 0, file_upload_id: file });
    expect(messages[1]!.text).toContain("From «skjema.pdf», page 2:");
    expect(messages[1]!.text).toContain(LINES.audit);
  });
});
