import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { saveFile } from "@server/storage";
import { loader } from "~/routes/api.supplier_upload.parseFile";
import { loader as inlineLoader } from "~/routes/files.$fileId.inline";
import { loader as previewLoader } from "~/routes/_app.files_.$fileId.preview";
import { listFilesWithAttachments } from "~/models/files/files.server";
import { FIXTURES, makeZipBomb } from "../fixtures/spreadsheets/make";
import { makeOrg, request, signedIn } from "../helpers/fixtures";

const w = {} as { orgA: number; orgB: number; tokenA: string; tokenA2: string; tokenB: string; userA: number; files: Record<string, number> };
let tmp: string;

async function userOf(token: string): Promise<number> {
  const { createHash } = await import("node:crypto");
  const s = await db().selectFrom("sessions").select("user_id").where("id", "=", createHash("sha256").update(token).digest("hex")).executeTakeFirstOrThrow();
  return s.user_id;
}

async function upload(name: string, bytes: Buffer, mimeType = "application/octet-stream"): Promise<number> {
  return (await saveFile(bytes, { fileName: name, mimeType, organizationId: w.orgA, userId: w.userA })).id;
}

const parse = (query: string, token?: string) => request(loader, `/api/supplier_upload/parseFile?${query}`, {}, token);

beforeAll(async () => {
  w.orgA = await makeOrg("Preview Customer A", "customer");
  w.orgB = await makeOrg("Preview Customer B", "customer");
  w.tokenA = await signedIn("a@preview.test", w.orgA);
  w.tokenA2 = await signedIn("a2@preview.test", w.orgA);
  w.tokenB = await signedIn("b@preview.test", w.orgB);
  w.userA = await userOf(w.tokenA);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "preview-"));
  await makeZipBomb(path.join(tmp, "bomb.xlsx"));
  w.files = {};
  for (const name of ["two-sheets-dates.xlsx", "suppliers-windows1252-tab.csv", "legacy.xls", "fake.xlsx", "report.pdf", "messy-quoted-empty-ragged.csv"]) {
    // The browser's claim is deliberately wrong: the sniffed kind decides.
    w.files[name] = await upload(name, fs.readFileSync(path.join(FIXTURES, name)), "text/html");
  }
  w.files["bomb.xlsx"] = await upload("bomb.xlsx", fs.readFileSync(path.join(tmp, "bomb.xlsx")));
  const long = Array.from({ length: 40 }, (_, i) => `${i};row ${i}`).join("\n");
  w.files["long.csv"] = await upload("long.csv", Buffer.from(long));
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("GET /api/supplier_upload/parseFile", () => {
  it("401 for a visitor", async () => {
    const res = await parse(`fileId=${w.files["two-sheets-dates.xlsx"]}`);
    expect(res.status).toBe(401);
  });

  it("400 for a missing or malformed fileId, or a bad sheet", async () => {
    for (const q of ["", "fileId=", "fileId=abc", "fileId=-1", "fileId=1.5", "fileId=0x10"]) expect((await parse(q, w.tokenA)).status, q).toBe(400);
    for (const q of ["sheet=-1", "sheet=a", "sheet=01", "sheet=2"]) {
      const res = await parse(`fileId=${w.files["two-sheets-dates.xlsx"]}&${q}`, w.tokenA);
      expect(res.status, q).toBe(400);
    }
  });

  it("404 for another organisation's file, a colleague's file and a missing id, alike", async () => {
    const id = w.files["two-sheets-dates.xlsx"];
    const other = await parse(`fileId=${id}`, w.tokenB);
    const colleague = await parse(`fileId=${id}`, w.tokenA2);
    const missing = await parse(`fileId=99999999`, w.tokenA);
    for (const res of [other, colleague, missing]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Not Found", message: "No file with this id." });
    }
  });

  it("answers the first sheet's rows of an xlsx and every sheet's name; ?sheet=1 the second", async () => {
    const id = w.files["two-sheets-dates.xlsx"];
    const res = await parse(`fileId=${id}`, w.tokenA);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ fileId: id, fileName: "two-sheets-dates.xlsx", kind: "xlsx", sheets: ["Leverandører", "Notater"], sheet: 0 });
    expect(body.rows[1]).toEqual(["832175692", "WAYS AS", "2024-01-31", "1234.56", "12.5%", "0.3", "0151"]);
    const second = await (await parse(`fileId=${id}&sheet=1`, w.tokenA)).json();
    expect(second.sheet).toBe(1);
    expect(second.rows[2]).toEqual(["Bærum, Ørsta og Å"]);
  });

  it("answers a Windows-1252 CSV with its letters intact, and at most 16 rows, padded", async () => {
    const csv = await (await parse(`fileId=${w.files["suppliers-windows1252-tab.csv"]}`, w.tokenA)).json();
    expect(csv.kind).toBe("csv");
    expect(csv.rows.map((r: string[]) => r[2])).toEqual(["Kommune", "Ørsta", "Bærum", "Å"]);
    const long = await (await parse(`fileId=${w.files["long.csv"]}`, w.tokenA)).json();
    expect(long.rows).toHaveLength(16);
    const messy = await (await parse(`fileId=${w.files["messy-quoted-empty-ragged.csv"]}`, w.tokenA)).json();
    expect(new Set(messy.rows.map((r: string[]) => r.length))).toEqual(new Set([6]));
  });

  it("a PDF has no rows: it answers its kind, and the preview shows it in a frame", async () => {
    const body = await (await parse(`fileId=${w.files["report.pdf"]}`, w.tokenA)).json();
    expect(body).toEqual({ fileId: w.files["report.pdf"], fileName: "report.pdf", kind: "pdf", sheets: [], sheet: 0, rows: [] });
  });

  it("422 with a clear message for a legacy xls, a fake xlsx and a zip bomb", async () => {
    const expectations: Array<[string, string, RegExp]> = [
      ["legacy.xls", "legacy-xls", /save it as an Excel workbook \(\.xlsx\)/],
      ["fake.xlsx", "not-a-spreadsheet", /not a spreadsheet/],
      ["bomb.xlsx", "unsafe", /refused/],
    ];
    for (const [name, code, message] of expectations) {
      const res = await parse(`fileId=${w.files[name]}`, w.tokenA);
      expect(res.status, name).toBe(422);
      const body = await res.json();
      expect(body.code, name).toBe(code);
      expect(body.message, name).toMatch(message);
    }
  });

  it("the message is in the user's language", async () => {
    const no = await signedIn("no@preview.test", w.orgA);
    await db().updateTable("users").set({ language: "no" }).where("email", "=", "no@preview.test").execute();
    const id = (
      await saveFile(fs.readFileSync(path.join(FIXTURES, "legacy.xls")), {
        fileName: "gammel.xls",
        mimeType: "",
        organizationId: w.orgA,
        userId: await userOf(no),
      })
    ).id;
    const body = await (await parse(`fileId=${id}`, no)).json();
    expect(body.message).toMatch(/lagre den som Excel-arbeidsbok \(\.xlsx\)/);
  });
});

