import { describe, expect, it } from "vitest";
import { assessRisk, fold, itemIdentity, matchItem, nameForms, NEUTRAL_RISK, newsDedupeKey, RISK_TOPICS, tokens } from "~/models/notifications/news-rules";

const suppliers = [
  { companyId: 1, name: "Bjørnstad Maskin AS" },
  { companyId: 2, name: "Eltera AS" },
  { companyId: 3, name: "Bygg AS" },
  { companyId: 4, name: "Consulting AS" },
  { companyId: 5, name: "Aktieselskapet Vinmonopolet" },
  { companyId: 6, name: "Ålesund Fiskeredskap AS" },
  { companyId: 7, name: "Nordic Partners AS" },
  { companyId: 8, name: "Kongsberg Gruppen ASA" },
  { companyId: 9, name: "Aker AS" },
  { companyId: 10, name: "Kjell & Co Norway AS" },
  { companyId: 11, name: "Svipp Ltd" },
  { companyId: 12, name: "Tre AS" },
];

const ids = (title: string, summary = "") => matchItem({ title, summary }, suppliers).map((m) => m.companyId);

describe("fold and tokens", () => {
  it.each([
    ["Bjørnstad", "bjornstad"],
    ["Bjoernstad", "bjornstad"],
    ["BJORNSTAD", "bjornstad"],
    ["Ålesund", "alesund"],
    ["Aalesund", "alesund"],
    ["Bærum", "baerum"],
    ["Nestlé", "nestle"],
  ])("%s → %s", (input, out) => expect(fold(input)).toBe(out));

  it("splits on everything but letters and digits", () => {
    expect(tokens("«Eltera AS» går konkurs – igjen!")).toEqual(["eltera", "as", "gar", "konkurs", "igjen"]);
  });
});

describe("nameForms: short names and distinctiveness", () => {
  it.each([
    ["Kongsberg Gruppen ASA", ["kongsberg", "gruppen"], null],
    ["Aktieselskapet Vinmonopolet", ["vinmonopolet"], null],
    ["AS Nestlé Norge", ["nestle", "norge"], null],
    ["Kjell & Co Norway AS", ["kjell", "co", "norway"], null],
    ["Svipp Ltd", ["svipp"], null],
    ["Bygg AS", ["bygg"], "stop_words"],
    ["Consulting AS", ["consulting"], "stop_words"],
    ["Nordic Partners AS", ["nordic", "partners"], "stop_words"],
    ["Norsk Bygg og Anlegg AS", ["norsk", "bygg", "og", "anlegg"], "stop_words"],
    ["Tre AS", ["tre"], "stop_words"],
    ["ABC AS", ["abc"], "too_short"],
    ["AS", ["as"], "empty"],
  ])("%s", (name, short, generic) => {
    const forms = nameForms(name);
    expect(forms.short).toEqual(short);
    expect(forms.generic).toBe(generic);
  });

  it("gives a subsidiary's name without its country word as an alias, unless that is generic", () => {
    expect(nameForms("Kjell & Co Norway AS").alias).toEqual(["kjell", "co"]);
    expect(nameForms("Consulting Norge AS").generic).toBe("stop_words");
    expect(nameForms("Bygg Norway AS").alias).toBeNull();
  });
});

describe("matchItem: true matches", () => {
  it.each([
    ["English headline, legal name", "Eltera AS reports record quarter", [2]],
    ["Norwegian headline, short name", "Eltera vinner stor kontrakt i Trøndelag", [2]],
    ["case-insensitive", "ELTERA wins tender", [2]],
    ["ø written as o", "Bjornstad Maskin sued by former partner", [1]],
    ["ø written as oe", "Bjoernstad Maskin AS i retten", [1]],
    ["å written as aa", "Aalesund Fiskeredskap kjøpt opp", [6]],
    ["å written as å in the text, aa in the name's partner spelling", "Ålesund Fiskeredskap AS utvider", [6]],
    ["a leading legal form word", "Vinmonopolet endrer åpningstidene", [5]],
    ["punctuation inside the name", "Kjell & Co opens new stores", [10]],
    ["Ltd dropped", "Svipp launches app", [11]],
    ["in quotes and possessive-free", "«Kongsberg Gruppen» signs deal", [8]],
  ])("%s", (_label, title, expected) => expect(ids(title)).toEqual(expected));

  it("finds a name in the summary too, and several suppliers in one item", () => {
    expect(ids("Strømprisene stiger", "Både Eltera og Kongsberg Gruppen ASA merker det.")).toEqual([2, 8]);
  });
});

