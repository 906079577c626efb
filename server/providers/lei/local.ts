import { sql, type Kysely, type Selectable } from "kysely";
import { db as defaultDb } from "../../db";
import type { DB, LeiOtherNameTable, LeiRecordTable } from "../../db-types";
import type { LeiAddress, LeiAutocompleteItem, LeiOtherName, LeiProvider, LeiRecordAnswer, LeiRecordData } from "./types";

/**
 * The LEI provider over the store (migration 0011, filled by the GLEIF
 * golden-copy importers and the demo seed): the same GLEIF shapes as the live
 * adapter, built from `lei_records`, `lei_other_names` and `lei_relationships`.
 * Search (`autocomplete`): an LEI or its start on `lei_records`' unique index, names by
 * FTS5 prefix search over the legal name and the other names (`lei_fts`, which holds no
 * retired, annulled, merged or duplicate record).
 */

/** GLEIF answers ten suggestions; so does the store. */
export const AUTOCOMPLETE_LIMIT = 10;
/**
 * How many name matches (in index order) the suggestions are chosen from: enough that the names starting with the text
 * and the short ones come first, few enough that reading them stays well under a millisecond (docs/decisions/020).
 */
const AUTOCOMPLETE_CANDIDATES = 60;
/** Rows of the wide name query read before falling back to the exact one (about 4 ms over 3,000,000 records). */
const WIDE_PAGES = [200, 800];
const MARK_START = "<b>";
const MARK_END = "</b>";
/**
 * Second characters of the two-letter prefixes a one-letter word is searched as: `lei_fts` has prefix indexes of 2 and
 * 3 characters only, and FTS5 answers a one-letter prefix by merging every word of the index that starts with it (tens
 * of milliseconds over millions of rows), while an OR of two-letter prefixes reads the prefix index lazily.
 */
const SECOND_CHARACTERS = [..."abcdefghijklmnopqrstuvwxyz0123456789æøðþß"];

/**
 * Lower case without accents, as the full-text index folds words (unicode61, remove_diacritics 2; letters such as ø
 * and æ stay as they are in both).
 */
function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The words of a search text as the index sees them (at most 8; the same split as the other full-text searches). */
export function searchWords(term: string): string[] {
  return (fold(term.normalize("NFKC")).match(WORD) ?? []).slice(0, 8);
}

/**
 * A term read as an LEI or the start of one: 4 to 20 characters of A–Z0–9 (any case, spaces around ignored) with at
 * least one digit (a name rarely has one; every LEI has its check digits). Answered from `lei_records`' unique index.
 */
export function leiPrefixOf(term: string): string | null {
  const text = term.trim().toUpperCase();
  return /^[A-Z0-9]{4,20}$/.test(text) && /[0-9]/.test(text) ? text : null;
}

/**
 * The FTS5 query for names: every word must start a word of the legal name or of an other name (the LEI column is
 * left to leiPrefixOf). Null when nothing searchable is left.
 *
 * `lei_fts` has prefix indexes of 2 and 3 characters only. FTS5 reads those lazily, but answers any other prefix by
 * first merging the entries of every word of the index that starts with it (8 ms a word over 3,000,000 records, 120 ms
 * for one letter). So:
 * - a one-letter word becomes the word itself or any two-letter prefix starting with it (always exact);
 * - a word of four or more characters with a digit in it (a number, a code) must be a whole word: as a prefix it would
 *   also gather the LEIs that start with it (exact);
 * - `wide`: a longer word is asked as its first three characters, and a one-letter word beside longer ones is left out
 *   (as 37 alternatives inside an AND it costs tens of milliseconds where the other words match few records), which
 *   finds every match and some more; the caller keeps the rows whose words really start with the words typed
 *   (`hasWords`). Otherwise a longer word is itself a prefix.
 */
export function leiNameMatch(term: string, { wide = false }: { wide?: boolean } = {}): string | null {
  const all = searchWords(term);
  const words = wide && all.some((word) => word.length > 1) ? all.filter((word) => word.length > 1) : all;
  if (words.length === 0) return null;
  const phrases = words.map((word) => {
    if (/^[a-z0-9]$/.test(word)) return `("${word}" OR ${SECOND_CHARACTERS.map((c) => `"${word}${c}"*`).join(" OR ")})`;
    if (word.length >= 4 && /[0-9]/.test(word)) return `"${word}"`;
    return `"${wide ? [...word].slice(0, 3).join("") : word}"*`;
  });
  return `{legal_name other_names} : (${phrases.join(" AND ")})`;
}

/** Whether every search word starts a word of one of these texts (what `leiNameMatch` without `wide` finds). */
export function hasWords(texts: string[], words: string[]): boolean {
  const tokens = texts.flatMap((text) => (text.match(WORD) ?? []).map(fold));
  return words.every((word) => tokens.some((token) => token.startsWith(word)));
}

