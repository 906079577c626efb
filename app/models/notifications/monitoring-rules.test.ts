import { describe, expect, it } from "vitest";
import {
  announcementScore,
  boardChangeScore,
  changeDigest,
  detectRegistryChanges,
  financialBandScore,
  registryCompanyUrl,
  REGISTRY_TEXTS,
  type RegistryCompanyState,
} from "~/models/notifications/monitoring-rules";

const AT = "2026-11-24T08:00:00.000Z";

function state(overrides: Partial<RegistryCompanyState> = {}): RegistryCompanyState {
  return {
    orgNumber: "923609016",
    name: "Equinor ASA",
    countryCode: "NO",
    orgForm: "ASA",
    orgFormDescription: "Allmennaksjeselskap",
    streetAddress: "Forusbeen 50",
    streetPostalCode: "4035",
    streetPostalArea: "STAVANGER",
    municipality: "STAVANGER",
    municipalityCode: "1103",
    isBankrupt: false,
    bankruptcyDate: null,
    isUnderLiquidation: false,
    isUnderForcedLiquidation: false,
    deletedAt: null,
    roles: [
      { name: "Kari Nordmann", birthYear: 1970, position: "Daglig leder (CEO)" },
      { name: "Ola Hansen", birthYear: 1960, position: "Styrets leder" },
      { name: "Per Berg", birthYear: 1965, position: "Styremedlem" },
      { name: "Anne Lie", birthYear: 1975, position: "Styremedlem" },
    ],
    latestStatement: { year: 2024, score: 30 },
    announcements: [{ date: "2025-03-01", type: "Endring av vedtekter", detail: null, risk: 1 }],
    ...overrides,
  };
}

const detect = (after: Partial<RegistryCompanyState>, before: Partial<RegistryCompanyState> = {}) => detectRegistryChanges(state(before), state(after), AT);

