import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import writeXlsxFile from "write-excel-file/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentTextError, extractDocumentText, PAGE_BREAK } from "../../server/documents/extract";
import { makeZipBomb } from "../fixtures/spreadsheets/make";
import { makePdf } from "../fixtures/documents/make";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "doc-extract-"));
const file = (name: string) => path.join(dir, name);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function refusal(promise: Promise<unknown>): Promise<DocumentTextError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocumentTextError);
  return error as DocumentTextError;
}

const PAGE_ONE = ["Leverandørrapport for Blåbær Økologiske AS", "Risiko: høy i Sør-Trøndelag"];
const PAGE_TWO = ["Økonomi: omsetning 12 500 000 kroner", "Styreleder: Åse Ærø"];

beforeAll(async () => {
  fs.writeFileSync(file("report.pdf"), await makePdf([PAGE_ONE.join("\n"), PAGE_TWO.join("\n")]));
  fs.writeFileSync(file("locked.pdf"), await makePdf(["Hemmelig innhold"], { userPassword: "hemmelig" }));
  fs.writeFileSync(file("fifty.pdf"), await makePdf(Array.from({ length: 50 }, (_, i) => `Side ${i + 1}\nLinje med tekst på side ${i + 1}`)));
});

describe("extractDocumentText: PDF", () => {
  it("reads each page's text with the Norwegian letters, pages separated by a form feed", async () => {
    const result = await extractDocumentText(file("report.pdf"), "report.pdf");
    expect(result.pages).toBe(2);
    expect(result.truncated).toBe(false);
    const pages = result.text.split(PAGE_BREAK);
    expect(pages).toHaveLength(2);
    for (const line of PAGE_ONE) expect(pages[0]).toContain(line);
    for (const line of PAGE_TWO) expect(pages[1]).toContain(line);
    expect(result.characters).toBe(result.text.length);
  });

  it("stops after maxPages and says so, counting every page", async () => {
    const result = await extractDocumentText(file("fifty.pdf"), "fifty.pdf", { maxPages: 3 });
    expect(result.pages).toBe(50);
    expect(result.truncated).toBe(true);
    expect(result.text.split(PAGE_BREAK)).toHaveLength(3);
    expect(result.text).toContain("Side 3");
    expect(result.text).not.toContain("Side 4");
  });

  it("keeps at most maxChars characters", async () => {
    const result = await extractDocumentText(file("fifty.pdf"), "fifty.pdf", { maxChars: 100 });
    expect(result.characters).toBe(100);
    expect(result.text).toHaveLength(100);
    expect(result.truncated).toBe(true);
  });

  it("refuses a password-protected PDF as encrypted", async () => {
    const error = await refusal(extractDocumentText(file("locked.pdf"), "locked.pdf"));
    expect([error.code, error.messageKey]).toEqual(["encrypted", "aiDocuments:error.encrypted"]);
  });

  it("refuses a fake PDF (text named .pdf) and a broken one", async () => {
    fs.writeFileSync(file("fake.pdf"), "This is not a PDF at all, just text.");
    expect((await refusal(extractDocumentText(file("fake.pdf"), "fake.pdf"))).code).toBe("no-text-kind");
    const broken = (await makePdf(["Avbrutt"])).subarray(0, 400);
    fs.writeFileSync(file("broken.pdf"), broken);
    expect((await refusal(extractDocumentText(file("broken.pdf"), "broken.pdf"))).code).toBe("unreadable");
  });

  it("gives up after the time limit", async () => {
    const error = await refusal(extractDocumentText(file("fifty.pdf"), "fifty.pdf", { timeoutMs: 1 }));
    expect(error.code).toBe("timeout");
  });
});

describe("extractDocumentText: spreadsheets and text", () => {
  it("reads a CSV as tab-separated lines under its name", async () => {
    fs.writeFileSync(file("leverandører.csv"), "Navn;Land;Risiko\nTønsberg Bygg AS;NO;Høy\nÅlesund Fisk AS;NO;Lav\n");
    const result = await extractDocumentText(file("leverandører.csv"), "leverandører.csv");
    expect(result.text).toBe("[leverandører]\nNavn\tLand\tRisiko\nTønsberg Bygg AS\tNO\tHøy\nÅlesund Fisk AS\tNO\tLav\n");
    expect(result.pages).toBeNull();
  });

  it("reads every sheet of an xlsx, each under its name", async () => {
    await writeXlsxFile([
      {
        data: [
          ["Leverandør", "Beløp"],
          ["Bærum Verk AS", 1500],
        ],
        sheet: "Leverandører",
      },
      { data: [["Kommentar"], ["Levert for sent i mai"]], sheet: "Notater" },
    ] as never).toFile(file("book.xlsx"));
    const result = await extractDocumentText(file("book.xlsx"), "book.xlsx");
    expect(result.text).toBe("[Leverandører]\nLeverandør\tBeløp\nBærum Verk AS\t1500\n\n[Notater]\nKommentar\nLevert for sent i mai\n");
  });

  it("decodes a Windows-1252 text file and a UTF-8 one with a BOM", async () => {
    const text = "Møtereferat\r\nBlåbærsyltetøy: 5 € per glass – «fersk» …\r\n";
    fs.writeFileSync(file("notes.txt"), encode1252(text));
    expect((await extractDocumentText(file("notes.txt"), "notes.txt")).text).toBe("Møtereferat\nBlåbærsyltetøy: 5 € per glass – «fersk» …\n");
    fs.writeFileSync(file("notes.md"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("# Overskrift\n\nÆrlig talt.", "utf8")]));
    expect((await extractDocumentText(file("notes.md"), "notes.md")).text).toBe("# Overskrift\n\nÆrlig talt.");
  });

  it("cuts a long text file at maxChars", async () => {
    fs.writeFileSync(file("long.txt"), "æ".repeat(5000));
    const result = await extractDocumentText(file("long.txt"), "long.txt", { maxChars: 1000 });
    expect([result.characters, result.truncated, result.text]).toEqual([1000, true, "æ".repeat(1000)]);
  });

  it("refuses an empty file, a file of blanks, other kinds and a zip bomb", async () => {
    fs.writeFileSync(file("empty.txt"), "");
    expect((await refusal(extractDocumentText(file("empty.txt"), "empty.txt"))).code).toBe("empty");
    fs.writeFileSync(file("blank.txt"), "  \n\n  ");
    expect((await refusal(extractDocumentText(file("blank.txt"), "blank.txt"))).code).toBe("empty");
    fs.writeFileSync(file("image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
    const other = await refusal(extractDocumentText(file("image.png"), "image.png"));
    expect([other.code, other.messageKey]).toEqual(["no-text-kind", "aiDocuments:error.no-text-kind"]);
    await makeZipBomb(file("bomb.xlsx"), { megabytes: 300 });
    expect((await refusal(extractDocumentText(file("bomb.xlsx"), "bomb.xlsx"))).code).toBe("unsafe");
  });
});

function encode1252(text: string): Buffer {
  const high: Record<string, number> = { "€": 0x80, "…": 0x85, "–": 0x96 };
  return Buffer.from([...text].map((c) => high[c] ?? c.charCodeAt(0)));
}
