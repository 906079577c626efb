/**
 * The news monitor's rules (decision 024): which followed supplier a news item is about, how relevant the hit
 * is and how much risk it signals. Pure (no server, no I/O): the job and the tests compute the same result.
 *
 * Matching works on folded word tokens, so word boundaries come for free ("Aker" never matches "Akershus"):
 * - case-insensitive, diacritics dropped, Norwegian letters folded so that both spellings meet: æ → ae, ø and oe → o,
 *   å and aa → a ("Bjørnstad", "Bjoernstad" and "Bjornstad" are one word; "Ålesund" and "Aalesund" too);
 * - legal-form suffixes (AS, ASA, ANS, DA, SA, AB, Ltd, Limited, GmbH, AG, Inc, …) are dropped from the end of a name
 *   to give its short name ("Kongsberg Gruppen ASA" → "kongsberg gruppen");
 * - a name is matched by its full legal name (suffix included) or, when the short name is distinctive, by the short name.
 *
 * Distinctiveness (so that "Bygg AS" or "Consulting AS" does not match every article): a short name is distinctive when
 * at least one of its words is not on the stop list (common English and Norwegian words and the generic words of
 * company names: bygg, consulting, service, holding, eiendom, norge, group, …) and those distinctive words have at least
 * four letters together. A name that is not distinctive is not matched at all — not even by its full legal name, since
 * "Consulting AS" inside "Moelven Consulting AS" or "consulting as a career" is still not that company.
 */

/** A followed supplier as the matcher sees it: the registry company and its legal name. */
export interface SupplierName {
  companyId: number;
  name: string;
}

/** One news item, already read from its feed (text only: HTML stripped). */
export interface NewsItem {
  guid?: string | null;
  link?: string | null;
  title: string;
  summary?: string | null;
  /** ISO 8601 when the feed gives one. */
  date?: string | null;
}

export type MatchedBy = "legal_name" | "short_name";
export type MatchedIn = "title" | "summary";

export interface NewsMatch {
  companyId: number;
  /** The supplier's legal name as given. */
  name: string;
  by: MatchedBy;
  in: MatchedIn;
  /** 0–100. */
  relevance: number;
}

export interface RiskAssessment {
  /** 0–100. */
  score: number;
  /** The negative topics found, strongest first. */
  topics: RiskTopic[];
}

/** Legal-form words dropped from the end of a name (Norwegian, Nordic, English, German, French, Dutch…). */
export const LEGAL_FORMS = new Set([
  "as",
  "asa",
  "ans",
  "da",
  "sa",
  "ab",
  "publ",
  "ltd",
  "limited",
  "gmbh",
  "ag",
  "inc",
  "incorporated",
  "llc",
  "llp",
  "lp",
  "plc",
  "corp",
  "corporation",
  "co",
  "company",
  "bv",
  "nv",
  "oy",
  "oyj",
  "aps",
  "sarl",
  "sas",
  "srl",
  "spa",
  "kg",
  "ks",
  "nuf",
  "sf",
  "ba",
  "iks",
  "kf",
  "hf",
  "enk",
  "stiftelse",
  "aksjeselskap",
  "aksjeselskapet",
  "aktieselskap",
  "aktieselskapet",
  "allmennaksjeselskap",
]);

/**
 * Words that do not make a company name distinctive: common English and Norwegian words and the generic words of
 * company names. A short name made only of these is never matched.
 */
