import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";

// A small limit for this file, set before anything reads the environment.
vi.hoisted(() => {
  process.env.UPLOAD_MAX_BYTES = "4096";
});

import { db } from "@server/db";
import { dataPath } from "@server/env";
import { loader as listLoader, action as uploadAction } from "~/routes/api.file-uploads";
import { action as deleteAction } from "~/routes/api.file-uploads.$id";
import { loader as downloadLoader } from "~/routes/api.file-uploads.$id.download";
import { action as attachAction } from "~/routes/api.organization-connections.file-uploads";
import { attachedConnectionsCount, deleteFile, listFiles } from "~/models/files/files.server";
import { BASE, call } from "../helpers/requests";
import { follow, makeOrg, request, signedIn } from "../helpers/fixtures";

function upload(token: string | null, fields: Array<[string, string | File]>): Promise<Response> {
  const body = new FormData();
  for (const [k, v] of fields) body.append(k, v);
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  return call(uploadAction, { request: new Request(`${BASE}/api/file-uploads`, { method: "POST", body, headers }), params: {}, context: {} });
}

function remove(token: string, id: number | string): Promise<Response> {
  return call(deleteAction, {
    request: new Request(`${BASE}/api/file-uploads/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } }),
    params: { id: String(id) },
    context: {},
  });
}

async function userId(token: string): Promise<number> {
  const { createHash } = await import("node:crypto");
  const s = await db().selectFrom("sessions").select("user_id").where("id", "=", createHash("sha256").update(token).digest("hex")).executeTakeFirstOrThrow();
  return s.user_id;
}

function storedKeys(): string[] {
  const dir = dataPath("uploads");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

const w = {} as { orgA: number; orgB: number; supplier1: number; supplier2: number; tokenA: string; tokenA2: string; tokenB: string; userA: number };

beforeAll(async () => {
  w.orgA = await makeOrg("Customer A", "customer");
  w.orgB = await makeOrg("Customer B", "customer");
  w.supplier1 = await makeOrg("Supplier One", "supplier", "911111111");
  w.supplier2 = await makeOrg("Supplier Two", "supplier", "922222222");
  w.tokenA = await signedIn("a@files.test", w.orgA);
  w.tokenA2 = await signedIn("a2@files.test", w.orgA);
  w.tokenB = await signedIn("b@files.test", w.orgB);
  w.userA = await userId(w.tokenA);
});

describe("POST /api/file-uploads", () => {
  it("stores the bytes under a generated name and answers 201 with the file", async () => {
    const res = await upload(w.tokenA, [["file", new File(["hello, world"], "report.txt", { type: "text/plain" })]]);
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { id: number; fileName: string; fileSize: number; mimeType: string } };
    expect(data).toEqual({ id: expect.any(Number), fileName: "report.txt", fileSize: 12, mimeType: "text/plain" });
    const row = await db().selectFrom("file_uploads").selectAll().where("id", "=", data.id).executeTakeFirstOrThrow();
    expect(row.storage_key).toMatch(/^[a-f0-9]{32}$/);
    expect(row.organization_id).toBe(w.orgA);
    expect(fs.readFileSync(path.join(dataPath("uploads"), row.storage_key), "utf8")).toBe("hello, world");
  });

  it("answers 400 'Please select a file first.' without a file, and for a form with no file chosen", async () => {
    const none = await upload(w.tokenA, [["intent", "upload"]]);
    expect(none.status).toBe(400);
    expect(((await none.json()) as { message: string }).message).toBe("Please select a file first.");
    const unchosen = await upload(w.tokenA, [["file", new File([], "", { type: "application/octet-stream" })]]);
    expect(unchosen.status).toBe(400);
    expect(((await unchosen.json()) as { message: string }).message).toBe("Please select a file first.");
    const notMultipart = await call(uploadAction, {
      request: new Request(`${BASE}/api/file-uploads`, {
        method: "POST",
        body: "{}",
        headers: { Authorization: `Bearer ${w.tokenA}`, "Content-Type": "application/json" },
      }),
      params: {},
      context: {},
    });
    expect(notMultipart.status).toBe(415);
  });

  it("refuses an empty file with 400 and keeps nothing", async () => {
    const before = storedKeys().length;
    const res = await upload(w.tokenA, [["file", new File([], "empty.txt", { type: "text/plain" })]]);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe("The file is empty.");
    expect(storedKeys().length).toBe(before);
  });

  it("answers 413 with the limit above UPLOAD_MAX_BYTES and leaves no row and no partial bytes", async () => {
    const before = { rows: (await db().selectFrom("file_uploads").select("id").execute()).length, files: storedKeys().length };
    const res = await upload(w.tokenA, [["file", new File([new Uint8Array(4097)], "big.bin", { type: "application/octet-stream" })]]);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toBe("The file is larger than 4 KB. Upload a file of at most 4 KB.");
    expect((await db().selectFrom("file_uploads").select("id").execute()).length).toBe(before.rows);
    expect(storedKeys().length).toBe(before.files);
    expect(storedKeys().some((k) => k.endsWith(".part"))).toBe(false);
    // Exactly at the limit is fine.
    const atLimit = await upload(w.tokenA, [["file", new File([new Uint8Array(4096)], "limit.bin")]]);
    expect(atLimit.status).toBe(201);
  });

  it("refuses a NUL in a text field (400 naming it) and keeps nothing, even when the field comes after the file", async () => {
    const before = { rows: (await db().selectFrom("file_uploads").select("id").execute()).length, files: storedKeys().length };
    const res = await upload(w.tokenA, [
      ["file", new File(["kept?"], "nul.txt", { type: "text/plain" })],
      ["note", "a\u0000b"],
    ]);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "Bad Request", field: "note" });
    expect((await db().selectFrom("file_uploads").select("id").execute()).length).toBe(before.rows);
    expect(storedKeys().length).toBe(before.files);
  });

  it("answers 400 for a multipart body that does not parse, and 405 for another method", async () => {
    const broken = await call(uploadAction, {
      request: new Request(`${BASE}/api/file-uploads`, {
        method: "POST",
        body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated',
        headers: { Authorization: `Bearer ${w.tokenA}`, "Content-Type": "multipart/form-data; boundary=x" },
      }),
      params: {},
      context: {},
    });
    expect(broken.status).toBe(400);
    const put = await call(uploadAction, {
      request: new Request(`${BASE}/api/file-uploads`, { method: "PUT", headers: { Authorization: `Bearer ${w.tokenA}` } }),
      params: {},
      context: {},
    });
    expect(put.status).toBe(405);
    expect(put.headers.get("Allow")).toBe("GET, POST");
  });

  it("keeps a hostile file name as metadata only", async () => {
    const res = await upload(w.tokenA, [["file", new File(["x"], "../../etc/pass\u0000wd", { type: "text/html" })]]);
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { id: number; fileName: string } };
    expect(data.fileName).toBe("passwd");
    const row = await db().selectFrom("file_uploads").select("storage_key").where("id", "=", data.id).executeTakeFirstOrThrow();
    expect(storedKeys()).toContain(row.storage_key);
  });

  it("needs a session", async () => {
    const res = await upload(null, [["file", new File(["x"], "x.txt")]]);
    expect(res.status).toBe(401);
  });
});

describe("GET /api/file-uploads", () => {
  it("lists the user's own files newest first, never a colleague's or another organisation's", async () => {
    await upload(w.tokenA2, [["file", new File(["colleague"], "colleague.txt")]]);
    await upload(w.tokenB, [["file", new File(["other org"], "other.txt")]]);
    const res = await request(listLoader, "/api/file-uploads", {}, w.tokenA);
    const { data } = (await res.json()) as { data: Array<{ id: number; fileName: string; fileSize: number; mimeType: string }> };
    const names = data.map((f) => f.fileName);
    expect(names).not.toContain("colleague.txt");
    expect(names).not.toContain("other.txt");
    expect(names).toContain("report.txt");
    expect([...data].sort((a, b) => b.id - a.id).map((f) => f.id)).toEqual(data.map((f) => f.id));
    expect(Object.keys(data[0]).sort()).toEqual(["fileName", "fileSize", "id", "mimeType"]);
    expect(await listFiles({ organizationId: w.orgB, userId: w.userA })).toEqual([]);
  });

  it("401 without a session", async () => {
    expect((await request(listLoader, "/api/file-uploads")).status).toBe(401);
  });
});

describe("GET /api/file-uploads/{id}/download", () => {
  it("sends the bytes as an attachment with the sanitised name, the type and nosniff", async () => {
    const hostile = 'Årsrapport "final"\r\nSet-Cookie: a=b; ø.html';
    const res = await upload(w.tokenA, [["file", new File(["<script>alert(1)</script>"], hostile, { type: "text/html" })]]);
    const { data } = (await res.json()) as { data: { id: number } };
    const dl = await request(downloadLoader, `/api/file-uploads/${data.id}/download`, { id: String(data.id) }, w.tokenA);
    expect(dl.status).toBe(200);
    const disposition = dl.headers.get("Content-Disposition") ?? "";
    expect(disposition.startsWith("attachment;")).toBe(true);
    expect(disposition).not.toMatch(/[\r\n]/);
    expect(disposition).toContain("filename*=UTF-8''");
    expect(disposition).not.toContain('"final"');
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1])).toBe('Årsrapport "final"Set-Cookie: a=b; ø.html');
    expect(dl.headers.get("Content-Type")).toBe("text/html");
    expect(dl.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await dl.text()).toBe("<script>alert(1)</script>");
  });

  it("a colleague and another organisation get 404 like a missing id; bad ids 400, no session 401", async () => {
    const [file] = await listFiles({ organizationId: w.orgA, userId: w.userA });
    expect((await request(downloadLoader, `/api/file-uploads/${file.id}/download`, { id: String(file.id) }, w.tokenA2)).status).toBe(404);
    const other = await request(downloadLoader, `/api/file-uploads/${file.id}/download`, { id: String(file.id) }, w.tokenB);
    expect(other.status).toBe(404);
    expect((await request(downloadLoader, `/api/file-uploads/999999/download`, { id: "999999" }, w.tokenA)).status).toBe(404);
    for (const id of ["abc", " 5", "0x10", "05"]) expect((await request(downloadLoader, `/api/file-uploads/x/download`, { id }, w.tokenA)).status).toBe(400);
    expect((await request(downloadLoader, `/api/file-uploads/${file.id}/download`, { id: String(file.id) })).status).toBe(401);
  });
});

describe("DELETE /api/file-uploads/{id}", () => {
  it("another organisation and a colleague get 404 and the file stays", async () => {
    const [file] = await listFiles({ organizationId: w.orgA, userId: w.userA });
    expect((await remove(w.tokenB, file.id)).status).toBe(404);
    expect((await remove(w.tokenA2, file.id)).status).toBe(404);
    expect((await listFiles({ organizationId: w.orgA, userId: w.userA })).map((f) => f.id)).toContain(file.id);
    expect((await remove(w.tokenA, "0")).status).toBe(400);
  });

  it("detaches the file from every connection with a 'file_detached' audit row each, then deletes row and bytes", async () => {
    await follow(w.orgA, w.supplier1);
    await follow(w.orgA, w.supplier2);
    const connections = await db().selectFrom("organization_connections").select("id").where("parent_organization_id", "=", w.orgA).orderBy("id").execute();
    const res = await upload(w.tokenA, [["file", new File(["contract"], "contract.pdf", { type: "application/pdf" })]]);
    const { data } = (await res.json()) as { data: { id: number } };
    for (const c of connections) {
      await db()
        .insertInto("organization_connection_files")
        .values({ connection_id: c.id, file_upload_id: data.id, created_at: "2025-01-01T00:00:00.000Z" })
        .execute();
    }
    expect(await attachedConnectionsCount({ organizationId: w.orgA, id: data.id })).toBe(2);
    expect(await attachedConnectionsCount({ organizationId: w.orgB, id: data.id })).toBe(0);
    const key = (await db().selectFrom("file_uploads").select("storage_key").where("id", "=", data.id).executeTakeFirstOrThrow()).storage_key;

    const del = await remove(w.tokenA, data.id);
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ data: { id: data.id } });
    expect(await db().selectFrom("file_uploads").select("id").where("id", "=", data.id).executeTakeFirst()).toBeUndefined();
    expect(await db().selectFrom("organization_connection_files").select("connection_id").where("file_upload_id", "=", data.id).execute()).toEqual([]);
    expect(storedKeys()).not.toContain(key);
    const events = await db().selectFrom("connection_events").selectAll().where("action", "=", "file_detached").orderBy("connection_id").execute();
    expect(events.map((e) => e.connection_id)).toEqual(connections.map((c) => c.id));
    for (const e of events) {
      expect(e.organization_id).toBe(w.orgA);
      expect(e.user_id).toBe(w.userA);
      expect(JSON.parse(e.detail ?? "{}")).toMatchObject({ fileId: data.id, fileName: "contract.pdf" });
    }
    // Gone means gone: a second delete and a download are 404.
    expect((await remove(w.tokenA, data.id)).status).toBe(404);
    expect((await request(downloadLoader, `/api/file-uploads/${data.id}/download`, { id: String(data.id) }, w.tokenA)).status).toBe(404);
    expect(await deleteFile({ organizationId: w.orgA, userId: w.userA, id: data.id })).toBe(false);
  });
});

describe("file names browsers really send", () => {
  it("keeps ';' and '=' in a quoted name, split across small body chunks", async () => {
    const boundary = "----e2eBoundary1234";
    const text =
      `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="Q1; a=b %22x%22.txt"\r\nContent-Type: text/plain\r\n\r\nbody; filename="no=change"\r\n` +
      `--${boundary}--\r\n`;
    const bytes = new TextEncoder().encode(text);
    // Three-byte chunks: every marker and header line is split somewhere.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.subarray(i, i + 3));
        controller.close();
      },
    });
    const req = new Request(`${BASE}/api/file-uploads`, {
      method: "POST",
      body,
      headers: { Authorization: `Bearer ${w.tokenA}`, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    const res = await call(uploadAction, { request: req, params: {}, context: {} });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { id: number; fileName: string; fileSize: number } };
    expect(data.fileName).toBe('Q1; a=b "x".txt');
    const dl = await request(downloadLoader, `/api/file-uploads/${data.id}/download`, { id: String(data.id) }, w.tokenA);
    expect(await dl.text()).toBe('body; filename="no=change"');
  });
});

describe("finding 6: a member's private upload is not readable or attachable by colleagues", () => {
  const v = {} as { owner: string; analyst: string; viewer: string; outsider: string; connection: number; fileId: number };
  const download = (id: number, token: string) => request(downloadLoader, `/api/file-uploads/${id}/download`, { id: String(id) }, token);
  const attach = (token: string, body: unknown) =>
    call(attachAction, {
      request: new Request(`${BASE}/api/organization-connections/file-uploads`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      }),
      params: {},
      context: {},
    });
  const attached = async () =>
    (await db().selectFrom("organization_connection_files").select("connection_id").where("file_upload_id", "=", v.fileId).execute()).length;

  beforeAll(async () => {
    const org = await makeOrg("Customer Six", "customer");
    const other = await makeOrg("Customer Seven", "customer");
    const supplier = await makeOrg("Supplier Six", "supplier", "966666666");
    v.owner = await signedIn("owner@six.test", org, 2);
    v.analyst = await signedIn("analyst@six.test", org, 2);
    v.viewer = await signedIn("viewer@six.test", org, 1);
    v.outsider = await signedIn("analyst@seven.test", other, 2);
    await follow(org, supplier);
    v.connection = (await db().selectFrom("organization_connections").select("id").where("parent_organization_id", "=", org).executeTakeFirstOrThrow()).id;
    const res = await upload(v.owner, [["file", new File(["salary list"], "private.csv", { type: "text/csv" })]]);
    v.fileId = ((await res.json()) as { data: { id: number } }).data.id;
  });

  it("a colleague cannot download a private, unattached upload by its id (404, like a missing one)", async () => {
    expect((await download(v.fileId, v.owner)).status).toBe(200);
    for (const token of [v.analyst, v.viewer, v.outsider]) {
      const res = await download(v.fileId, token);
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Disposition")).toBeNull();
    }
  });

  it("a colleague cannot attach it to a connection; nothing is attached", async () => {
    const res = await attach(v.analyst, { connectionId: v.connection, fileId: v.fileId });
    expect(res.status).toBe(404);
    expect(await attached()).toBe(0);
    expect((await attach(v.outsider, { connectionId: v.connection, fileId: v.fileId })).status).toBe(404);
    expect(await attached()).toBe(0);
  });

  it("a level-1 member cannot attach even their own file (403)", async () => {
    const own = await upload(v.viewer, [["file", new File(["mine"], "mine.txt", { type: "text/plain" })]]);
    const fileId = ((await own.json()) as { data: { id: number } }).data.id;
    const res = await attach(v.viewer, { connectionId: v.connection, fileId });
    expect(res.status).toBe(403);
    expect((await db().selectFrom("organization_connection_files").select("connection_id").where("file_upload_id", "=", fileId).execute()).length).toBe(0);
  });

  it("once the owner attaches it, colleagues who may read the connection can download it; not a viewer, not another organisation", async () => {
    expect((await attach(v.owner, { connectionId: v.connection, fileId: v.fileId })).status).toBe(201);
    expect((await download(v.fileId, v.analyst)).status).toBe(200);
    expect((await download(v.fileId, v.viewer)).status).toBe(404);
    expect((await download(v.fileId, v.outsider)).status).toBe(404);
    // A soft-deleted connection shows its files to no one.
    await db().updateTable("organization_connections").set({ is_deleted: 1 }).where("id", "=", v.connection).execute();
    expect((await download(v.fileId, v.analyst)).status).toBe(404);
    expect((await download(v.fileId, v.owner)).status).toBe(200);
    await db().updateTable("organization_connections").set({ is_deleted: 0 }).where("id", "=", v.connection).execute();
  });
});

describe("POST/DELETE /api/organization-connections/file-uploads: input and levels", () => {
  const v = {} as { owner: string; viewer: string; connection: number; fileId: number };
  const send = (method: string, token: string, query = "", body?: string, contentType?: string) =>
    call(attachAction, {
      request: new Request(`${BASE}/api/organization-connections/file-uploads${query}`, {
        method,
        body,
        headers: { Authorization: `Bearer ${token}`, ...(contentType ? { "Content-Type": contentType } : {}) },
      }),
      params: {},
      context: {},
    });
  const links = async () =>
    (await db().selectFrom("organization_connection_files").select("connection_id").where("file_upload_id", "=", v.fileId).execute()).length;

  beforeAll(async () => {
    const org = await makeOrg("Customer Eight", "customer");
    const supplier = await makeOrg("Supplier Eight", "supplier", "988888888");
    v.owner = await signedIn("owner@eight.test", org, 2);
    v.viewer = await signedIn("viewer@eight.test", org, 1);
    await follow(org, supplier);
    v.connection = (await db().selectFrom("organization_connections").select("id").where("parent_organization_id", "=", org).executeTakeFirstOrThrow()).id;
    const res = await upload(v.owner, [["file", new File(["eight"], "eight.txt", { type: "text/plain" })]]);
    v.fileId = ((await res.json()) as { data: { id: number } }).data.id;
  });

  it("refuses a text/plain or form body (415) and malformed JSON (400); nothing attached", async () => {
    const pair = JSON.stringify({ connectionId: v.connection, fileId: v.fileId });
    expect((await send("POST", v.owner, "", pair, "text/plain")).status).toBe(415);
    expect((await send("POST", v.owner, "", `connectionId=${v.connection}&fileId=${v.fileId}`, "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await send("POST", v.owner, "", "{", "application/json")).status).toBe(400);
    expect((await send("POST", v.owner, "", JSON.stringify({ connectionId: String(v.connection), fileId: v.fileId }), "application/json")).status).toBe(400);
    expect(await links()).toBe(0);
  });

  it("detach needs suppliersWrite (level 1: 403) and plain ids (' 5', '0x10': 400)", async () => {
    expect((await send("POST", v.owner, "", JSON.stringify({ connectionId: v.connection, fileId: v.fileId }), "application/json")).status).toBe(201);
    expect((await send("DELETE", v.viewer, `?connectionId=${v.connection}&fileId=${v.fileId}`)).status).toBe(403);
    expect((await send("DELETE", v.owner, `?connectionId=%20${v.connection}&fileId=${v.fileId}`)).status).toBe(400);
    expect((await send("DELETE", v.owner, `?connectionId=${v.connection}&fileId=0x${v.fileId.toString(16)}`)).status).toBe(400);
    expect((await send("DELETE", v.owner, `?connectionId=${v.connection}`)).status).toBe(400);
    expect(await links()).toBe(1);
    expect((await send("DELETE", v.owner, `?connectionId=${v.connection}&fileId=${v.fileId}`)).status).toBe(200);
    expect(await links()).toBe(0);
  });

  it("answers 405 with Allow to other methods", async () => {
    const res = await send("PUT", v.owner);
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST, DELETE");
  });
});
