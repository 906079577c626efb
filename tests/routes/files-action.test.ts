import fs from "node:fs";
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";

// A small limit for this file, set before anything reads the environment.
vi.hoisted(() => {
  process.env.UPLOAD_MAX_BYTES = "1024";
});

import { db } from "@server/db";
import { dataPath } from "@server/env";
import { flashStorage } from "@server/cookies";
import { action, loader } from "~/routes/_app.files";
import { loader as panelLoader } from "~/routes/files.panel";
import { listFiles } from "~/models/files/files.server";
import { BASE, call, get } from "../helpers/requests";
import { makeOrg, signedIn } from "../helpers/fixtures";

/** Integration tests of every action of /files (upload, delete, anything else), as browsers and others post them. */

const w = {} as {
  orgA: number;
  orgB: number;
  tokenA: string;
  tokenA2: string;
  tokenB: string;
  tokenNo: string;
  tokenNoOrg: string;
  userA: number;
  userA2: number;
  userB: number;
};

async function userId(token: string): Promise<number> {
  const s = await db().selectFrom("sessions").select("user_id").where("id", "=", createHash("sha256").update(token).digest("hex")).executeTakeFirstOrThrow();
  return s.user_id;
}

// A same-origin post, as the browser sends it from the page.
const headers = (token?: string, extra: Record<string, string> = {}) => ({ Origin: BASE, ...(token ? { Cookie: `token=${token}` } : {}), ...extra });

function postBody(token: string | undefined, body: BodyInit | null, contentType?: string): Promise<Response> {
  const h = headers(token, contentType ? { "Content-Type": contentType } : {});
  return call(action, { request: new Request(`${BASE}/files`, { method: "POST", body, headers: h }), params: {}, context: {} });
}

/** A multipart post built by the platform's FormData, fields in the order given (as a browser sends them in DOM order). */
function multipart(token: string | undefined, fields: Array<[string, string | File]>): Promise<Response> {
  const body = new FormData();
  for (const [k, v] of fields) body.append(k, v);
  return call(action, { request: new Request(`${BASE}/files`, { method: "POST", body, headers: headers(token) }), params: {}, context: {} });
}

function urlencoded(token: string | undefined, fields: Record<string, string>): Promise<Response> {
  return postBody(token, new URLSearchParams(fields).toString(), "application/x-www-form-urlencoded");
}

const page = (path: string, token?: string) => call(loader, { request: get(path, headers(token)), params: {}, context: {} });

async function counts() {
  const rows = (await db().selectFrom("file_uploads").select("id").execute()).length;
  const dir = dataPath("uploads");
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
  return { rows, files };
}

async function notice(response: Response): Promise<string | undefined> {
  const cookie = response.headers.get("Set-Cookie");
  if (!cookie) return undefined;
  const session = await flashStorage.getSession(cookie.split(";")[0]);
  return session.get("notice");
}

type ActionJson = { intent: string | null; done?: string; result: { status?: string; error?: Record<string, string[] | null> } };

async function errorsOf(response: Response): Promise<Record<string, string[] | null>> {
  return ((await response.json()) as ActionJson).result.error ?? {};
}

const txt = (text: string, name = "note.txt") => new File([text], name, { type: "text/plain" });

async function ownFileOf(token: string, name: string): Promise<number> {
  const res = await multipart(token, [
    ["intent", "upload"],
    ["file", txt(`bytes of ${name}`, name)],
  ]);
  expect(res.status).toBe(201);
  const row = await db()
    .selectFrom("file_uploads")
    .select("id")
    .where("user_id", "=", await userId(token))
    .where("file_name", "=", name)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  w.orgA = await makeOrg("Files Customer A", "customer");
  w.orgB = await makeOrg("Files Customer B", "customer");
  w.tokenA = await signedIn("a@files-action.test", w.orgA, 1);
  w.tokenA2 = await signedIn("a2@files-action.test", w.orgA, 2);
  w.tokenB = await signedIn("b@files-action.test", w.orgB, 2);
  w.tokenNo = await signedIn("no@files-action.test", w.orgA, 1);
  await db().updateTable("users").set({ language: "no" }).where("email", "=", "no@files-action.test").execute();
  w.tokenNoOrg = await signedIn("nobody@files-action.test", null, 3);
  w.userA = await userId(w.tokenA);
  w.userA2 = await userId(w.tokenA2);
  w.userB = await userId(w.tokenB);
});