export const STOP_WORDS = new Set(
  [
    // English
    "the",
    "and",
    "of",
    "for",
    "in",
    "on",
    "at",
    "to",
    "a",
    "an",
    "new",
    "best",
    "first",
    "good",
    "general",
    "international",
    "global",
    "national",
    "united",
    "north",
    "south",
    "east",
    "west",
    "nordic",
    "norway",
    "norwegian",
    "scandinavia",
    "europe",
    "european",
    "group",
    "holding",
    "holdings",
    "invest",
    "investment",
    "investments",
    "capital",
    "partners",
    "partner",
    "consulting",
    "consult",
    "consultants",
    "services",
    "service",
    "solutions",
    "solution",
    "systems",
    "system",
    "technology",
    "technologies",
    "tech",
    "data",
    "digital",
    "energy",
    "power",
    "industries",
    "industry",
    "management",
    "trading",
    "trade",
    "import",
    "export",
    "logistics",
    "transport",
    "shipping",
    "construction",
    "building",
    "property",
    "properties",
    "real",
    "estate",
    "finance",
    "financial",
    "media",
    "marine",
    "offshore",
    "engineering",
    "design",
    "software",
    "network",
    "security",
    "care",
    "health",
    "food",
    "foods",
    "one",
    "top",
    "star",
    "city",
    "center",
    "centre",
    "office",
    "home",
    "house",
    // Norwegian (folded: æ → ae, ø → o, å → a)
    "og",
    "i",
    "pa",
    "til",
    "fra",
    "med",
    "av",
    "for",
    "den",
    "det",
    "de",
    "en",
    "et",
    "ny",
    "nye",
    "norsk",
    "norske",
    "norge",
    "nord",
    "sor",
    "ost",
    "vest",
    "midt",
    "bygg",
    "bygge",
    "byggeservice",
    "anlegg",
    "entreprenor",
    "entreprenorer",
    "eiendom",
    "eiendommer",
    "eiendomsselskap",
    "handel",
    "handelshus",
    "regnskap",
    "regnskapskontor",
    "revisjon",
    "radgivning",
    "tjenester",
    "elektro",
    "el",
    "ror",
    "rorlegger",
    "maler",
    "snekker",
    "snekkerservice",
    "transport",
    "frakt",
    "renhold",
    "vask",
    "drift",
    "utvikling",
    "teknikk",
    "teknologi",
    "invest",
    "kapital",
    "forvaltning",
    "finans",
    "gruppen",
    "konsern",
    "senter",
    "sentrum",
    "kontor",
    "hus",
    "hjem",
    "mat",
    "fisk",
    "sjomat",
    "gard",
    "skog",
    "kraft",
    "energi",
    "olje",
    "havbruk",
    "shipping",
    "rederi",
    "media",
    "reklame",
    "design",
    "data",
    "helse",
    "omsorg",
    "barnehage",
    "skole",
    "sikkerhet",
    "vakt",
    "service",
    "partner",
    "partnere",
    "konsulent",
    "konsulenter",
    "prosjekt",
    "verksted",
    "bil",
    "auto",
    "maskin",
    "utleie",
    "stein",
    "betong",
    "tre",
    "trelast",
  ].map(fold),
);

/** Lower case, diacritics dropped, Norwegian letters folded so that either spelling gives the same word. */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/æ/g, "ae")
    .replace(/[øœ]/g, "o")
    .replace(/å/g, "a")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/oe/g, "o")
    .replace(/aa/g, "a")
    .replace(/ß/g, "ss");
}

/** The folded words of a text (letters and digits; everything else separates words). */
export function tokens(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Country and region words that often end a local subsidiary's name ("Kjell & Co Norway AS" is called "Kjell & Co"). */
export const COUNTRY_WORDS = new Set([
  "norway",
  "norge",
  "norden",
  "nordic",
  "scandinavia",
  "skandinavia",
  "sweden",
  "sverige",
  "denmark",
  "danmark",
  "finland",
  "europe",
  "international",
]);

export interface NameForms {
  /** Every word of the legal name. */
  full: string[];
  /** The name without its trailing legal-form words. */
  short: string[];
  /** The short name without a trailing country word, when that is still distinctive; else null. */
  alias: string[] | null;
  /** Why it can never match; null when it can. */
  generic: null | "stop_words" | "too_short" | "empty";
}

/** The forms of a company name the matcher looks for, and whether it is distinctive enough to look for at all. */
export function nameForms(name: string): NameForms {
  const full = tokens(name);
  const short = [...full];
  while (short.length > 1 && LEGAL_FORMS.has(short[short.length - 1]!)) short.pop();
  // "AS Bygg" is rare but exists: a leading legal form is not part of the name either.
  while (short.length > 1 && LEGAL_FORMS.has(short[0]!) && short[0] !== "co") short.shift();
  if (short.length === 0 || (short.length === 1 && LEGAL_FORMS.has(short[0]!) && full.length === 1)) return { full, short, alias: null, generic: "empty" };
  const generic = genericReason(short);
  if (generic) return { full, short, alias: null, generic };
  const alias = [...short];
  while (alias.length > 1 && COUNTRY_WORDS.has(alias[alias.length - 1]!)) alias.pop();
  // A trailing "& Co" is part of a name ("Kjell & Co"), but "Co" alone after stripping is not distinctive.
  return { full, short, alias: alias.length < short.length && !genericReason(alias) ? alias : null, generic: null };
}

function genericReason(words: string[]): NameForms["generic"] {
  const distinctive = words.filter((word) => !STOP_WORDS.has(word) && !LEGAL_FORMS.has(word) && !/^\d+$/.test(word));
  if (distinctive.length === 0) return "stop_words";
  if (distinctive.join("").length < 4) return "too_short";
  return null;
}

function countPhrase(haystack: string[], needle: string[]): number {
  if (needle.length === 0 || needle.length > haystack.length) return 0;
  let count = 0;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    count++;
  }
  return count;
}

