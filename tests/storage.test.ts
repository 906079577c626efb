import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { cleanStoredName, contentDisposition, deleteStoredFile, openFile, safeContentType, saveFile, uploadMaxBytes } from "@server/storage";
import { createOrganization } from "./helpers/factory";

let organizationId: number;
const uploads = () => path.join(process.env.DATA_DIR!, "uploads");

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  organizationId = await createOrganization({ name: "Storage Test AS", createdAt: new Date().toISOString() });
});

describe("saveFile", () => {
  it("writes the bytes under a random key in DATA_DIR/uploads and records them", async () => {
    const bytes = Buffer.from("org_number,name\n123456789,Test AS\n");
    const saved = await saveFile(bytes, { fileName: "suppliers.csv", mimeType: "text/csv", organizationId, userId: null });
    expect(saved).toEqual({
      id: expect.any(Number),
      fileName: "suppliers.csv",
      fileSize: bytes.length,
      mimeType: "text/csv",
      storageKey: expect.stringMatching(/^[a-f0-9]{32}$/),
      contentKind: "csv",
    });
    expect(fs.readFileSync(path.join(uploads(), saved.storageKey))).toEqual(bytes);
    const row = await db().selectFrom("file_uploads").selectAll().where("id", "=", saved.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      organization_id: organizationId,
      user_id: null,
      file_name: "suppliers.csv",
      file_size: bytes.length,
      mime_type: "text/csv",
      storage_key: saved.storageKey,
      content_kind: "csv",
    });
  });

  it("records the kind the bytes show, not the one the browser claims", async () => {
    const pdf = await saveFile(Buffer.from("%PDF-1.4\n%%EOF\n"), { fileName: "list.xlsx", mimeType: "application/vnd.ms-excel", organizationId, userId: null });
    expect(pdf.contentKind).toBe("pdf");
    const html = await saveFile(Buffer.from("<html><script>alert(1)</script></html>"), {
      fileName: "report.pdf",
      mimeType: "application/pdf",
      organizationId,
      userId: null,
    });
    expect(html.contentKind).toBe("other");
    const fake = await saveFile(Buffer.from("a,b\n1,2\n"), {
      fileName: "fake.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      organizationId,
      userId: null,
    });
    expect(fake.contentKind).toBe("other");
    const row = await db().selectFrom("file_uploads").select("content_kind").where("id", "=", html.id).executeTakeFirstOrThrow();
    expect(row.content_kind).toBe("other");
  });

  it("counts the bytes of a stream", async () => {
    const parts = [Buffer.alloc(70_000, 1), Buffer.alloc(12_345, 2)];
    const saved = await saveFile(Readable.from(parts), { fileName: "big.bin", mimeType: "application/octet-stream", organizationId, userId: null });
    expect(saved.fileSize).toBe(82_345);
    expect(fs.statSync(path.join(uploads(), saved.storageKey)).size).toBe(82_345);
  });

  it("never puts the file name into the path, and keeps only its last segment as metadata", async () => {
    const saved = await saveFile(Buffer.from("x"), { fileName: "../../app.db", mimeType: "text/plain", organizationId, userId: null });
    expect(saved.fileName).toBe("app.db");
    expect(fs.existsSync(path.join(uploads(), saved.storageKey))).toBe(true);
    expect(fs.readdirSync(uploads()).every((name) => /^[a-f0-9]{32}$/.test(name))).toBe(true);
    expect(fs.statSync(process.env.DATABASE_FILE!).size).toBeGreaterThan(1);
  });

  it("gives every file its own key", async () => {
    const a = await saveFile(Buffer.from("a"), { fileName: "same.txt", mimeType: "text/plain", organizationId, userId: null });
    const b = await saveFile(Buffer.from("b"), { fileName: "same.txt", mimeType: "text/plain", organizationId, userId: null });
    expect(a.storageKey).not.toBe(b.storageKey);
  });

  it("leaves no bytes behind when the row cannot be written", async () => {
    const before = fs.readdirSync(uploads()).sort();
    await expect(saveFile(Buffer.from("orphan"), { fileName: "x.txt", mimeType: "text/plain", organizationId: 999_999, userId: null })).rejects.toThrow();
    expect(fs.readdirSync(uploads()).sort()).toEqual(before);
  });
});

describe("openFile and deleteStoredFile", () => {
  it("streams the stored bytes with their size, and nothing once deleted", async () => {
    const bytes = Buffer.from("%PDF-1.4 pretend");
    const saved = await saveFile(bytes, { fileName: "a.pdf", mimeType: "application/pdf", organizationId, userId: null });
    const opened = await openFile(saved.storageKey);
    expect(opened?.size).toBe(bytes.length);
    expect(await readAll(opened!.stream)).toEqual(bytes);
    await deleteStoredFile(saved.storageKey);
    expect(await openFile(saved.storageKey)).toBeNull();
    await expect(deleteStoredFile(saved.storageKey)).resolves.toBeUndefined();
  });

  it("refuses keys that are not storage keys", async () => {
    await expect(openFile("../app.db")).rejects.toThrow("Invalid storage key");
    await expect(deleteStoredFile("../app.db")).rejects.toThrow("Invalid storage key");
    expect(fs.existsSync(process.env.DATABASE_FILE!)).toBe(true);
  });
});

describe("limits and headers", () => {
  it("has a 25 MB upload limit by default", () => {
    expect(uploadMaxBytes()).toBe(25 * 1024 * 1024);
  });

  it("cleans names kept as metadata", () => {
    expect(cleanStoredName("C:\\Users\\kari\\Rapport\r\n.pdf")).toBe("Rapport.pdf");
    expect(cleanStoredName("\u0000\u0007")).toBe("file");
    expect(Array.from(cleanStoredName("ø".repeat(500)))).toHaveLength(200);
  });

  it.each([
    ["report.pdf", "attachment; filename=\"report.pdf\"; filename*=UTF-8''report.pdf"],
    ["Årsrapport 2024.pdf", "attachment; filename=\"Arsrapport 2024.pdf\"; filename*=UTF-8''%C3%85rsrapport%202024.pdf"],
    ['a"b;c%.txt', "attachment; filename=\"a_b_c_.txt\"; filename*=UTF-8''a%22b%3Bc%25.txt"],
    ["dir\\..\\secret.txt", "attachment; filename=\"secret.txt\"; filename*=UTF-8''secret.txt"],
    ["it's (final)*.csv", "attachment; filename=\"it's (final)*.csv\"; filename*=UTF-8''it%27s%20%28final%29%2A.csv"],
    ["\r\n", "attachment; filename=\"file\"; filename*=UTF-8''file"],
    ["Øst.pdf", "attachment; filename=\"_st.pdf\"; filename*=UTF-8''%C3%98st.pdf"],
  ])("Content-Disposition for %j", (name, header) => {
    expect(contentDisposition(name)).toBe(header);
    expect(() => new Headers({ "Content-Disposition": contentDisposition(name) })).not.toThrow();
  });

  it("echoes only well-formed mime types", () => {
    expect(safeContentType("application/pdf")).toBe("application/pdf");
    expect(safeContentType("Text/CSV")).toBe("text/csv");
    expect(safeContentType("text/html\r\nSet-Cookie: a=b")).toBe("application/octet-stream");
    expect(safeContentType("text/plain; charset=utf-8")).toBe("application/octet-stream");
    expect(safeContentType("")).toBe("application/octet-stream");
  });
});