describe("upload", () => {
  it("a plain post (no JavaScript) stores the file and goes back where it came from with the 'uploaded' notice", async () => {
    const before = await counts();
    const res = await multipart(w.tokenA, [
      ["intent", "upload"],
      ["redirectTo", "/suppliers?panel=files"],
      ["file", txt("plain post", "plain.txt")],
    ]);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/suppliers?panel=files");
    expect(await notice(res)).toBe("files:uploaded");
    const after = await counts();
    expect(after).toEqual({ rows: before.rows + 1, files: before.files + 1 });
    const [file] = await listFiles({ organizationId: w.orgA, userId: w.userA });
    expect(file).toMatchObject({ fileName: "plain.txt", fileSize: 10, mimeType: "text/plain" });
  });

  it("a fetcher post gets 201 with Conform's reply and `done`", async () => {
    const res = await multipart(w.tokenA, [
      ["intent", "upload"],
      ["file", txt("fetcher", "fetcher.txt")],
    ]);
    expect(res.status).toBe(201);
    const body = (await res.json()) as ActionJson;
    expect(body.intent).toBe("upload");
    expect(body.done).toBe("upload");
    expect((await listFiles({ organizationId: w.orgA, userId: w.userA })).map((f) => f.fileName)).toContain("fetcher.txt");
  });

  it("without a file: 400 'Please select a file first.' on the file field, in the user's language", async () => {
    const before = await counts();
    const none = await multipart(w.tokenA, [["intent", "upload"]]);
    expect(none.status).toBe(400);
    expect((await errorsOf(none)).file).toEqual(["Please select a file first."]);
    // A browser's form with no file chosen sends an empty part with an empty name.
    const unchosen = await multipart(w.tokenNo, [
      ["intent", "upload"],
      ["file", new File([], "", { type: "application/octet-stream" })],
    ]);
    expect(unchosen.status).toBe(400);
    expect((await errorsOf(unchosen)).file).toEqual(["Velg en fil først."]);
    // The same form posted url-encoded (no file can be in it).
    const encoded = await urlencoded(w.tokenA, { intent: "upload" });
    expect(encoded.status).toBe(400);
    expect((await errorsOf(encoded)).file).toEqual(["Please select a file first."]);
    expect(await counts()).toEqual(before);
  });

  it("an empty file: 400 'The file is empty.'; above the limit: 413 with the limit; nothing kept", async () => {
    const before = await counts();
    const empty = await multipart(w.tokenA, [
      ["intent", "upload"],
      ["file", txt("", "empty.txt")],
    ]);
    expect(empty.status).toBe(400);
    expect((await errorsOf(empty)).file).toEqual(["The file is empty."]);
    const big = await multipart(w.tokenA, [
      ["intent", "upload"],
      ["redirectTo", "/files"],
      ["file", new File([new Uint8Array(1025)], "big.bin")],
    ]);
    expect(big.status).toBe(413);
    expect((await errorsOf(big)).file).toEqual(["The file is larger than 1 KB. Upload a file of at most 1 KB."]);
    const bigNo = await multipart(w.tokenNo, [
      ["intent", "upload"],
      ["file", new File([new Uint8Array(5000)], "big.bin")],
    ]);
    expect(bigNo.status).toBe(413);
    expect((await errorsOf(bigNo)).file).toEqual(["Filen er større enn 1 KB. Last opp en fil på høyst 1 KB."]);
    const after = await counts();
    expect(after).toEqual(before);
    expect(fs.readdirSync(dataPath("uploads")).some((k) => k.endsWith(".part"))).toBe(false);
  });

  it("a file sent with another intent, or before its intent, is not stored", async () => {
    const before = await counts();
    const asDelete = await multipart(w.tokenA, [
      ["intent", "delete"],
      ["id", "999999"],
      ["file", txt("smuggled", "smuggled.txt")],
    ]);
    expect(asDelete.status).toBe(404);
    const unknown = await multipart(w.tokenA, [
      ["intent", "share"],
      ["file", txt("smuggled", "smuggled.txt")],
    ]);
    expect(unknown.status).toBe(400);
    const fileFirst = await multipart(w.tokenA, [
      ["file", txt("smuggled", "smuggled.txt")],
      ["intent", "upload"],
    ]);
    expect(fileFirst.status).toBe(400);
    expect((await errorsOf(fileFirst)).file).toEqual(["The file could not be uploaded. Please try again."]);
    expect(await counts()).toEqual(before);
  });

  it("a NUL in a field is a 400 naming it, and the file already stored is removed", async () => {
    const before = await counts();
    const res = await multipart(w.tokenA, [
      ["intent", "upload"],
      ["file", txt("then a bad field", "nul.txt")],
      ["redirectTo", "/files\u0000"],
    ]);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "Bad Request", field: "redirectTo" });
    const encoded = await urlencoded(w.tokenA, { intent: "upl\u0000oad" });
    expect(encoded.status).toBe(400);
    expect(await encoded.json()).toMatchObject({ field: "intent" });
    expect(await counts()).toEqual(before);
  });

  it("a redirectTo with a tab, CR, LF, '//' or a full URL goes to /files instead", async () => {
    for (const redirectTo of [
      "/\t/evil.example/phish",
      "/files\r\nSet-Cookie: a=b",
      "/\n/evil.example",
      "//evil.example",
      "https://evil.example/",
      "/\\evil.example",
    ]) {
      const res = await multipart(w.tokenA, [
        ["intent", "upload"],
        ["redirectTo", redirectTo],
        ["file", txt("redirect", "redirect.txt")],
      ]);
      expect(res.status, JSON.stringify(redirectTo)).toBe(302);
      expect(res.headers.get("Location")).toBe("/files");
    }
  });
});