/**
 * Relevance, in percent: the full legal name in the headline is the surest hit; the short name only in the summary the
 * weakest. A second mention adds a little.
 */
export const RELEVANCE: Record<MatchedBy, Record<MatchedIn, number>> = {
  legal_name: { title: 100, summary: 80 },
  short_name: { title: 75, summary: 55 },
};

interface CompiledSupplier {
  supplier: SupplierName;
  forms: NameForms;
}

/** A matcher for one organisation's suppliers: names analysed once, indexed by their first word. */
export interface NewsMatcher {
  match(item: Pick<NewsItem, "title" | "summary">): NewsMatch[];
}

export function createMatcher(suppliers: SupplierName[]): NewsMatcher {
  const byFirstWord = new Map<string, CompiledSupplier[]>();
  for (const supplier of suppliers) {
    const forms = nameForms(supplier.name);
    if (forms.generic) continue;
    const compiled = { supplier, forms };
    // Every form starts with the short name's first word, except a full name with a leading legal form ("AS Nestlé Norge").
    for (const first of new Set([forms.full[0], forms.short[0]])) {
      if (!first) continue;
      const list = byFirstWord.get(first) ?? [];
      list.push(compiled);
      byFirstWord.set(first, list);
    }
  }
  return {
    match(item) {
      const title = tokens(item.title);
      const summary = tokens(item.summary ?? "");
      const candidates = new Set<CompiledSupplier>();
      for (const word of [...title, ...summary]) for (const c of byFirstWord.get(word) ?? []) candidates.add(c);
      const out: NewsMatch[] = [];
      for (const { supplier, forms } of [...candidates].sort((a, b) => a.supplier.companyId - b.supplier.companyId)) {
        const found: Array<{ by: MatchedBy; in: MatchedIn; mentions: number }> = [];
        const hasSuffix = forms.full.length > forms.short.length;
        for (const [where, words] of [
          ["title", title],
          ["summary", summary],
        ] as const) {
          const legal = hasSuffix ? countPhrase(words, forms.full) : 0;
          const short = countPhrase(words, forms.short) || (forms.alias ? countPhrase(words, forms.alias) : 0);
          if (legal > 0) found.push({ by: "legal_name", in: where, mentions: short });
          else if (short > 0) found.push({ by: "short_name", in: where, mentions: short });
        }
        if (found.length === 0) continue;
        const best = found.reduce((a, b) => (RELEVANCE[b.by][b.in] > RELEVANCE[a.by][a.in] ? b : a));
        const mentions = found.reduce((sum, f) => sum + f.mentions, 0);
        const relevance = Math.min(100, RELEVANCE[best.by][best.in] + 5 * Math.min(2, mentions - 1));
        out.push({ companyId: supplier.companyId, name: supplier.name, by: best.by, in: best.in, relevance });
      }
      return out;
    },
  };
}

/** The followed suppliers an item is about, each once, with the best way it was found (in company id order). */
export function matchItem(item: Pick<NewsItem, "title" | "summary">, suppliers: SupplierName[]): NewsMatch[] {
  return createMatcher(suppliers).match(item);
}

export type RiskTopic =
  | "bankruptcy"
  | "forced_labour"
  | "fraud"
  | "corruption"
  | "money_laundering"
  | "sanctions"
  | "tax_evasion"
  | "criminal_case"
  | "safety"
  | "environment"
  | "data_breach"
  | "lawsuit"
  | "financial_distress"
  | "layoffs";

/**
 * The negative keyword lists, English and Norwegian, and each topic's weight (the risk score of an article about it).
 * A keyword matches a whole word, or the start of one (Norwegian inflects by suffix: konkurs → konkursen, konkursbo;
 * English too: sanction → sanctions). Several words form a phrase.
 */
