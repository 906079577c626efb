import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkZip, detectEncoding, openSpreadsheet, previewRows, readHead, sniffKind, SpreadsheetError, type SheetReader } from "../../server/spreadsheets";
import { cellText } from "../../server/spreadsheets/format";
import { formattedNumber, StoredNumber } from "../../server/spreadsheets/format";
import { parseNumberFormat } from "../../server/spreadsheets/xlsx-formats";
import { FIXTURES, makeLargeCsv, makeZipBomb, minimalPdf, ORG_NUMBER_ROWS, SUPPLIERS } from "../fixtures/spreadsheets/make";

const fixture = (name: string) => path.join(FIXTURES, name);
const MB = 1024 * 1024;

async function open(name: string, limits?: Parameters<typeof openSpreadsheet>[2]): Promise<SheetReader> {
  return openSpreadsheet(fixture(name), name, { maxBytes: 25 * MB, ...limits });
}

async function refusal(promise: Promise<unknown>): Promise<SpreadsheetError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpreadsheetError);
  return error as SpreadsheetError;
}

async function all(reader: SheetReader, sheet = 0): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const row of reader.rows(sheet)) rows.push(row);
  return rows;
}

const supplierRows = SUPPLIERS.map((s) => [...s]);

describe("sniffKind: bytes first, name second", () => {
  it("knows each fixture by its bytes", async () => {
    const kinds: Record<string, string> = {
      "suppliers-headers.xlsx": "xlsx",
      "two-sheets-dates.xlsx": "xlsx",
      "legacy.xls": "xls",
      "report.pdf": "pdf",
      "suppliers-utf8-bom-semicolon.csv": "csv",
      "suppliers-windows1252-tab.csv": "csv",
      "suppliers-utf16le-bom.csv": "csv",
      "fake.xlsx": "other",
    };
    for (const [name, kind] of Object.entries(kinds)) expect(sniffKind(await readHead(fixture(name)), name), name).toBe(kind);
  });

  it("ignores a misleading name: a workbook named .csv is xlsx, a PDF named .xlsx is pdf, text named .pdf is other", async () => {
    expect(sniffKind(await readHead(fixture("suppliers-headers.xlsx")), "list.csv")).toBe("xlsx");
    expect(sniffKind(minimalPdf("x"), "list.xlsx")).toBe("pdf");
    expect(sniffKind(Buffer.from("a,b\n1,2\n"), "report.pdf")).toBe("other");
  });

  it("takes delimited text without a CSV name for CSV, prose and binary for other", () => {
    expect(sniffKind(Buffer.from("orgnr;navn\n1;2\n"), "export")).toBe("csv");
    expect(sniffKind(Buffer.from("Dear supplier\nPlease answer\n"), "letter")).toBe("other");
    // A .txt is CSV only when it reads as one; a letter saved as .txt is not offered for preview or analysis.
    expect(sniffKind(Buffer.from("Dear supplier\nPlease answer\n"), "letter.txt")).toBe("other");
    expect(sniffKind(Buffer.from("orgnr;navn\n1;2\n"), "export.txt")).toBe("csv");
    expect(sniffKind(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]), "image.csv")).toBe("other");
    expect(sniffKind(Buffer.from("PK\u0003\u0004 just a zip with photo.jpg", "latin1"), "archive.xlsx")).toBe("other");
  });

  it("detects the text encodings", () => {
    expect(detectEncoding(Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toEqual({ encoding: "utf-8", bom: 3 });
    expect(detectEncoding(Buffer.from([0xff, 0xfe, 0x41, 0]))).toEqual({ encoding: "utf-16le", bom: 2 });
    expect(detectEncoding(Buffer.from([0xfe, 0xff, 0, 0x41]))).toEqual({ encoding: "utf-16be", bom: 2 });
    expect(detectEncoding(Buffer.from("Ørsta", "utf8"))).toEqual({ encoding: "utf-8", bom: 0 });
    expect(detectEncoding(Buffer.from("Ørsta", "latin1"))).toEqual({ encoding: "windows-1252", bom: 0 });
    // A UTF-8 sequence cut by the end of the sample is still UTF-8.
    expect(detectEncoding(Buffer.from("abcø", "utf8").subarray(0, 4))).toEqual({ encoding: "utf-8", bom: 0 });
  });
});

