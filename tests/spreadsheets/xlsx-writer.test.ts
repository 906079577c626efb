import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSpreadsheet, sniffKind, readHead, checkZip } from "@server/spreadsheets";
import { createXlsxWriter, escapeXml } from "@server/spreadsheets/xlsx-writer";
import { columnLetter } from "~/models/files/spreadsheet-columns";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "xlsx-writer-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function readBack(file: string): Promise<{ sheets: string[]; rows: string[][] }> {
  const reader = await openSpreadsheet(file, path.basename(file));
  const rows: string[][] = [];
  for await (const row of reader.rows(0)) rows.push(row);
  return { sheets: reader.sheets, rows };
}

describe("the streaming xlsx writer (the import's result file)", () => {
  it("writes a workbook our readers (read-excel-file) read back cell for cell, Norwegian letters, markup and gaps included", async () => {
    const file = path.join(dir, "result.xlsx");
    const writer = await createXlsxWriter(file, { sheetName: "Resultat: leverandører [1]", columnWidths: [18, 20] });
    await writer.addRow(["Organisasjonsnummer", "Navn", "Status"], { bold: true });
    await writer.addRow(["912 345 678", "Ørsta & Bærum <AS>", "Funnet"]);
    await writer.addRow(["", "Å \"sitat\" 'apostrof'", ""]);
    await writer.addRow(["tab\there", "line\nbreak", "ctrl\u0001char"]);
    await writer.close();

    expect(sniffKind(await readHead(file), "result.xlsx")).toBe("xlsx");
    // The zip guard the readers apply to uploads accepts it: sizes declared, nothing hidden.
    const entries = await checkZip(fs.readFileSync(file));
    expect(entries.map((e) => e.name).sort()).toContain("xl/worksheets/sheet1.xml");
    const { sheets, rows } = await readBack(file);
    expect(sheets).toEqual(["Resultat  leverandører  1"]);
    expect(rows[0]).toEqual(["Organisasjonsnummer", "Navn", "Status"]);
    expect(rows[1]).toEqual(["912 345 678", "Ørsta & Bærum <AS>", "Funnet"]);
    expect(rows[2].slice(0, 2)).toEqual(["", "Å \"sitat\" 'apostrof'"]);
    expect(rows[3]).toEqual(["tab\there", "line\nbreak", "ctrlchar"]);
  });

  it("streams: 50 000 rows keep the memory it uses flat and land in the file", async () => {
    const file = path.join(dir, "big.xlsx");
    const writer = await createXlsxWriter(file, { sheetName: "Big" });
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    for (let i = 0; i < 50_000; i++) {
      await writer.addRow([String(900_000_000 + i), `Leverandør nummer ${i}`, i % 3 === 0 ? "matched" : "not found", "a reason that repeats"]);
      if (i % 5_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    await writer.close();
    // Rows are deflated into the file as they come: the heap does not hold the sheet (≈ 5 MB of XML).
    expect(peak - before).toBeLessThan(40 * 1024 * 1024);
    const { rows } = await readBack(file);
    expect(rows).toHaveLength(50_000);
    expect(rows[49_999]).toEqual(["900049999", "Leverandør nummer 49999", "not found", "a reason that repeats"]);
  });

  it("abort removes the partial file", async () => {
    const file = path.join(dir, "aborted.xlsx");
    const writer = await createXlsxWriter(file, { sheetName: "x" });
    await writer.addRow(["a"]);
    await writer.abort();
    expect(fs.existsSync(file)).toBe(false);
  });

  it("names columns as Excel does and escapes what XML cannot hold", () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnLetter)).toEqual(["A", "Z", "AA", "AZ", "BA", "ZZ", "AAA"]);
    expect(escapeXml('a&b<c>"d"\u0000\uD800e')).toBe("a&amp;b&lt;c&gt;&quot;d&quot;e");
  });
});