describe("delete", () => {
  it("a plain post deletes the user's own file and goes back without the confirmation step", async () => {
    const id = await ownFileOf(w.tokenA, "to-delete.txt");
    const res = await urlencoded(w.tokenA, { intent: "delete", id: String(id), redirectTo: `/files?delete=${id}` });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/files");
    expect(await notice(res)).toBe("files:deleted");
    expect(await db().selectFrom("file_uploads").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
  });

  it("a fetcher post gets `done: delete`", async () => {
    const id = await ownFileOf(w.tokenA, "fetcher-delete.txt");
    const res = await urlencoded(w.tokenA, { intent: "delete", id: String(id) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as ActionJson).done).toBe("delete");
    expect(await db().selectFrom("file_uploads").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
  });

  it("another member's or another organisation's file: 404 'not yours', and the file stays", async () => {
    const colleagues = await ownFileOf(w.tokenA2, "colleague.txt");
    const others = await ownFileOf(w.tokenB, "other.txt");
    for (const id of [colleagues, others]) {
      const res = await urlencoded(w.tokenA, { intent: "delete", id: String(id), redirectTo: "/files" });
      expect(res.status).toBe(404);
      expect((await errorsOf(res))[""]).toEqual(["This file does not exist or is not yours."]);
      expect(await db().selectFrom("file_uploads").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();
    }
  });

  it("an id that is not a plain positive number is a 400 and nothing is deleted", async () => {
    const id = await ownFileOf(w.tokenA, "kept.txt");
    for (const bad of ["", "abc", ` ${id}`, `0${id}`, "0x10", "1e3", "-1"]) {
      const res = await urlencoded(w.tokenA, { intent: "delete", id: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect(await db().selectFrom("file_uploads").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();
  });

  it("a redirectTo with a tab, CR, LF or '//' goes to /files instead", async () => {
    for (const redirectTo of ["/\t/evil.example", "/files\r\nLocation: //evil.example", "//evil.example/files"]) {
      const id = await ownFileOf(w.tokenA, "redirect-delete.txt");
      const res = await urlencoded(w.tokenA, { intent: "delete", id: String(id), redirectTo });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/files");
    }
  });
});

describe("anything else", () => {
  it("an unknown or missing intent is a 400 with the translated message", async () => {
    const unknown = await urlencoded(w.tokenA, { intent: "share", id: "1" });
    expect(unknown.status).toBe(400);
    expect((await errorsOf(unknown))[""]).toEqual(["This request could not be understood. Reload the page and try again."]);
    const missing = await urlencoded(w.tokenNo, { id: "1" });
    expect(missing.status).toBe(400);
    expect((await errorsOf(missing))[""]).toEqual(["Vi forstod ikke denne forespørselen. Last inn siden på nytt og prøv igjen."]);
  });

  it("a JSON, text or empty body is a 415, a broken body a 400, and nothing is saved or deleted", async () => {
    const id = await ownFileOf(w.tokenA, "survivor.txt");
    const before = await counts();
    const asJson = await postBody(w.tokenA, JSON.stringify({ intent: "delete", id }), "application/json");
    expect(asJson.status).toBe(415);
    const asText = await postBody(w.tokenA, `intent=delete&id=${id}`, "text/plain");
    expect(asText.status).toBe(415);
    const empty = await postBody(w.tokenA, null);
    expect(empty.status).toBe(415);
    const noBoundary = await postBody(w.tokenA, "intent=upload", "multipart/form-data");
    expect(noBoundary.status).toBe(400);
    const truncated = await postBody(
      w.tokenA,
      '--b\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhalf a fi',
      "multipart/form-data; boundary=b",
    );
    expect(truncated.status).toBe(400);
    for (const res of [asJson, asText, empty, noBoundary, truncated]) expect(await res.json()).toMatchObject({ message: expect.any(String) });
    expect(await counts()).toEqual(before);
    expect(await db().selectFrom("file_uploads").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();
  });

  it("needs a signed-in member of an organisation: a visitor goes to the start page, an account without one gets 403", async () => {
    const visitor = await urlencoded(undefined, { intent: "upload" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe("/");
    const noOrg = await multipart(w.tokenNoOrg, [
      ["intent", "upload"],
      ["file", txt("x")],
    ]);
    expect(noOrg.status).toBe(403);
  });
});

describe("the page and the panel", () => {
  it("the confirmation step shows only the user's own file", async () => {
    const own = await ownFileOf(w.tokenA, "confirm.txt");
    const colleagues = await ownFileOf(w.tokenA2, "colleague-confirm.txt");
    const mine = (await (await page(`/files?delete=${own}`, w.tokenA)).json()) as { confirm: { id: number } | null; files: Array<{ id: number }> };
    expect(mine.confirm).toMatchObject({ id: own, fileName: "confirm.txt", attachedConnections: 0 });
    const theirs = (await (await page(`/files?delete=${colleagues}`, w.tokenA)).json()) as { confirm: unknown; files: Array<{ id: number }> };
    expect(theirs.confirm).toBeNull();
    expect(theirs.files.map((f) => f.id)).not.toContain(colleagues);
    const odd = (await (await page(`/files?delete=%20${own}`, w.tokenA)).json()) as { confirm: unknown };
    expect(odd.confirm).toBeNull();
  });

  it("the panel's data: the user's files for a member, the login prompt for a visitor", async () => {
    const member = (await (await call(panelLoader, { request: get("/files/panel", headers(w.tokenA)), params: {}, context: {} })).json()) as {
      signedIn: boolean;
      files: Array<{ fileName: string }>;
      limit: string;
    };
    expect(member.signedIn).toBe(true);
    expect(member.limit).toBe("1 KB");
    expect(member.files.map((f) => f.fileName)).toContain("confirm.txt");
    expect(member.files.map((f) => f.fileName)).not.toContain("colleague-confirm.txt");
    const visitor = (await (await call(panelLoader, { request: get("/files/panel"), params: {}, context: {} })).json()) as { signedIn: boolean };
    expect(visitor.signedIn).toBe(false);
  });
});