describe("xlsx", () => {
  it("reads a supplier list with headers: numbers as the user sees them, Norwegian letters intact", async () => {
    const reader = await open("suppliers-headers.xlsx");
    expect(reader.kind).toBe("xlsx");
    expect(reader.sheets).toEqual(["Sheet1"]);
    expect(await all(reader)).toEqual([["Organisasjonsnummer", "Navn", "Land"], ...supplierRows]);
  });

  it("reads a list without headers", async () => {
    expect(await all(await open("suppliers-no-headers.xlsx"))).toEqual(supplierRows);
  });

  it("lists every sheet; dates as ISO, percentages and fixed decimals as formatted, no float noise, text with a leading zero kept", async () => {
    const reader = await open("two-sheets-dates.xlsx");
    expect(reader.sheets).toEqual(["Leverandører", "Notater"]);
    const [header, first, second] = await previewRows(reader, 0);
    expect(header).toEqual(["Organisasjonsnummer", "Navn", "Avtale fra", "Beløp", "Andel", "Sum", "Postnummer"]);
    expect(first).toEqual(["832175692", "WAYS AS", "2024-01-31", "1234.56", "12.5%", "0.3", "0151"]);
    expect(second).toEqual(["993020923", "TØNSBERGLIVET AS", "2023-12-01 13:45", "-7.50", "100%", "12345678.9", "3110"]);
    expect(await previewRows(reader, 1)).toEqual([["Notat"], ["Leverandørlisten er eksportert fra innkjøpssystemet."], ["Bærum, Ørsta og Å"]]);
  });

  it("keeps organisation numbers stored as text exactly as typed (the matcher's fixture)", async () => {
    const rows = await all(await open("org-numbers-invalid-duplicate.xlsx"));
    expect(rows.slice(1).map((r) => r[0])).toEqual(ORG_NUMBER_ROWS.map((r) => r[0]));
  });

  it("formats cells: 15 significant digits, booleans, empty cells", () => {
    expect(cellText(new StoredNumber("0.30000000000000004"))).toBe("0.3");
    expect(cellText(new StoredNumber("1.0000000000000002"))).toBe("1");
    expect(cellText(new StoredNumber("923609016"))).toBe("923609016");
    expect(cellText(true)).toBe("TRUE");
    expect(cellText(null)).toBe("");
    expect(cellText("0125")).toBe("0125");
  });

  it("understands percentage and fixed-decimal formats, and leaves the rest as General", () => {
    expect(parseNumberFormat("0.0%")).toEqual({ percent: true, decimals: 1 });
    expect(parseNumberFormat("0%")).toEqual({ percent: true, decimals: 0 });
    expect(parseNumberFormat("#,##0.00")).toEqual({ percent: false, decimals: 2 });
    expect(parseNumberFormat('[Red]#,##0.00;"minus "#,##0.00')).toEqual({ percent: false, decimals: 2 });
    for (const general of ["General", "0", "#,##0", "@", "0.00E+00", '"kr" #,##0.00 "per" ???', "# ?/?", "dd.mm.yyyy"])
      expect(parseNumberFormat(general), general).toBeNull();
    expect(formattedNumber("0.07", { percent: true, decimals: 0 })).toBe("7%");
    expect(formattedNumber("0.30000000000000004", { percent: false, decimals: 2 })).toBe("0.30");
    expect(formattedNumber("1234.565", { percent: false, decimals: 0 })).toBe("1235");
  });

  it("stops at maxRows with too-large", async () => {
    const reader = await open("suppliers-headers.xlsx", { maxRows: 3 });
    expect((await refusal(all(reader))).code).toBe("too-large");
  });
});