export const RISK_TOPICS: Record<RiskTopic, { weight: number; keywords: string[] }> = {
  bankruptcy: {
    weight: 90,
    keywords: [
      "konkurs",
      "oppbud",
      "tvangsopplosning",
      "tvangsavvikling",
      "bankrupt",
      "bankruptcy",
      "insolvency",
      "insolvent",
      "insolvens",
      "chapter 11",
      "administration order",
      "receivership",
    ],
  },
  forced_labour: {
    weight: 90,
    keywords: [
      "tvangsarbeid",
      "barnearbeid",
      "menneskehandel",
      "slavearbeid",
      "forced labour",
      "forced labor",
      "child labour",
      "child labor",
      "modern slavery",
      "human trafficking",
      "sosial dumping",
      "arbeidslivskriminalitet",
    ],
  },
  fraud: { weight: 85, keywords: ["bedrageri", "svindel", "underslag", "utroskap", "okokrim", "fraud", "fraudulent", "embezzlement", "embezzled", "ponzi"] },
  corruption: { weight: 85, keywords: ["korrupsjon", "bestikkelse", "smoring", "korrupt", "corruption", "corrupt", "bribery", "bribe", "kickback"] },
  money_laundering: { weight: 85, keywords: ["hvitvask", "money laundering", "laundered money", "launder money"] },
  sanctions: { weight: 80, keywords: ["sanksjon", "sanksjonsbrudd", "sanctions", "sanctioned", "sanction", "export control violation", "embargo"] },
  tax_evasion: { weight: 75, keywords: ["skatteunndragelse", "skattesvik", "skatteunndragelser", "tax evasion", "tax fraud"] },
  criminal_case: {
    weight: 70,
    keywords: ["siktet", "tiltalt", "domfelt", "dømt", "ransaking", "charged with", "indicted", "convicted", "raided", "arrested", "pagrepet"],
  },
  safety: { weight: 60, keywords: ["dodsulykke", "arbeidsulykke", "fatal accident", "workplace death", "killed in", "arbeidstilsynet"] },
  environment: {
    weight: 55,
    keywords: ["miljokrim", "ulovlig utslipp", "oljesol", "forurensning", "pollution", "oil spill", "toxic spill", "environmental crime"],
  },
  data_breach: {
    weight: 55,
    keywords: ["dataangrep", "datainnbrudd", "losepengevirus", "personvernbrudd", "data breach", "cyberattack", "cyber attack", "ransomware", "hacked"],
  },
  lawsuit: {
    weight: 50,
    keywords: ["soksmal", "rettssak", "stevnet", "lawsuit", "sued", "litigation", "class action", "etterforsk", "investigation", "investigated", "probe"],
  },
  financial_distress: {
    weight: 45,
    keywords: [
      "resultatvarsel",
      "gjeldsforhandling",
      "rekonstruksjon",
      "likviditetskrise",
      "profit warning",
      "going concern",
      "misligholdt",
      "mislighold",
      "restructuring",
    ],
  },
  layoffs: { weight: 35, keywords: ["permitter", "nedbemanning", "oppsigelser", "layoffs", "laid off", "job cuts", "redundancies"] },
};

/** The score of an article with no negative word: it is news, not a warning. */
export const NEUTRAL_RISK = 10;

const TOPIC_KEYWORDS: Array<{ topic: RiskTopic; words: string[] }> = Object.entries(RISK_TOPICS).flatMap(([topic, { keywords }]) =>
  keywords.map((keyword) => ({ topic: topic as RiskTopic, words: tokens(keyword) })),
);

function containsKeyword(words: string[], keyword: string[]): boolean {
  const last = keyword.length - 1;
  outer: for (let i = 0; i + keyword.length <= words.length; i++) {
    for (let j = 0; j < last; j++) if (words[i + j] !== keyword[j]) continue outer;
    // The last word may be inflected (a prefix): konkurs → konkursen, sanction → sanctions.
    if (words[i + last]!.startsWith(keyword[last]!)) return true;
  }
  return false;
}

/**
 * How much risk an article signals: the weight of its strongest negative topic (in the summary only: 85 % of it), plus
 * 5 for each further topic, at most 100; an article with none scores NEUTRAL_RISK.
 */
export function assessRisk(item: Pick<NewsItem, "title" | "summary">): RiskAssessment {
  const title = tokens(item.title);
  const summary = tokens(item.summary ?? "");
  const scores = new Map<RiskTopic, number>();
  for (const { topic, words } of TOPIC_KEYWORDS) {
    const weight = RISK_TOPICS[topic].weight;
    const score = containsKeyword(title, words) ? weight : containsKeyword(summary, words) ? Math.round(weight * 0.85) : 0;
    if (score > (scores.get(topic) ?? 0)) scores.set(topic, score);
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return { score: NEUTRAL_RISK, topics: [] };
  const score = Math.min(100, ranked[0]![1] + 5 * (ranked.length - 1));
  return { score, topics: ranked.map(([topic]) => topic) };
}

/** What identifies an item within its feed: its guid, else its link, else its headline. */
export function itemIdentity(item: Pick<NewsItem, "guid" | "link" | "title">): string {
  return (item.guid?.trim() || item.link?.trim() || item.title.trim()).normalize("NFC");
}

/** SHA-256 as hex through Web Crypto (Node 20 and browsers alike). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Exactly once: the same item about the same supplier for the same organisation has one key, whatever the run. */
export async function newsDedupeKey(organizationId: number, companyId: number, item: Pick<NewsItem, "guid" | "link" | "title">): Promise<string> {
  return `news:${organizationId}:${companyId}:${await sha256Hex(itemIdentity(item))}`;
}
