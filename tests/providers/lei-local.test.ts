import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { createLocalLeiProvider, hasWords, leiNameMatch, leiPrefixOf, markMatches, searchWords, startRank } from "@server/providers/lei/local";

describe("the local LEI search's rules", () => {
  it.each([
    ["5299001ERX0K10IZUL40", "5299001ERX0K10IZUL40"],
    [" 254900rx ", "254900RX"],
    ["5299", "5299"],
    ["529", null], // too short: a name prefix
    ["nordic", null], // no digit: a name
    ["3m co", null], // a space: a name
    ["5299001ERX0K10IZUL401", null], // longer than an LEI
    ["5299-001", null],
  ])("reads %j as the LEI prefix %j", (term, lei) => {
    expect(leiPrefixOf(term)).toBe(lei);
  });

  it("splits a text into the index's words: lower case, accents dropped, at most 8", () => {
    expect(searchWords("  Café  S.A. — Øst ")).toEqual(["cafe", "s", "a", "øst"]);
    expect(searchWords('"*  ')).toEqual([]);
    expect(searchWords("a b c d e f g h i j")).toHaveLength(8);
  });

  it("asks names only, a one-letter word as two-letter prefixes, a long word with a digit whole", () => {
    expect(leiNameMatch("fra airp")).toBe('{legal_name other_names} : ("fra"* AND "airp"*)');
    expect(leiNameMatch("holding 2019 a")).toMatch(/^\{legal_name other_names\} : \("holding"\* AND "2019" AND \("a" OR "aa"\* OR "ab"\* OR .* OR "a9"\*/);
    expect(leiNameMatch("  ")).toBeNull();
  });

  it("widens long words to their first three characters and leaves one-letter words beside longer ones to the caller", () => {
    expect(leiNameMatch("Nordic po A", { wide: true })).toBe('{legal_name other_names} : ("nor"* AND "po"*)');
    expect(leiNameMatch("s a", { wide: true })).toBe(leiNameMatch("s a"));
    expect(leiNameMatch("østlandet", { wide: true })).toBe('{legal_name other_names} : ("øst"*)');
  });

  it("keeps a wide match only when every word starts a word of the names", () => {
    expect(hasWords(["Nordic Polar AS", ""], ["nord", "pol", "a"])).toBe(true);
    expect(hasWords(["Norway Polar AS", "Nordlys"], ["nord", "pol"])).toBe(true); // an other name
    expect(hasWords(["Norway Polar AS", ""], ["nord", "pol"])).toBe(false);
    expect(hasWords(["Fjordkraft Østlandet AS"], ["østl"])).toBe(true);
  });

  it("marks every word that starts with a search word, keeping the text as written", () => {
    expect(markMatches("Fraport AG Frankfurt Airport Services", ["fra", "airp"])).toBe("<b>Fraport</b> AG <b>Frankfurt</b> <b>Airport</b> Services");
    expect(markMatches("Café Nord-Øst S.A.", ["cafe", "øs", "s"])).toBe("<b>Café</b> Nord-<b>Øst</b> <b>S</b>.A.");
    expect(markMatches("Global X", ["y"])).toBe("Global X");
  });

  it("ranks a name that begins with the words typed first, then one whose first word fits", () => {
    expect(startRank("Nordic Polar Energy AS", ["nordic", "po"])).toBe(0);
    expect(startRank("Nordic Polar Energy AS", ["nord"])).toBe(0);
    expect(startRank("Nordic Energy Polar AS", ["nordic", "po"])).toBe(1);
    expect(startRank("Nordicx Polar AS", ["nordic", "po"])).toBe(1);
    expect(startRank("Oak Nordic Polar AS", ["nordic", "po"])).toBe(2);
  });
});

describe("the local provider's autocomplete over the store", () => {
  const provider = createLocalLeiProvider();
  const at = "2025-05-15T00:00:00Z";
  const lei = (n: number) => `984500TEST${String(n).padStart(8, "0")}00`;
  const record = (id: number, legalName: string, status = "ISSUED") => ({
    id,
    lei: lei(id),
    legal_name: legalName,
    registration_status: status,
    updated_at: at,
    legal_address_lines: "[]",
    hq_address_lines: "[]",
  });

  beforeAll(async () => {
    // 1,100 names sharing their first three letters with "Nordic", so that a wide query's pages hold no real match.
    const rows = [
      ...Array.from({ length: 1100 }, (_, i) => record(i + 1, `Norway Shipping ${i + 1} AS`)),
      record(2001, "Nordic Polar Energy AS"),
      record(2002, "Fjordkraft Østlandet AS"),
      record(2003, "Oak Nordic Holding AB"),
      record(2004, "Nordic Retired AS", "RETIRED"),
    ];
    for (let i = 0; i < rows.length; i += 200)
      await db()
        .insertInto("lei_records")
        .values(rows.slice(i, i + 200))
        .execute();
    // As the importer keeps it: no search entry for a retired record.
    for (const row of rows.filter((r) => r.registration_status !== "RETIRED")) {
      await sql`insert into lei_fts (rowid, lei, legal_name, other_names) values (${row.id}, ${row.lei}, ${row.legal_name}, '')`.execute(db());
    }
  });

  const names = async (term: string) => (await provider.autocomplete(term)).map((item) => item.attributes.legalName?.name);

  it("finds a name the first thousand wide matches do not hold, the name starting with the words first", async () => {
    expect(await names("nordic")).toEqual(["Nordic Polar Energy AS", "Oak Nordic Holding AB"]);
    expect(await names("nord pol e")).toEqual(["Nordic Polar Energy AS"]);
  });

  it("answers one letter and two letters from the prefix index, shortest names first among the first matches", async () => {
    const items = await provider.autocomplete("n");
    expect(items).toHaveLength(10);
    expect(items[0].attributes).toEqual({
      value: "Norway Shipping 1 AS",
      highlighting: "<b>Norway</b> Shipping 1 AS",
      legalName: { name: "Norway Shipping 1 AS" },
    });
    const lengths = (await names("no")).map((name) => name!.length);
    expect(lengths).toHaveLength(10);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });

  it("folds accents as the index does and highlights the word as written", async () => {
    expect(await provider.autocomplete("ostl")).toEqual([]);
    const [item] = await provider.autocomplete("østl");
    expect(item.attributes.highlighting).toBe("Fjordkraft <b>Østlandet</b> AS");
  });

  it("finds an LEI by its start on the index, never a retired record, and a full LEI", async () => {
    const items = await provider.autocomplete(lei(2001).slice(0, 16).toLowerCase());
    expect(items.map((item) => item.id)).toEqual([lei(2001), lei(2002), lei(2003)]);
    expect(items[0].attributes).toMatchObject({ value: lei(2001), highlighting: `<b>${lei(2001)}</b>`, legalName: { name: "Nordic Polar Energy AS" } });
    expect((await provider.autocomplete(lei(2004))).map((item) => item.id)).toEqual([]);
    expect((await provider.autocomplete(lei(2003))).map((item) => item.id)).toEqual([lei(2003)]);
    // Ten LEIs or more: the first ten in LEI order.
    expect((await provider.autocomplete("984500TEST")).map((item) => item.id)).toEqual([...Array(10).keys()].map((i) => lei(i + 1)));
  });
});
