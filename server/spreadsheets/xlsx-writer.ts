import fs from "node:fs";
import { once } from "node:events";
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { columnLetter } from "~/models/files/spreadsheet-columns";

/**
 * Writes an xlsx file row by row with flat memory (the supplier-list import's result file can have 100 000 lines): the
 * worksheet's XML is deflated into the zip as the rows come, and the zip goes to the file as it is made. One sheet,
 * text cells (inline strings: what the user's list held, as text), a bold first row, column widths. Readable by Excel,
 * LibreOffice, Numbers and read-excel-file (tests/spreadsheets/xlsx-writer.test.ts reads it back).
 */
export interface XlsxWriter {
  /** Adds one row; `bold` for a header row. Resolves when the file has taken it (back-pressure). */
  addRow(cells: readonly string[], options?: { bold?: boolean }): Promise<void>;
  /** Ends the sheet and the zip and closes the file. */
  close(): Promise<void>;
  /** Stops and removes the partial file. */
  abort(): Promise<void>;
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

const STATIC_PARTS = (sheetName: string): Record<string, string> => ({
  "[Content_Types].xml":
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    "</Types>",
  "_rels/.rels":
    `${XML}<Relationships xmlns="${NS_PKG_REL}">` +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
    "</Relationships>",
  "xl/workbook.xml":
    `${XML}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheets>` +
    `<sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/>` +
    "</sheets></workbook>",
  "xl/_rels/workbook.xml.rels":
    `${XML}<Relationships xmlns="${NS_PKG_REL}">` +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
    "</Relationships>",
  // Style 0: the default; style 1: bold (the header row).
  "xl/styles.xml":
    `${XML}<styleSheet xmlns="${NS_MAIN}">` +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
    "</styleSheet>",
});

/** Text as XML character data: escaped, and without the control characters XML 1.0 cannot hold. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "") // eslint-disable-line no-control-regex
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** A sheet name Excel accepts: at most 31 characters, none of : \ / ? * [ ]. */
function sheetNameOf(name: string): string {
  return (
    name
      .replace(/[:\\/?*[\]]/g, " ")
      .slice(0, 31)
      .trim() || "Sheet1"
  );
}

/** Excel's limit of characters in one cell. */
const MAX_CELL = 32_767;

export async function createXlsxWriter(filePath: string, options: { sheetName: string; columnWidths?: number[] }): Promise<XlsxWriter> {
  const out = fs.createWriteStream(filePath);
  await once(out, "open");
  let failure: Error | null = null;
  out.on("error", (error) => (failure = error));
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else if (!out.destroyed) {
      out.write(chunk);
      if (final) out.end();
    }
  });
  for (const [name, text] of Object.entries(STATIC_PARTS(sheetNameOf(options.sheetName)))) {
    const part = new ZipPassThrough(name);
    zip.add(part);
    part.push(strToU8(text), true);
  }
  const sheet = new ZipDeflate("xl/worksheets/sheet1.xml", { level: 6 });
  zip.add(sheet);
  const widths = options.columnWidths ?? [];
  const cols = widths.length ? `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join("")}</cols>` : "";
  sheet.push(strToU8(`${XML}<worksheet xmlns="${NS_MAIN}">${cols}<sheetData>`));
  let rowNumber = 0;

  const drained = async () => {
    if (failure) throw failure;
    if (out.writableNeedDrain) await once(out, "drain");
  };

  return {
    async addRow(cells, rowOptions = {}) {
      rowNumber++;
      const style = rowOptions.bold ? ' s="1"' : "";
      let xml = `<row r="${rowNumber}">`;
      cells.forEach((value, i) => {
        if (value === "") return;
        const text = escapeXml(value.length > MAX_CELL ? value.slice(0, MAX_CELL) : value);
        xml += `<c r="${columnLetter(i)}${rowNumber}" t="inlineStr"${style}><is><t xml:space="preserve">${text}</t></is></c>`;
      });
      sheet.push(strToU8(`${xml}</row>`));
      await drained();
    },
    async close() {
      sheet.push(strToU8("</sheetData></worksheet>"), true);
      zip.end();
      if (!out.writableFinished) await once(out, "finish");
      if (failure) throw failure;
    },
    async abort() {
      zip.terminate();
      out.destroy();
      await fs.promises.rm(filePath, { force: true });
    },
  };
}
