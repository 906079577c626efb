import { sql, type Kysely, type Selectable } from "kysely";
import { ftsQuery } from "~/models/fts";
import { db as defaultDb } from "../../db";
import type { DB, LeiOtherNameTable, LeiRecordTable } from "../../db-types";
import type { LeiAddress, LeiAutocompleteItem, LeiOtherName, LeiProvider, LeiRecordAnswer, LeiRecordData } from "./types";

/**
 * The LEI provider over the store (migration 0011, filled by the GLEIF
 * golden-copy importers and the demo seed): the same GLEIF shapes as the live
 * adapter, built from `lei_records`, `lei_other_names` and `lei_relationships`.
 * Search is FTS5 prefix search over the LEI, the legal name and the other
 * names (`lei_fts`, which holds no retired, annulled, merged or duplicate record).
 */

/** GLEIF answers ten suggestions; so does the store. */
export const AUTOCOMPLETE_LIMIT = 10;
/** How many matches (in index order) the suggestions are chosen from. */
const AUTOCOMPLETE_CANDIDATES = 200;
const MARK_START = "<b>";
const MARK_END = "</b>";

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

  return {
    name: "local",

    async autocomplete(term) {
      const match = ftsQuery(term);
      if (!match) return [];
      // The first candidates in index order, ordered here: bm25 over every match of a short prefix ("a") reads millions
      // of rows, while this stays bounded whatever the store's size (docs/decisions/020).
      const hits = await sql<{ lei: string; legal_name: string; name_marked: string; other_marked: string; lei_marked: string }>`
        select lei, legal_name,
          highlight(lei_fts, 1, ${MARK_START}, ${MARK_END}) as name_marked,
          highlight(lei_fts, 2, ${MARK_START}, ${MARK_END}) as other_marked,
          highlight(lei_fts, 0, ${MARK_START}, ${MARK_END}) as lei_marked
        from lei_fts where lei_fts match ${match} limit ${AUTOCOMPLETE_CANDIDATES}`.execute(database());
      const wanted = term.normalize("NFKC").trim().toLowerCase();
      const order = (hit: (typeof hits.rows)[number]) => [
        hit.legal_name.normalize("NFKC").toLowerCase().startsWith(wanted) ? 0 : 1,
        hit.name_marked.includes(MARK_START) ? 0 : 1,
        hit.legal_name.length,
      ];
      const ranked = hits.rows
        .map((hit) => ({ hit, key: order(hit) }))
        .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2] || a.hit.lei.localeCompare(b.hit.lei))
        .slice(0, AUTOCOMPLETE_LIMIT);
      return ranked.map(({ hit }): LeiAutocompleteItem => {
        // The legal name when it matched; else the other name (or the LEI) that did, as GLEIF shows the matched text.
        const otherLine = hit.other_marked.split("\n").find((line) => line.includes(MARK_START));
        const [value, highlighting] = hit.name_marked.includes(MARK_START)
          ? [hit.legal_name, hit.name_marked]
          : otherLine
            ? [otherLine.replaceAll(MARK_START, "").replaceAll(MARK_END, ""), otherLine]
            : [hit.lei, hit.lei_marked];
        return {
          type: "autocompletions",
          id: hit.lei,
          attributes: { value, highlighting, legalName: { name: hit.legal_name } },
          relationships: { "lei-records": { data: { type: "lei-records", id: hit.lei } } },
        };
      });
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