describe("detectRegistryChanges: each rule, its scores and texts", () => {
  const roles = state().roles;
  const cases: Array<{
    name: string;
    after: Partial<RegistryCompanyState>;
    before?: Partial<RegistryCompanyState>;
    kind: string;
    risk: number;
    relevance: number;
    en: string;
    no: string;
    date?: string;
  }> = [
    {
      name: "bankruptcy",
      after: { isBankrupt: true, bankruptcyDate: "2026-11-20" },
      kind: "bankruptcy",
      risk: 95,
      relevance: 100,
      en: "Bankruptcy proceedings opened against Equinor ASA",
      no: "Konkurs åpnet i Equinor ASA",
      date: "2026-11-20",
    },
    {
      name: "compulsory dissolution",
      after: { isUnderLiquidation: true, isUnderForcedLiquidation: true },
      kind: "compulsory_dissolution",
      risk: 90,
      relevance: 100,
      en: "Equinor ASA is under compulsory dissolution",
      no: "Equinor ASA er under tvangsoppløsning",
    },
    {
      name: "voluntary dissolution",
      after: { isUnderLiquidation: true },
      kind: "voluntary_dissolution",
      risk: 70,
      relevance: 90,
      en: "Equinor ASA is being wound up",
      no: "Equinor ASA er under avvikling",
    },
    {
      name: "deletion",
      after: { deletedAt: "2026-11-21" },
      kind: "deletion",
      risk: 85,
      relevance: 100,
      en: "Equinor ASA has been deleted from the register",
      no: "Equinor ASA er slettet fra registeret",
      date: "2026-11-21",
    },
    {
      name: "CEO change",
      after: { roles: [{ name: "Nils Dahl", birthYear: 1980, position: "Daglig leder (CEO)" }, ...roles.slice(1)] },
      kind: "ceo_change",
      risk: 50,
      relevance: 80,
      en: "New CEO at Equinor ASA",
      no: "Ny daglig leder i Equinor ASA",
    },
    {
      name: "CEO left without a successor",
      after: { roles: roles.slice(1) },
      kind: "ceo_change",
      risk: 60,
      relevance: 80,
      en: "New CEO at Equinor ASA",
      no: "Ny daglig leder i Equinor ASA",
    },
    {
      name: "chair change (a board member becomes chair, the old chair stays a member)",
      after: {
        roles: [roles[0], { ...roles[1], position: "Styremedlem" }, { ...roles[2], position: "Styrets leder" }, roles[3]],
      },
      kind: "chair_change",
      risk: 45,
      relevance: 70,
      en: "New chair of the board at Equinor ASA",
      no: "Ny styreleder i Equinor ASA",
    },
    {
      name: "board change (one of three replaced)",
      after: { roles: [...roles.slice(0, 3), { name: "Eva Moe", birthYear: 1982, position: "Board member" }] },
      kind: "board_change",
      risk: 33,
      relevance: 57,
      en: "Board change at Equinor ASA",
      no: "Endring i styret i Equinor ASA",
    },
    {
      name: "address change within the municipality",
      after: { streetAddress: "Forusbeen 52" },
      kind: "address_change",
      risk: 20,
      relevance: 40,
      en: "Equinor ASA has a new business address",
      no: "Equinor ASA har ny forretningsadresse",
    },
    {
      name: "address change to another municipality",
      after: { streetAddress: "Karl Johans gate 1", streetPostalCode: "0154", streetPostalArea: "OSLO", municipality: "OSLO", municipalityCode: "0301" },
      kind: "address_change",
      risk: 30,
      relevance: 60,
      en: "Equinor ASA has a new business address",
      no: "Equinor ASA har ny forretningsadresse",
    },
    {
      name: "country change (moved abroad)",
      after: { countryCode: "SE", streetAddress: "Drottninggatan 1", streetPostalCode: "11151", streetPostalArea: "STOCKHOLM" },
      kind: "country_change",
      risk: 65,
      relevance: 90,
      en: "Equinor ASA has moved its business address to another country",
      no: "Equinor ASA har flyttet forretningsadressen til et annet land",
    },
    {
      name: "organisation form change",
      after: { orgForm: "AS" },
      kind: "org_form_change",
      risk: 40,
      relevance: 60,
      en: "Equinor ASA has changed its organization form",
      no: "Equinor ASA har endret organisasjonsform",
    },
    {
      name: "new accounts crossing into red",
      after: { latestStatement: { year: 2025, score: 70 } },
      kind: "financial_band",
      risk: 75,
      relevance: 90,
      en: "New annual accounts: higher financial risk at Equinor ASA",
      no: "Nytt årsregnskap: høyere finansiell risiko i Equinor ASA",
    },
    {
      name: "new accounts crossing into green",
      before: { latestStatement: { year: 2024, score: 50 } },
      after: { latestStatement: { year: 2025, score: 20 } },
      kind: "financial_band",
      risk: 15,
      relevance: 50,
      en: "New annual accounts: lower financial risk at Equinor ASA",
      no: "Nytt årsregnskap: lavere finansiell risiko i Equinor ASA",
    },
    {
      name: "new announcement of risk 3",
      after: {
        announcements: [...state().announcements, { date: "2026-11-19", type: "Konkursåpning", detail: "Konkurs åpnet ved Stavanger tingrett", risk: 3 }],
      },
      kind: "announcement",
      risk: 80,
      relevance: 100,
      en: "New announcement for Equinor ASA: Konkursåpning",
      no: "Ny kunngjøring for Equinor ASA: Konkursåpning",
      date: "2026-11-19",
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const found = detect(c.after, c.before);
      expect(found.map((f) => f.kind)).toEqual([c.kind]);
      const [n] = found;
      expect([n.riskScore, n.relevanceScore]).toEqual([c.risk, c.relevance]);
      expect(n.title).toEqual({ en: c.en, no: c.no });
      expect(n.description.en.length).toBeGreaterThan(0);
      expect(n.description.no.length).toBeGreaterThan(0);
      expect(n.description.no).not.toEqual(c.kind === "announcement" ? "" : n.description.en);
      expect(n).toMatchObject({ type: "announcement", source: "Brønnøysundregistrene", url: "https://virksomhet.brreg.no/nb/oppslag/enheter/923609016" });
      expect(n.dedupeKey).toMatch(/^registry:923609016:[a-z_]+:[0-9a-f]{16}$/);
      expect(n.date).toBe(c.date ?? "2026-11-24");
    });
  }
});

