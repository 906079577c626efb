/**
 * The credit report user agreement as PDF (shared/spec/02-supplier-credit-connections.md "Terms dialog"):
 * public/user_agreement_credit_en.pdf and public/user_agreement_credit_no.pdf,
 * generated from the same text the terms dialog shows
 * (locales/{en,no}/creditTerms.json), so dialog and PDF never drift.
 *
 *   npm run agreements               writes both files into public/
 *   npm run agreements -- <folder>   writes them into another folder
 *
 * The output is byte-identical for the same text: fixed dates and document
 * info, no compression (so zlib versions cannot change the bytes), standard
 * fonts only. tests/agreements.test.ts regenerates both and compares.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import PDFDocument from "pdfkit";

export const AGREEMENT_LANGUAGES = ["en", "no"] as const;
export type AgreementLanguage = (typeof AGREEMENT_LANGUAGES)[number];

export interface AgreementText {
  title: string;
  subtitle: string;
  page: string;
  sections: Array<{ heading: string; body: string }>;
}

/** Fixed so the same text always gives the same bytes. */
const FIXED_DATE = new Date(Date.UTC(2026, 0, 1, 0, 0, 0));
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function agreementFileName(language: AgreementLanguage): string {
  return `user_agreement_credit_${language}.pdf`;
}

export function readAgreementText(language: AgreementLanguage, root = ROOT): AgreementText {
  const raw: unknown = JSON.parse(fs.readFileSync(path.join(root, "locales", language, "creditTerms.json"), "utf8"));
  if (!isAgreementText(raw)) throw new Error(`locales/${language}/creditTerms.json: expected title, subtitle, page and sections [{heading, body}]`);
  return raw;
}

function isAgreementText(value: unknown): value is AgreementText {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.title === "string" &&
    typeof v.subtitle === "string" &&
    typeof v.page === "string" &&
    Array.isArray(v.sections) &&
    v.sections.every((s: unknown) => {
      const section = s as Record<string, unknown> | null;
      return !!section && typeof section.heading === "string" && typeof section.body === "string";
    })
  );
}

const MARGIN = 64;
const INK = "#1f2937";
const MUTED = "#4b5563";

/** One agreement as a PDF: A4, title, subtitle, numbered sections, 'Page n of m' in the footer. */
export function buildAgreementPdf(text: AgreementText, language: AgreementLanguage): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    compress: false,
    bufferPages: true,
    autoFirstPage: true,
    lang: language === "no" ? "nb-NO" : "en-GB",
    displayTitle: true,
    info: {
      Title: text.title,
      Subject: text.subtitle,
      Author: "Supplier Risk",
      Creator: "scripts/build-agreements.ts",
      Producer: "PDFKit",
      CreationDate: FIXED_DATE,
      ModDate: FIXED_DATE,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const width = doc.page.width - MARGIN * 2;
  doc.fillColor(INK).font("Helvetica-Bold").fontSize(20).text(text.title, { width });
  doc.moveDown(0.3);
  doc.fillColor(MUTED).font("Helvetica").fontSize(12).text(text.subtitle, { width });
  doc.moveDown(1.2);

  text.sections.forEach((section, index) => {
    // Keep a heading with the first lines of its body.
    if (doc.y > doc.page.height - MARGIN - 90) doc.addPage();
    doc
      .fillColor(INK)
      .font("Helvetica-Bold")
      .fontSize(12)
      .text(`${index + 1}. ${section.heading}`, { width });
    doc.moveDown(0.35);
    const paragraphs = section.body.split(/\n{2,}/);
    paragraphs.forEach((paragraph, p) => {
      doc.font("Helvetica").fontSize(10.5).fillColor(INK).text(paragraph.trim(), { width, align: "left", lineGap: 2 });
      if (p < paragraphs.length - 1) doc.moveDown(0.5);
    });
    doc.moveDown(1);
  });

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would otherwise start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const label = text.page.replace("{{page}}", String(i + 1)).replace("{{pages}}", String(range.count));
    doc
      .font("Helvetica")
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, MARGIN, doc.page.height - MARGIN / 2 - 6, { width, align: "center", lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

/** Writes both agreements into a folder; returns the paths written. */
export async function writeAgreements(outDir: string, root = ROOT): Promise<string[]> {
  fs.mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const language of AGREEMENT_LANGUAGES) {
    const pdf = await buildAgreementPdf(readAgreementText(language, root), language);
    const file = path.join(outDir, agreementFileName(language));
    fs.writeFileSync(file, pdf);
    written.push(file);
  }
  return written;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const outDir = path.resolve(process.argv[2] ?? path.join(ROOT, "public"));
  const files = await writeAgreements(outDir);
  for (const file of files) console.log(`${path.relative(process.cwd(), file)} (${fs.statSync(file).size} bytes)`);
}