/** The text with every word that starts with one of the search words in `<b>…</b>`, as GLEIF marks a match. */
export function markMatches(text: string, words: string[]): string {
  return text.replace(WORD, (token) => {
    const folded = fold(token);
    return words.some((word) => folded.startsWith(word)) ? `${MARK_START}${token}${MARK_END}` : token;
  });
}

/**
 * How well the name's start fits the words: 0 when it begins with them in the order typed (the last one may be
 * unfinished), 1 when at least its first word starts with the first word typed, else 2.
 */
export function startRank(name: string, words: string[]): 0 | 1 | 2 {
  const tokens = (name.match(WORD) ?? []).map(fold);
  if (words.length === 0 || !tokens[0]?.startsWith(words[0])) return 2;
  return words.every((word, i) => (i === words.length - 1 ? tokens[i]?.startsWith(word) : tokens[i] === word)) ? 0 : 1;
}

function suggestion(lei: string, legalName: string, value: string, highlighting: string): LeiAutocompleteItem {
  return {
    type: "autocompletions",
    id: lei,
    attributes: { value, highlighting, legalName: { name: legalName } },
    relationships: { "lei-records": { data: { type: "lei-records", id: lei } } },
  };
}

type RecordRow = Selectable<LeiRecordTable>;
type OtherNameRow = Selectable<LeiOtherNameTable>;

function addressLines(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((line): line is string => typeof line === "string") : [];
  } catch {
    return [];
  }
}

function address(lines: string, postalCode: string | null, city: string | null, region: string | null, country: string | null): LeiAddress {
  return {
    language: null,
    addressLines: addressLines(lines),
    addressNumber: null,
    addressNumberWithinBuilding: null,
    mailRouting: null,
    city,
    region,
    country,
    postalCode,
  };
}

function recordData(row: RecordRow, otherNames: OtherNameRow[]): LeiRecordData {
  const names = (transliterated: number): LeiOtherName[] =>
    otherNames.filter((n) => n.transliterated === transliterated).map((n) => ({ name: n.name, language: n.lang, type: n.type }));
  return {
    type: "lei-records",
    id: row.lei,
    attributes: {
      lei: row.lei,
      entity: {
        legalName: { name: row.legal_name, language: row.legal_name_lang },
        otherNames: names(0),
        transliteratedOtherNames: names(1),
        legalAddress: address(row.legal_address_lines, row.legal_postal_code, row.legal_city, row.legal_region, row.legal_country),
        headquartersAddress: address(row.hq_address_lines, row.hq_postal_code, row.hq_city, row.hq_region, row.hq_country),
        registeredAt: { id: row.registered_at, other: null },
        registeredAs: row.registered_as,
        jurisdiction: row.jurisdiction,
        category: row.entity_category,
        legalForm: { id: row.legal_form_code, other: row.legal_form_other },
        status: row.entity_status,
      },
      registration: {
        initialRegistrationDate: row.initial_registration_date,
        lastUpdateDate: row.last_update_date,
        status: row.registration_status,
        nextRenewalDate: row.next_renewal_date,
        managingLou: row.managing_lou,
      },
    },
  };
}