describe("detectRegistryChanges: nothing to raise", () => {
  it("raises nothing on first sight of a company", () => {
    expect(detectRegistryChanges(null, state({ isBankrupt: true }), AT)).toEqual([]);
  });

  it("raises nothing when nothing relevant changed (name spelling of the address, staff, a first load of roles, a low-risk announcement)", () => {
    expect(detect({})).toEqual([]);
    expect(detect({ streetAddress: "FORUSBEEN  50", streetPostalArea: "Stavanger" })).toEqual([]);
    expect(detect({ roles: state().roles }, { roles: [] })).toEqual([]);
    expect(detect({ latestStatement: { year: 2025, score: 33 } })).toEqual([]);
    expect(detect({ latestStatement: { year: 2025, score: 60 } }, { latestStatement: null })).toEqual([]);
    expect(detect({ announcements: [...state().announcements, { date: "2026-11-01", type: "Navneendring", detail: null, risk: 1 }] })).toEqual([]);
    // Still bankrupt is no new bankruptcy.
    expect(detect({ isBankrupt: true }, { isBankrupt: true })).toEqual([]);
    // An address filled in where none was recorded is not a move.
    expect(detect({}, { streetAddress: null, streetPostalCode: null, streetPostalArea: null })).toEqual([]);
  });

  it("tells a move abroad once (country), not also as an address change", () => {
    expect(detect({ countryCode: "DK", streetAddress: "Strøget 1" }).map((n) => n.kind)).toEqual(["country_change"]);
  });

  it("a new chair from outside the board is a chair change, not also a board change", () => {
    const roles = state().roles;
    const found = detect({ roles: [roles[0], { name: "Siri Vik", birthYear: 1971, position: "Styrets leder" }, roles[2], roles[3]] });
    expect(found.map((n) => n.kind)).toEqual(["chair_change"]);
    expect(found[0].details).toEqual({ from: "Ola Hansen", to: "Siri Vik" });
    expect(found[0].description.en).toBe("The chair of the board of Equinor ASA changed from Ola Hansen to Siri Vik.");
    expect(found[0].description.no).toBe("Styreleder i Equinor ASA er endret fra Ola Hansen til Siri Vik.");
  });

  it("the same change gives the same dedupe key, another change another", () => {
    const a = detect({ isBankrupt: true, bankruptcyDate: "2026-11-20" })[0].dedupeKey;
    expect(detect({ isBankrupt: true, bankruptcyDate: "2026-11-20" })[0].dedupeKey).toBe(a);
    expect(detect({ isBankrupt: true, bankruptcyDate: "2026-11-22" })[0].dedupeKey).not.toBe(a);
    expect(detectRegistryChanges(state(), state({ isBankrupt: true, bankruptcyDate: "2026-11-20" }), "2027-01-01T00:00:00Z")[0].dedupeKey).toBe(a);
  });
});

describe("the score rules", () => {
  it.each([
    [0, 20, 40],
    [0.5, 40, 65],
    [1, 60, 90],
    [3, 60, 90],
  ])("board change: share %s → risk %s, relevance %s", (share, risk, relevance) => {
    expect(boardChangeScore(share)).toEqual({ risk, relevance });
  });

  it.each([
    [30, 34, { risk: 50, relevance: 90, worse: true }],
    [30, 67, { risk: 75, relevance: 90, worse: true }],
    [60, 67, { risk: 75, relevance: 90, worse: true }],
    [80, 40, { risk: 15, relevance: 50, worse: false }],
    [10, 33, null],
    [34, 66, null],
  ])("financial band: %s → %s", (from, to, expected) => {
    expect(financialBandScore(from, to)).toEqual(expected);
  });

  it.each([
    [1, null],
    [2, { risk: 60, relevance: 100 }],
    [3, { risk: 80, relevance: 100 }],
    [5, { risk: 90, relevance: 100 }],
  ])("announcement of risk %s → %s", (risk, expected) => {
    expect(announcementScore(risk)).toEqual(expected);
  });

  it("has both languages for every kind, and a digest that is short and stable", () => {
    for (const t of Object.values(REGISTRY_TEXTS)) {
      expect(t.en.title).toContain("{name}");
      expect(t.no.title).toContain("{name}");
    }
    expect(changeDigest({ a: 1 })).toBe(changeDigest({ a: 1 }));
    expect(changeDigest({ a: 1 })).not.toBe(changeDigest({ a: 2 }));
    expect(registryCompanyUrl("923609016")).toBe("https://virksomhet.brreg.no/nb/oppslag/enheter/923609016");
  });
});
