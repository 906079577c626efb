import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadLocale } from "./helpers/locale-files";

/**
 * locales/GLOSSARY.md fixes one English and one Norwegian word per domain
 * term; the locale files must use them ("one glossary per language").
 */

interface Term {
  term: string;
  en: string;
  no: string;
  neverEn: string[];
  neverNo: string[];
}

function tableRows(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`GLOSSARY.md has no "## ${heading}" section`);
  const section = markdown.slice(start).split(/\n## /)[0];
  return section
    .split("\n")
    .filter((line) => line.trim().startsWith("|"))
    .slice(2) // header and separator
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, "")
        .split("|")
        .map((cell) => cell.trim()),
    );
}

const list = (cell: string) =>
  cell
    .split(",")
    .map((w) => w.trim())
    .filter(Boolean);

const glossary = fs.readFileSync(path.resolve("locales/GLOSSARY.md"), "utf8");
const TERMS: Term[] = tableRows(glossary, "Terms").map(([term, en, no, neverEn, neverNo]) => ({
  term,
  en,
  no,
  neverEn: list(neverEn ?? ""),
  neverNo: list(neverNo ?? ""),
}));
const EXCEPTIONS = tableRows(glossary, "Exceptions").map(([key]) => key);

/** Text a reader sees: interpolations and markup tags removed. */
const visible = (value: string) => value.replace(/\{\{[^}]*\}\}/g, " ").replace(/<\/?\d+>/g, " ");

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A whole word or phrase in any case, and its plural (-s, -es, -y → -ies); letters beyond ASCII count as word characters. */
function wordPattern(word: string): RegExp {
  const stem = word.endsWith("y") ? `${escape(word.slice(0, -1))}(?:y|ies)` : `${escape(word)}(?:s|es)?`;
  return new RegExp(`(?<![\\p{L}\\p{N}])${stem}(?![\\p{L}\\p{N}])`, "giu");
}

const exempt = (key: string) => EXCEPTIONS.some((e) => (e.endsWith("*") ? key.startsWith(e.slice(0, -1)) : key === e));

const en = loadLocale("en");
const no = loadLocale("no");

describe("locales/GLOSSARY.md", () => {
  it("has the domain terms, each with an English and a Norwegian word", () => {
    const names = TERMS.map((t) => t.term);
    for (const term of [
      "supplier",
      "connection",
      "tag",
      "case file",
      "credit report",
      "organization",
      "board",
      "owner",
      "announcement",
      "risk score",
      "due diligence",
      "priority",
      "task",
      "survey",
      "respondent",
    ]) {
      expect(names).toContain(term);
    }
    for (const t of TERMS) {
      expect(t.en, t.term).not.toBe("");
      expect(t.no, t.term).not.toBe("");
    }
  });

  it("no English text uses a word the glossary refuses", () => {
    const found: string[] = [];
    for (const [key, value] of Object.entries(en)) {
      if (exempt(key)) continue;
      for (const t of TERMS) for (const word of t.neverEn) if (wordPattern(word).test(visible(value))) found.push(`${key}: '${word}' (say '${t.en}')`);
    }
    expect(found).toEqual([]);
  });

  it("no Norwegian text uses a word the glossary refuses", () => {
    const found: string[] = [];
    for (const [key, value] of Object.entries(no)) {
      if (exempt(key)) continue;
      for (const t of TERMS) for (const word of t.neverNo) if (wordPattern(word).test(visible(value))) found.push(`${key}: '${word}' (skriv '${t.no}')`);
    }
    expect(found).toEqual([]);
  });

  it("where the English text names a term, the Norwegian text under the same key uses the glossary's word", () => {
    // Longest terms first, and a matched term is taken out of the text, so 'case file' is not also read as 'file'.
    const terms = [...TERMS].sort((a, b) => b.en.length - a.en.length);
    const missing: string[] = [];
    for (const [key, value] of Object.entries(en)) {
      if (exempt(key) || !(key in no)) continue;
      let text = visible(value);
      const norwegian = visible(no[key]).toLocaleLowerCase("nb");
      for (const t of terms) {
        const pattern = wordPattern(t.en);
        if (!pattern.test(text)) continue;
        text = text.replace(wordPattern(t.en), " ");
        const stems = t.no.split("/").map((w) => w.trim().toLocaleLowerCase("nb"));
        if (!stems.some((stem) => norwegian.includes(stem))) missing.push(`${key}: '${t.en}' → '${t.no}' not in «${no[key]}»`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("one spelling of organization and of case file in visible English", () => {
    const values = Object.values(en).map(visible).join("\n");
    expect(values).not.toMatch(/organis(?:e|ation)/i);
    expect(values).not.toMatch(/(?<!\/)\bcasefiles?\b/i);
    expect(values).toMatch(/organization/);
    expect(values).toMatch(/Case files/);
  });
});