export function createLocalLeiProvider(database: () => Kysely<DB> = defaultDb): LeiProvider {
  /** The records of these LEIs that the store has, in the order asked, each with its other names. */
  async function records(leis: string[]): Promise<LeiRecordData[]> {
    if (leis.length === 0) return [];
    const rows = await database().selectFrom("lei_records").selectAll().where("lei", "in", leis).execute();
    const names = await database().selectFrom("lei_other_names").selectAll().where("lei", "in", leis).orderBy("lei").orderBy("position").execute();
    const byLei = new Map(rows.map((row) => [row.lei, row]));
    return leis.flatMap((lei) => {
      const row = byLei.get(lei);
      return row
        ? [
            recordData(
              row,
              names.filter((n) => n.lei === lei),
            ),
          ]
        : [];
    });
  }

  async function record(lei: string): Promise<LeiRecordAnswer | null> {
    const [data] = await records([lei]);
    return data ? { data } : null;
  }

  /** The active parent of this kind, when the store has its record. */
  async function parent(lei: string, kind: "direct" | "ultimate"): Promise<LeiRecordAnswer | null> {
    const edge = await database()
      .selectFrom("lei_relationships")
      .select("parent_lei")
      .where("child_lei", "=", lei)
      .where("kind", "=", kind)
      .where("relationship_status", "=", "ACTIVE")
      .orderBy("start_date", "desc")
      .executeTakeFirst();
    return edge ? record(edge.parent_lei) : null;
  }

  type NameHit = { lei: string; legal_name: string; other_names: string };

  /**
   * Up to AUTOCOMPLETE_CANDIDATES records whose names match the words, the first in index order. bm25 over every match
   * of a short prefix reads millions of rows, while this stays bounded whatever the store's size (docs/decisions/020).
   * First the wide query read lazily (a page, then a few more), keeping the rows that really match; when those pages
   * hold fewer than ten real matches, the exact query, which costs a few milliseconds a long word.
   */
  async function nameCandidates(term: string, words: string[]): Promise<NameHit[]> {
    const wide = leiNameMatch(term, { wide: true });
    const exact = leiNameMatch(term);
    if (!wide || !exact) return [];
    const page = (match: string, limit: number, offset: number) =>
      sql<NameHit>`select lei, legal_name, other_names from lei_fts where lei_fts match ${match} limit ${limit} offset ${offset}`
        .execute(database())
        .then((result) => result.rows);
    if (wide === exact) return page(exact, AUTOCOMPLETE_CANDIDATES, 0);
    const found: NameHit[] = [];
    let read = 0;
    for (const size of WIDE_PAGES) {
      const rows = await page(wide, size, read);
      read += rows.length;
      found.push(...rows.filter((row) => hasWords([row.legal_name, row.other_names], words)));
      if (found.length >= AUTOCOMPLETE_CANDIDATES || rows.length < size) return found.slice(0, AUTOCOMPLETE_CANDIDATES);
    }
    return found.length >= AUTOCOMPLETE_LIMIT ? found.slice(0, AUTOCOMPLETE_CANDIDATES) : page(exact, AUTOCOMPLETE_CANDIDATES, 0);
  }

  return {
    name: "local",

    async autocomplete(term) {
      const items: LeiAutocompleteItem[] = [];
      const lei = leiPrefixOf(term);
      if (lei) {
        // A range of the unique index; only records the search holds (lei_fts has no retired, annulled, merged or
        // duplicate record).
        const hits = await sql<{ lei: string; legal_name: string }>`
          select r.lei, r.legal_name from lei_records r
          where r.lei >= ${lei} and r.lei < ${`${lei}~`} and exists (select 1 from lei_fts f where f.rowid = r.id)
          order by r.lei limit ${AUTOCOMPLETE_LIMIT}`.execute(database());
        items.push(...hits.rows.map((hit) => suggestion(hit.lei, hit.legal_name, hit.lei, `${MARK_START}${hit.lei}${MARK_END}`)));
        // A full page of LEIs: a name search would first gather every LEI of the index starting with these characters.
        if (items.length === AUTOCOMPLETE_LIMIT) return items;
      }
      const words = searchWords(term);
      const hits = await nameCandidates(term, words);
      const matches = (text: string) => (text.match(WORD) ?? []).some((token) => words.some((word) => fold(token).startsWith(word)));
      const seen = new Set(items.map((item) => item.id));
      const ranked = hits
        .filter((hit) => !seen.has(hit.lei))
        .map((hit) => ({ hit, starts: startRank(hit.legal_name, words), inLegalName: matches(hit.legal_name) ? 0 : 1 }))
        .sort(
          (a, b) =>
            a.starts - b.starts || a.inLegalName - b.inLegalName || a.hit.legal_name.length - b.hit.legal_name.length || a.hit.lei.localeCompare(b.hit.lei),
        )
        .slice(0, AUTOCOMPLETE_LIMIT - items.length);
      for (const { hit, inLegalName } of ranked) {
        // The legal name when it matched; else the other name that did, as GLEIF shows the matched text.
        const other = inLegalName === 0 ? undefined : hit.other_names.split("\n").find(matches);
        const value = other ?? hit.legal_name;
        items.push(suggestion(hit.lei, hit.legal_name, value, markMatches(value, words)));
      }
      return items;
    },

    record,

    async directChildren(lei) {
      const edges = await database()
        .selectFrom("lei_relationships")
        .select("child_lei")
        .where("parent_lei", "=", lei)
        .where("kind", "=", "direct")
        .where("relationship_status", "=", "ACTIVE")
        .orderBy("child_lei")
        .execute();
      const children: LeiRecordData[] = [];
      // SQLite allows a limited number of bound values: ask in slices.
      for (let i = 0; i < edges.length; i += 500) children.push(...(await records(edges.slice(i, i + 500).map((e) => e.child_lei))));
      return children;
    },

    ultimateParent: (lei) => parent(lei, "ultimate"),

    async managingLou(lei) {
      const row = await database().selectFrom("lei_records").select("managing_lou").where("lei", "=", lei).executeTakeFirst();
      return row?.managing_lou ? record(row.managing_lou) : null;
    },
  };
}