describe("matchItem: no false matches", () => {
  it.each([
    ["a generic name in Norwegian", "Nytt bygg as planlagt i sentrum", []],
    ["a generic name in English", "Consulting as a career: what to know", []],
    ["a name inside a longer word", "Elterasjonen av markedet", []],
    ["Aker inside Akershus", "Flom i Akershus", []],
    ["a generic word of a longer name alone", "Gruppen møttes i Kongsberg", []],
    ["a common word as the whole name", "Tre nye butikker åpner", []],
    ["stop words only", "Nordic partners meet in Oslo", []],
    ["the short name's words apart", "Bjørnstad fikk ny maskin", []],
  ])("%s", (_label, title, expected) => expect(ids(title)).toEqual(expected));

  it("matches 'Aker' as a whole word only", () => {
    expect(ids("Aker AS kjøper aksjer")).toEqual([9]);
    expect(ids("Akerselva flommer over")).toEqual([]);
  });
});

describe("relevance", () => {
  const one = (title: string, summary = "") => matchItem({ title, summary }, [{ companyId: 8, name: "Kongsberg Gruppen ASA" }])[0];
  it.each([
    ["legal name in the headline", "Kongsberg Gruppen ASA wins order", "", "legal_name", "title", 100],
    ["legal name only in the summary", "Defence order placed", "Kongsberg Gruppen ASA delivers.", "legal_name", "summary", 80],
    ["short name in the headline", "Kongsberg Gruppen wins order", "", "short_name", "title", 75],
    ["short name only in the summary", "Order placed", "Delivered by Kongsberg Gruppen.", "short_name", "summary", 55],
    ["mentioned in both: the headline counts, a second mention adds", "Kongsberg Gruppen wins", "Kongsberg Gruppen said…", "short_name", "title", 80],
  ])("%s", (_label, title, summary, by, where, relevance) => {
    expect(one(title, summary)).toMatchObject({ by, in: where, relevance });
  });
});

describe("assessRisk", () => {
  it.each([
    ["konkurs (Norwegian, inflected)", "Eltera AS er slått konkurs", "", 90, "bankruptcy"],
    ["konkursen in the summary only", "Nytt fra Eltera", "Bobestyrer har overtatt konkursboet.", 77, "bankruptcy"],
    ["bedrageri", "Eltera-sjef siktet for bedrageri", "", 90, "fraud"],
    ["korrupsjon", "Granskning av mulig korrupsjon i Eltera", "", 85, "corruption"],
    ["tvangsarbeid", "Leverandør anklages for tvangsarbeid", "", 90, "forced_labour"],
    ["hvitvasking", "Eltera etterforskes for hvitvasking", "", 90, "money_laundering"],
    ["underslag", "Tidligere økonomisjef dømt for underslag", "", 90, "fraud"],
    ["sanksjoner", "Eltera bryter sanksjonene mot Russland", "", 80, "sanctions"],
    ["fraud", "Eltera executives charged with fraud", "", 90, "fraud"],
    ["bribery", "Bribery probe into Eltera", "", 90, "corruption"],
    ["forced labour (British)", "Forced labour found at supplier", "", 90, "forced_labour"],
    ["forced labor (American)", "Forced labor found at supplier", "", 90, "forced_labour"],
    ["child labour", "Child labour in the supply chain", "", 90, "forced_labour"],
    ["sanctions", "Company added to sanctions list", "", 80, "sanctions"],
    ["money laundering", "Money laundering alleged", "", 85, "money_laundering"],
    ["embezzlement", "Embezzlement trial begins", "", 85, "fraud"],
  ])("%s", (_label, title, summary, score, topic) => {
    const risk = assessRisk({ title, summary });
    expect(risk.topics[0]).toBe(topic);
    expect(risk.score).toBe(score);
  });

  it.each([
    ["Eltera opens a new office in Bergen", ""],
    ["Eltera åpner nytt kontor i Bergen", "Selskapet ansetter 20 nye."],
    ["Eltera reports a record quarter", "Revenue grew by 12 per cent."],
  ])("a neutral article scores low: %s", (title, summary) => {
    expect(assessRisk({ title, summary })).toEqual({ score: NEUTRAL_RISK, topics: [] });
  });

  it("never exceeds 100, and every topic's weight is within 0–100", () => {
    expect(assessRisk({ title: "Konkurs, bedrageri, korrupsjon, hvitvasking og tvangsarbeid", summary: "" }).score).toBe(100);
    for (const { weight } of Object.values(RISK_TOPICS)) expect(weight).toBeGreaterThan(NEUTRAL_RISK);
  });

  it("does not take a word that merely starts like a keyword in the middle of a phrase", () => {
    expect(assessRisk({ title: "The company's default settings", summary: "" }).score).toBe(NEUTRAL_RISK);
  });
});

describe("dedupe key", () => {
  it("is news:{org}:{company}:{sha256 of guid, else link, else title}", async () => {
    const key = await newsDedupeKey(3, 7, { guid: "abc", link: "https://x.test/1", title: "T" });
    expect(key).toBe("news:3:7:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(itemIdentity({ guid: " ", link: "https://x.test/1", title: "T" })).toBe("https://x.test/1");
    expect(itemIdentity({ guid: null, link: null, title: " T " })).toBe("T");
    expect(await newsDedupeKey(4, 7, { guid: "abc", title: "T" })).not.toBe(key);
  });
});
