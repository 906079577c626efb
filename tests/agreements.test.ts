import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pdfPageCount, pdfText } from "./helpers/pdf-text";
import { AGREEMENT_LANGUAGES, agreementFileName, readAgreementText, writeAgreements } from "../scripts/build-agreements";

/**
 * The credit report user agreements in public/ are generated from
 * locales/{en,no}/creditTerms.json (npm run agreements). Regenerating them
 * must give the committed bytes, so the dialog's text and the PDFs never drift.
 */
describe("credit report user agreements", () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "agreements-"));
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it("regenerating gives the committed PDFs byte for byte", async () => {
    await writeAgreements(outDir);
    for (const language of AGREEMENT_LANGUAGES) {
      const fresh = fs.readFileSync(path.join(outDir, agreementFileName(language)));
      const committed = fs.readFileSync(path.resolve("public", agreementFileName(language)));
      expect(fresh.equals(committed), `public/${agreementFileName(language)} is stale: run npm run agreements`).toBe(true);
    }
  });

  it.each(AGREEMENT_LANGUAGES)("the %s agreement is a valid PDF of a few pages", (language) => {
    const pdf = fs.readFileSync(path.resolve("public", agreementFileName(language)));
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.subarray(-6).toString("latin1").trim()).toBe("%%EOF");
    const pages = pdf.toString("latin1").match(/\/Type \/Page\b/g) ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(1);
    expect(pages.length).toBeLessThanOrEqual(4);
  });

  it.each(AGREEMENT_LANGUAGES)("the %s PDF shows the dialog's title, subtitle, numbered headings and page numbers", (language) => {
    const text = readAgreementText(language);
    const file = fs.readFileSync(path.resolve("public", agreementFileName(language)));
    const pdf = pdfText(file);
    const pages = pdfPageCount(file);
    expect(pdf).toContain(text.title);
    expect(pdf).toContain(text.subtitle);
    text.sections.forEach((section, index) => expect(pdf).toContain(`${index + 1}. ${section.heading}`));
    for (let page = 1; page <= pages; page++) expect(pdf).toContain(text.page.replace("{{page}}", String(page)).replace("{{pages}}", String(pages)));
  });

  it.each(AGREEMENT_LANGUAGES)("the %s text covers every point the spec lists, numbered in order", (language) => {
    const text = readAgreementText(language);
    expect(text.title.trim()).not.toBe("");
    expect(text.subtitle.trim()).not.toBe("");
    // purpose/usage, legitimate interest, international data, privacy, account security,
    // intellectual property, (price), liability, changes, breach/termination, confirmation
    expect(text.sections).toHaveLength(11);
    const words = text.sections.reduce((n, s) => n + `${s.heading} ${s.body}`.split(/\s+/).length, 0);
    expect(words).toBeGreaterThan(600);
    expect(words).toBeLessThan(1000);
    const all = text.sections.map((s) => s.body).join("\n");
    expect(all).toContain("personopplysningsloven");
    expect(all).toContain(language === "no" ? "kredittopplysning" : "credit information");
  });
});