describe("the files list offers preview and analysis by the sniffed kind", () => {
  it("marks kinds from the bytes, and sniffs an older row (content_kind NULL) once", async () => {
    const id = w.files["suppliers-windows1252-tab.csv"];
    await db().updateTable("file_uploads").set({ content_kind: null }).where("id", "=", id).execute();
    const files = await listFilesWithAttachments({ organizationId: w.orgA, userId: w.userA });
    const byName = new Map(files.map((f) => [f.fileName, f]));
    expect(byName.get("suppliers-windows1252-tab.csv")).toMatchObject({ contentKind: "csv", previewable: true, analysable: true });
    expect(byName.get("two-sheets-dates.xlsx")).toMatchObject({ contentKind: "xlsx", previewable: true, analysable: true });
    expect(byName.get("legacy.xls")).toMatchObject({ contentKind: "xls", previewable: true, analysable: true });
    expect(byName.get("report.pdf")).toMatchObject({ contentKind: "pdf", previewable: true, analysable: false });
    expect(byName.get("fake.xlsx")).toMatchObject({ contentKind: "other", previewable: false, analysable: false });
    const row = await db().selectFrom("file_uploads").select("content_kind").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.content_kind).toBe("csv");
  });
});

describe("GET /files/{fileId}/inline (the preview's PDF frame)", () => {
  const inline = (id: number | string, token?: string) => request(inlineLoader, `/files/${id}/inline`, { fileId: String(id) }, token);

  it("serves the user's own PDF inline with its real type, nosniff and a policy without scripts, framable only by this origin", async () => {
    const res = await inline(w.files["report.pdf"], w.tokenA);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toMatch(/^inline; filename="report.pdf"/);
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'none'; object-src 'self'; frame-ancestors 'self'");
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("never serves anything else inline: HTML claiming to be a PDF, a spreadsheet, anyone else's PDF — 404", async () => {
    const html = await upload("report.pdf", Buffer.from("<html><script>alert(document.cookie)</script></html>"), "application/pdf");
    expect((await inline(html, w.tokenA)).status).toBe(404);
    expect((await inline(w.files["two-sheets-dates.xlsx"], w.tokenA)).status).toBe(404);
    expect((await inline(w.files["report.pdf"], w.tokenB)).status).toBe(404);
    expect((await inline(w.files["report.pdf"], w.tokenA2)).status).toBe(404);
    expect((await inline("abc", w.tokenA)).status).toBe(400);
  });

  it("a visitor is sent to the start page", async () => {
    const res = await inline(w.files["report.pdf"]);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
  });
});

describe("/files/{fileId}/preview (the page)", () => {
  const page = (query: string, id: number | string, token?: string) => request(previewLoader, `/files/${id}/preview${query}`, { fileId: String(id) }, token);

  it("shows the first sheet's rows, closes back to a safe returnTo or /files", async () => {
    const id = w.files["two-sheets-dates.xlsx"];
    const data = await (await page("?returnTo=%2Fsuppliers%3Fpanel%3Dfiles", id, w.tokenA)).json();
    expect(data.closeHref).toBe("/suppliers?panel=files");
    expect(data.preview).toMatchObject({ kind: "xlsx", sheets: ["Leverandører", "Notater"], sheet: 0, refused: null, previewRows: 16, analysable: true });
    expect((await (await page("?returnTo=https%3A%2F%2Fevil.example", id, w.tokenA)).json()).closeHref).toBe("/files");
    expect((await (await page("?returnTo=%2F%2Fevil.example", id, w.tokenA)).json()).closeHref).toBe("/files");
  });

  it("shows the readers' message for a legacy xls with 422; 404 for anyone else's file; 400 for a bad sheet", async () => {
    const legacy = await page("", w.files["legacy.xls"], w.tokenA);
    expect(legacy.status).toBe(422);
    expect((await legacy.json()).preview.refused).toMatch(/\.xlsx/);
    expect((await page("", w.files["two-sheets-dates.xlsx"], w.tokenB)).status).toBe(404);
    expect((await page("?sheet=9", w.files["two-sheets-dates.xlsx"], w.tokenA)).status).toBe(400);
  });
});
