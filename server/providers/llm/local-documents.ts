import type { TFunction } from "i18next";
import type { AttachedDocument } from "./types";

/**
 * The local assistant's answers about the documents the user attached (/ai/documents; decision 030). No model: the
 * question's words are matched against the documents' lines, and the best lines are quoted word for word with the
 * document's name and page ("From «report.pdf», page 2: …"); asked for a summary, it quotes the first lines and says the
 * size. It never writes anything the document does not say. A question that matches nothing in the documents and does not
 * speak of them is left to the other answers (null).
 */

type T = TFunction<"assistant">;

/** Words that ask about the attached document itself. */
const ABOUT_DOCUMENT =
  /\b(document|file|attachment|attached|pdf|spreadsheet|it say|does it|dokument\w*|fil(en|a)?|vedlegg\w*|regneark\w*|står det|sier den|sier det)\b/;
const SUMMARY =
  /summar|overview|what is (this|it|the \w+) about|what('s| is) in (it|this|the)|oppsummer|sammendrag|sammenfatt|oversikt|hva handler|hva står det i|hva inneholder/;

/** Words that say nothing about what is asked. */
const STOP_WORDS = new Set(
  (
    "the a an and or of to in on at for from by with about what which who whom whose when where why how is are was were be been does do did " +
    "this that these those it its there their they them you your my our we me i can could would should will say says said tell show give find " +
    "any some all more most much many please document documents file files attached attachment pdf page pages " +
    "og eller av til i på for fra med om hva hvilke hvilken hvem når hvor hvorfor hvordan er var være blir har hadde det den de dette disse " +
    "deres dem du din ditt dine min mitt mine vår vårt våre vi meg jeg kan kunne skal vil si sier sa fortell vis gi finn noen alle mer mest " +
    "mye mange takk dokument dokumentet dokumenter fil filen filene vedlegg vedlegget side sider står der også ikke"
  ).split(" "),
);

export interface Passage {
  document: string;
  /** Page of a PDF (1-based), or null for a document without pages. */
  page: number | null;
  text: string;
}

/** The question's words that may be looked for in a document (lower case, without stop words). */
export function keywords(question: string): string[] {
  const words =
    question
      .normalize("NFC")
      .toLocaleLowerCase("nb")
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => (w.length >= 3 || /\d/.test(w)) && !STOP_WORDS.has(w)))];
}

/** Whether a word of the document answers to a keyword: the same word or an inflection of it (prefix of four letters or more). */
function wordMatches(word: string, keyword: string): boolean {
  if (word === keyword) return true;
  if (keyword.length >= 4 && word.startsWith(keyword)) return true;
  return word.length >= 4 && keyword.length >= 5 && keyword.startsWith(word);
}

/**
 * The passages of each document with their page (pages are separated by a form feed): its lines, where a line a PDF
 * wrapped (it does not end a sentence and the next one goes on in lower case) is joined to the next. The same passage
 * twice in a document is kept once.
 */
export function passages(documents: AttachedDocument[]): Passage[] {
  const out: Passage[] = [];
  for (const d of documents) {
    const pages = d.text.split("\f");
    const seen = new Set<string>();
    pages.forEach((page, i) => {
      const lines = page.split("\n").map((line) => line.replace(/\s+/g, " ").trim());
      let current = "";
      const flush = () => {
        if (current && !seen.has(current)) {
          seen.add(current);
          out.push({ document: d.name, page: pages.length > 1 ? i + 1 : null, text: current });
        }
        current = "";
      };
      for (const line of lines) {
        if (!line) {
          flush();
          continue;
        }
        const continues = current && !/[.!?:;]$/.test(current) && /^\p{Ll}/u.test(line);
        if (current && !continues) flush();
        current = current ? `${current} ${line}` : line;
      }
      flush();
    });
  }
  return out;
}

/** The passages that share most of the question's keywords, best first (at most `limit`); none when nothing matches. */
export function bestPassages(documents: AttachedDocument[], question: string, limit = 3): Passage[] {
  const wanted = keywords(question);
  if (!wanted.length) return [];
  const scored = passages(documents)
    .map((p, index) => {
      const words = p.text.toLocaleLowerCase("nb").match(/[\p{L}\p{N}]+/gu) ?? [];
      const score = wanted.filter((k) => words.some((w) => wordMatches(w, k))).length;
      return { p, index, score };
    })
    .filter((s) => s.score > 0);
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  // Quoted in the order they stand in the documents.
  return scored
    .slice(0, limit)
    .sort((a, b) => a.index - b.index)
    .map((s) => s.p);
}

/** Document text inside markdown: quoted as it is, but nothing in it may become a link, emphasis or HTML. */
function quote(text: string, max = 400): string {
  const clipped = text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
  return clipped.replace(/[\\`*_[\]<>|~#]/g, (c) => `\\${c}`);
}

function name(n: string): string {
  return quote(n, 200);
}

function source(t: T, p: Passage): string {
  return p.page != null ? t("documents.fromPage", { name: name(p.document), page: p.page }) : t("documents.from", { name: name(p.document) });
}

/**
 * The answer about the attached documents as markdown, or null when the question is not about them (nothing in them
 * matches it and it does not speak of them).
 */
export function documentAnswer(t: T, documents: AttachedDocument[], question: string, language: "en" | "no"): string | null {
  if (!documents.length) return null;
  const q = question.normalize("NFC").toLocaleLowerCase("nb");
  const readable = documents.filter((d) => d.text.trim());
  const unreadable = documents.filter((d) => !d.text.trim());
  const aboutDocument = ABOUT_DOCUMENT.test(q) || documents.some((d) => q.includes(d.name.toLocaleLowerCase("nb")));
  const noText = unreadable.map((d) => t("documents.noText", { name: name(d.name) })).join("\n\n");

  // "Summarise" asks for the document; "give me an overview of <a company>" names something else and is not a summary.
  const asksSummary = SUMMARY.test(q) && (aboutDocument || keywords(q).every((k) => SUMMARY.test(k)));
  if (asksSummary) {
    const blocks = readable.map((d) => {
      const lines = passages([d]).slice(0, 8);
      const characters = new Intl.NumberFormat(language === "no" ? "nb-NO" : "en-GB").format(d.text.replaceAll("\f", "").length);
      const pages = d.text.split("\f").length;
      const size = d.text.includes("\f") ? t("documents.sizePages", { count: pages, characters }) : t("documents.size", { characters });
      return `### ${t("documents.summaryTitle", { name: name(d.name) })}\n\n${size}\n\n${t("documents.firstLines")}\n\n${lines.map((p) => `> ${quote(p.text)}`).join("\n>\n")}\n`;
    });
    return [...blocks, noText].filter(Boolean).join("\n");
  }

  const best = bestPassages(readable, question);
  if (best.length) {
    const quoted = best.map((p) => `${source(t, p)}\n\n> ${quote(p.text)}\n`);
    return [t("documents.found"), ...quoted, noText].filter(Boolean).join("\n\n");
  }
  if (!aboutDocument) return null;
  const names = documents.map((d) => `«${name(d.name)}»`).join(", ");
  return [readable.length ? t("documents.notFound", { names }) : "", noText].filter(Boolean).join("\n\n");
}