describe("CSV", () => {
  it("UTF-8 with BOM, semicolons", async () => {
    const reader = await open("suppliers-utf8-bom-semicolon.csv");
    expect(reader.kind).toBe("csv");
    expect(reader.sheets).toEqual(["suppliers-utf8-bom-semicolon"]);
    expect(await all(reader)).toEqual([["Organisasjonsnummer", "Navn", "Land"], ...supplierRows]);
  });

  it("Windows-1252 with tabs: 'Ørsta', 'Bærum', 'Å' and the euro sign survive", async () => {
    const rows = await all(await open("suppliers-windows1252-tab.csv"));
    expect(rows.map((r) => r[2])).toEqual(["Kommune", "Ørsta", "Bærum", "Å"]);
    expect(rows[1][3]).toBe("100 €");
    expect(rows[0][3]).toBe("Beløp");
  });

  it("UTF-16LE with BOM, commas", async () => {
    expect(await all(await open("suppliers-utf16le-bom.csv"))).toEqual([["Organisasjonsnummer", "Navn", "Land"], ...supplierRows]);
  });

  it("UTF-16BE with BOM", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "csv-"));
    const file = path.join(dir, "be.csv");
    const le = Buffer.from("a;b\nØrsta;Å\n", "utf16le");
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]));
    expect(await all(await openSpreadsheet(file, "be.csv"))).toEqual([
      ["a", "b"],
      ["Ørsta", "Å"],
    ]);
    fs.rmSync(dir, { recursive: true });
  });

  it("quoted line breaks and quotes, empty lines skipped, ragged rows kept and padded for the preview", async () => {
    const reader = await open("messy-quoted-empty-ragged.csv");
    const rows = await all(reader);
    expect(rows).toEqual([
      ["Organisasjonsnummer", "Navn", "Adresse", "Merknad"],
      ["832175692", "WAYS AS", "Postboks 2075 Vika\r\n0125 OSLO", 'Sier "ja", med komma'],
      ["993020923", "TØNSBERGLIVET AS"],
      ["918847065", "TRYGVE J SJØEN AS", "Karmøy", "ekstra", "felt", "her"],
    ]);
    const preview = await previewRows(reader, 0);
    expect(preview.every((r) => r.length === 6)).toBe(true);
    expect(preview[2]).toEqual(["993020923", "TØNSBERGLIVET AS", "", "", "", ""]);
  });

  it("the invalid/duplicate organisation numbers file reads as typed", async () => {
    const rows = await all(await open("org-numbers-invalid-duplicate.csv"));
    expect(rows.slice(1)).toEqual(ORG_NUMBER_ROWS.map((r) => [...r]));
  });

  it("previewRows stops after 16 rows of a long file and closes it; rows() throws too-large past maxRows", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "csv-"));
    const file = path.join(dir, "long.csv");
    fs.writeFileSync(file, Array.from({ length: 5000 }, (_, i) => `${i},name ${i}`).join("\n"));
    const reader = await openSpreadsheet(file, "long.csv", { maxRows: 1000 });
    const preview = await previewRows(reader, 0);
    expect(preview).toHaveLength(16);
    expect(preview[15]).toEqual(["15", "name 15"]);
    expect((await refusal(all(reader))).code).toBe("too-large");
    fs.rmSync(dir, { recursive: true });
  });

  it("an AbortSignal stops the iterator", async () => {
    const controller = new AbortController();
    const reader = await open("org-numbers-invalid-duplicate.csv", { signal: controller.signal });
    const seen: string[][] = [];
    const run = (async () => {
      for await (const row of reader.rows(0)) {
        seen.push(row);
        if (seen.length === 2) controller.abort(new Error("stopped"));
      }
    })();
    await expect(run).rejects.toThrow("stopped");
    expect(seen).toHaveLength(2);
  });
});

describe("refusals", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("a legacy xls: legacy-xls, telling the user to save it as .xlsx", async () => {
    const error = await refusal(open("legacy.xls"));
    expect(error.code).toBe("legacy-xls");
    expect(error.messageKey).toBe("files:readError.legacy-xls");
    const en = JSON.parse(fs.readFileSync("locales/en/files.json", "utf8"));
    expect(en.readError["legacy-xls"]).toMatch(/\.xlsx/);
  });

  it("a text file named .xlsx, and a PDF: not-a-spreadsheet", async () => {
    expect((await refusal(open("fake.xlsx"))).code).toBe("not-a-spreadsheet");
    expect((await refusal(open("report.pdf"))).code).toBe("not-a-spreadsheet");
  });

  it("an empty file: empty", async () => {
    const file = path.join(dir, "empty.csv");
    fs.writeFileSync(file, "");
    expect((await refusal(openSpreadsheet(file, "empty.csv"))).code).toBe("empty");
    fs.writeFileSync(file, "\n\n  \n");
    expect((await refusal(openSpreadsheet(file, "empty.csv"))).code).toBe("empty");
  });

  it("a broken zip named .xlsx: unreadable", async () => {
    const file = path.join(dir, "broken.xlsx");
    const good = fs.readFileSync(fixture("suppliers-headers.xlsx"));
    fs.writeFileSync(file, good.subarray(0, good.length - 200));
    expect(["unreadable", "unsafe"]).toContain((await refusal(openSpreadsheet(file, "broken.xlsx"))).code);
  });

  it("a zip bomb disguised as xlsx (300 MB of zeros in ~300 KB): unsafe, without inflating it", async () => {
    const file = path.join(dir, "bomb.xlsx");
    await makeZipBomb(file);
    expect(fs.statSync(file).size).toBeLessThan(2 * MB);
    expect(sniffKind(await readHead(file), "bomb.xlsx")).toBe("xlsx");
    const before = process.memoryUsage().rss;
    expect((await refusal(openSpreadsheet(file, "bomb.xlsx"))).code).toBe("unsafe");
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * MB);
  });

  it("a zip bomb whose headers lie about the size: unsafe, caught by the inflating cap", async () => {
    const file = path.join(dir, "liar.xlsx");
    await makeZipBomb(file, { megabytes: 50, lie: true });
    const bytes = fs.readFileSync(file);
    const before = process.memoryUsage().rss;
    expect((await refusal(checkZip(bytes))).code).toBe("unsafe");
    expect((await refusal(openSpreadsheet(file, "liar.xlsx"))).code).toBe("unsafe");
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * MB);
  });

  it("a zip with a hidden local entry the central directory does not list: unsafe", async () => {
    const good = fs.readFileSync(fixture("suppliers-headers.xlsx"));
    const file = path.join(dir, "hidden.xlsx");
    // Prepending bytes shifts every local header away from the offsets the central directory gives.
    fs.writeFileSync(file, Buffer.concat([Buffer.from("PK\u0003\u0004", "latin1"), Buffer.alloc(60), good]));
    expect(["unsafe", "unreadable"]).toContain((await refusal(openSpreadsheet(file, "hidden.xlsx"))).code);
  });

  it("a CSV of 100 MB: too-large at once under the upload limit; with a larger limit it streams with flat memory", async () => {
    const file = path.join(dir, "big.csv");
    await makeLargeCsv(file, 100 * MB);
    expect(fs.statSync(file).size).toBeGreaterThanOrEqual(100 * MB);
    expect((await refusal(openSpreadsheet(file, "big.csv"))).code).toBe("too-large");

    // Read to the row limit: memory does not grow with the file.
    const reader = await openSpreadsheet(file, "big.csv", { maxBytes: 200 * MB, maxRows: 300_000 });
    const before = process.memoryUsage().rss;
    let rows = 0;
    const error = await (async () => {
      try {
        for await (const row of reader.rows(0)) {
          rows += 1;
          expect(row.length).toBe(3);
        }
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SpreadsheetError);
    expect((error as SpreadsheetError).code).toBe("too-large");
    expect(rows).toBe(300_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(80 * MB);
  }, 60_000);
});
