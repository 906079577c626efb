import { riskBandColor, type RiskBand } from "~/models/suppliers/risk";
import { roleCode } from "~/models/registry/roles";

/**
 * Registry monitoring rules (docs/decisions/023-registry-monitoring.md): what a change in a followed company's
 * registry data is worth as a notification. Pure — no server imports — so the rules are table-tested on their own and the
 * same everywhere the registry changes (bulk import, roles import, the live refresh, Brønnøysund's update feed).
 *
 * `detectRegistryChanges(before, after, at)` compares two states of one company and returns what to raise. A company seen
 * for the first time (`before` null) raises nothing: there is no change to speak of, only a first picture.
 *
 * Scores (risk 0–100, relevance 0–100 percent), one rule per kind:
 * | kind                   | risk                                                    | relevance                                   |
 * |------------------------|---------------------------------------------------------|---------------------------------------------|
 * | bankruptcy             | 95                                                      | 100                                         |
 * | compulsory_dissolution | 90                                                      | 100                                         |
 * | deletion               | 85                                                      | 100                                         |
 * | voluntary_dissolution  | 70                                                      | 90                                          |
 * | country_change         | 65 moving out of Norway, else 40                        | 90                                          |
 * | ceo_change             | 60 when the CEO left without a successor, else 50       | 80                                          |
 * | chair_change           | 45                                                      | 70                                          |
 * | org_form_change        | 40                                                      | 60                                          |
 * | board_change           | 20 + 40 × share of the board replaced                   | 40 + 50 × share                             |
 * | address_change         | 30 to another municipality, else 20                     | 60 to another municipality, else 40         |
 * | financial_band         | worse: 75 into red, 50 into yellow; better: 15          | worse 90, better 50                         |
 * | announcement (risk ≥2) | 60 for risk 2 (Medium), 80 for 3 (High), 90 above        | 100                                         |
 * Bands of the financial risk score are those of the supplier view (shared/spec/02-supplier-credit-connections.md §9): ≤ 33 green, ≤ 66 yellow, above red.
 */

export const REGISTRY_SOURCE = "Brønnøysundregistrene";

/** The company's public page at Brønnøysundregistrene: where the user reads the registered facts. */
export function registryCompanyUrl(orgNumber: string): string {
  return `https://virksomhet.brreg.no/nb/oppslag/enheter/${encodeURIComponent(orgNumber)}`;
}

export const REGISTRY_DETECTION_KINDS = [
  "bankruptcy",
  "compulsory_dissolution",
  "voluntary_dissolution",
  "deletion",
  "ceo_change",
  "chair_change",
  "board_change",
  "address_change",
  "country_change",
  "org_form_change",
  "financial_band",
  "announcement",
] as const;
export type RegistryDetectionKind = (typeof REGISTRY_DETECTION_KINDS)[number];

/** A person holding a role, as the store knows them (the name and, when known, the year of birth tell two namesakes apart). */
export interface RoleHolder {
  name: string;
  birthYear?: number | null;
  /** The stored position text ('Daglig leder (CEO)', 'Styrets leder', 'Board member'); read with app/models/registry/roles.ts. */
  position: string;
}

export interface RegistryAnnouncementState {
  date: string;
  type: string;
  detail: string | null;
  /** The announcement's risk level (shared/spec/02-supplier-credit-connections.md §9: 3+ High, 2 Medium). */
  risk: number;
}

/** One company's registry facts that monitoring compares. */
export interface RegistryCompanyState {
  orgNumber: string;
  name: string;
  countryCode: string | null;
  orgForm: string | null;
  orgFormDescription: string | null;
  streetAddress: string | null;
  streetPostalCode: string | null;
  streetPostalArea: string | null;
  municipality: string | null;
  municipalityCode: string | null;
  isBankrupt: boolean;
  bankruptcyDate: string | null;
  isUnderLiquidation: boolean;
  isUnderForcedLiquidation: boolean;
  deletedAt: string | null;
  /** The roles held now (active). An empty list: none known — a first load of roles is not a change. */
  roles: RoleHolder[];
  /** The newest annual accounts and their financial risk score (finalScore), or null. */
  latestStatement: { year: number; score: number | null } | null;
  announcements: RegistryAnnouncementState[];
}

/** What to raise: the shape of server/monitoring/notify.ts's DetectedNotification without the company id. */
export interface RegistryDetection {
  kind: RegistryDetectionKind;
  type: "announcement";
  date: string;
  riskScore: number;
  relevanceScore: number;
  title: { en: string; no: string };
  description: { en: string; no: string };
  source: string;
  url: string;
  details: Record<string, unknown>;
  dedupeKey: string;
}

// ── Digest ──────────────────────────────────────────────────────────────────

/** A short stable digest of a change (two FNV-1a 32-bit hashes): the same change gives the same key wherever it is detected. */
export function changeDigest(value: unknown): string {
  const text = JSON.stringify(value);
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

export function registryDedupeKey(orgNumber: string, kind: RegistryDetectionKind, change: unknown): string {
  return `registry:${orgNumber}:${kind}:${changeDigest(change)}`;
}

// ── Scores ──────────────────────────────────────────────────────────────────

export const FIXED_SCORES = {
  bankruptcy: { risk: 95, relevance: 100 },
  compulsory_dissolution: { risk: 90, relevance: 100 },
  deletion: { risk: 85, relevance: 100 },
  voluntary_dissolution: { risk: 70, relevance: 90 },
  chair_change: { risk: 45, relevance: 70 },
  org_form_change: { risk: 40, relevance: 60 },
} as const satisfies Partial<Record<RegistryDetectionKind, { risk: number; relevance: number }>>;

export function countryChangeScore(to: string | null): { risk: number; relevance: number } {
  return { risk: to !== "NO" ? 65 : 40, relevance: 90 };
}

export function ceoChangeScore(newCeo: string | null): { risk: number; relevance: number } {
  return { risk: newCeo === null ? 60 : 50, relevance: 80 };
}

/** `share`: the part of the board replaced, 0–1. */
export function boardChangeScore(share: number): { risk: number; relevance: number } {
  const s = Math.max(0, Math.min(1, share));
  return { risk: Math.round(20 + 40 * s), relevance: Math.round(40 + 50 * s) };
}

export function addressChangeScore(otherMunicipality: boolean): { risk: number; relevance: number } {
  return otherMunicipality ? { risk: 30, relevance: 60 } : { risk: 20, relevance: 40 };
}

const BAND_ORDER: Record<RiskBand, number> = { green: 0, yellow: 1, red: 2 };

/** Null when the band did not change. */
export function financialBandScore(from: number, to: number): { risk: number; relevance: number; worse: boolean } | null {
  const a = riskBandColor(from);
  const b = riskBandColor(to);
  if (a === b) return null;
  if (BAND_ORDER[b] > BAND_ORDER[a]) return { risk: b === "red" ? 75 : 50, relevance: 90, worse: true };
  return { risk: 15, relevance: 50, worse: false };
}

/** Null below risk 2: only Medium and High announcements are worth a notification. */
export function announcementScore(risk: number): { risk: number; relevance: number } | null {
  if (!(risk >= 2)) return null;
  return { risk: risk >= 4 ? 90 : risk >= 3 ? 80 : 60, relevance: 100 };
}

// ── Texts ───────────────────────────────────────────────────────────────────

type Texts = { title: string; description: string };
type Fill = Record<string, string | number>;

const fill = (template: string, values: Fill) => template.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ""));

/** English and Norwegian (bokmål, locales/GLOSSARY.md) texts of each kind. */
export const REGISTRY_TEXTS: Record<RegistryDetectionKind | "financial_band_better", { en: Texts; no: Texts }> = {
  bankruptcy: {
    en: {
      title: "Bankruptcy proceedings opened against {name}",
      description: "Brønnøysundregistrene has registered bankruptcy proceedings against {name} (org. no. {orgNumber}) from {date}.",
    },
    no: { title: "Konkurs åpnet i {name}", description: "Brønnøysundregistrene har registrert konkurs i {name} (org.nr. {orgNumber}) fra {date}." },
  },
  compulsory_dissolution: {
    en: {
      title: "{name} is under compulsory dissolution",
      description: "The register shows {name} (org. no. {orgNumber}) as under compulsory liquidation or dissolution.",
    },
    no: {
      title: "{name} er under tvangsoppløsning",
      description: "Registeret viser {name} (org.nr. {orgNumber}) under tvangsavvikling eller tvangsoppløsning.",
    },
  },
  voluntary_dissolution: {
    en: { title: "{name} is being wound up", description: "The register shows {name} (org. no. {orgNumber}) as under voluntary liquidation." },
    no: { title: "{name} er under avvikling", description: "Registeret viser {name} (org.nr. {orgNumber}) under frivillig avvikling." },
  },
  deletion: {
    en: {
      title: "{name} has been deleted from the register",
      description: "{name} (org. no. {orgNumber}) was deleted from the Central Coordinating Register for Legal Entities on {date}.",
    },
    no: { title: "{name} er slettet fra registeret", description: "{name} (org.nr. {orgNumber}) ble slettet fra Enhetsregisteret {date}." },
  },
  ceo_change: {
    en: { title: "New CEO at {name}", description: "The CEO of {name} changed from {from} to {to}." },
    no: { title: "Ny daglig leder i {name}", description: "Daglig leder i {name} er endret fra {fromNo} til {toNo}." },
  },
  chair_change: {
    en: { title: "New chair of the board at {name}", description: "The chair of the board of {name} changed from {from} to {to}." },
    no: { title: "Ny styreleder i {name}", description: "Styreleder i {name} er endret fra {fromNo} til {toNo}." },
  },
  board_change: {
    en: { title: "Board change at {name}", description: "Joined the board: {joined}. Left the board: {left}." },
    no: { title: "Endring i styret i {name}", description: "Nye i styret: {joinedNo}. Gått ut av styret: {leftNo}." },
  },
  address_change: {
    en: { title: "{name} has a new business address", description: "The business address of {name} changed from {from} to {to}." },
    no: { title: "{name} har ny forretningsadresse", description: "Forretningsadressen til {name} er endret fra {from} til {to}." },
  },
  country_change: {
    en: { title: "{name} has moved its business address to another country", description: "The business address of {name} moved from {from} to {to}." },
    no: { title: "{name} har flyttet forretningsadressen til et annet land", description: "Forretningsadressen til {name} er flyttet fra {from} til {to}." },
  },
  org_form_change: {
    en: { title: "{name} has changed its organization form", description: "The organization form of {name} changed from {from} to {to}." },
    no: { title: "{name} har endret organisasjonsform", description: "Organisasjonsformen til {name} er endret fra {from} til {to}." },
  },
  financial_band: {
    en: {
      title: "New annual accounts: higher financial risk at {name}",
      description: "The financial risk score of the {year} accounts of {name} is {score} (it was {previous} for {previousYear}).",
    },
    no: {
      title: "Nytt årsregnskap: høyere finansiell risiko i {name}",
      description: "Finansiell risikoscore i årsregnskapet for {year} for {name} er {score} (den var {previous} for {previousYear}).",
    },
  },
  financial_band_better: {
    en: {
      title: "New annual accounts: lower financial risk at {name}",
      description: "The financial risk score of the {year} accounts of {name} is {score} (it was {previous} for {previousYear}).",
    },
    no: {
      title: "Nytt årsregnskap: lavere finansiell risiko i {name}",
      description: "Finansiell risikoscore i årsregnskapet for {year} for {name} er {score} (den var {previous} for {previousYear}).",
    },
  },
  announcement: {
    en: { title: "New announcement for {name}: {type}", description: "{detail}" },
    no: { title: "Ny kunngjøring for {name}: {type}", description: "{detail}" },
  },
};

function texts(key: keyof typeof REGISTRY_TEXTS, values: Fill): Pick<RegistryDetection, "title" | "description"> {
  const t = REGISTRY_TEXTS[key];
  return {
    title: { en: fill(t.en.title, values), no: fill(t.no.title, values) },
    description: { en: fill(t.en.description, values), no: fill(t.no.description, values) },
  };
}

// ── Comparison ──────────────────────────────────────────────────────────────

const norm = (s: string | null | undefined) => (s ?? "").normalize("NFC").replace(/\s+/g, " ").trim().toLocaleLowerCase("nb");

function addressText(s: RegistryCompanyState): string {
  const lines = (s.streetAddress ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const place = [s.streetPostalCode, s.streetPostalArea].filter(Boolean).join(" ");
  return [...lines, place].filter(Boolean).join(", ");
}

const personKey = (r: RoleHolder) => `${norm(r.name)}|${r.birthYear ?? ""}`;

type Group = "ceo" | "chair" | "board";
function holders(roles: readonly RoleHolder[], group: Group): Map<string, RoleHolder> {
  const out = new Map<string, RoleHolder>();
  for (const r of roles) {
    const code = roleCode(r.position);
    const inGroup = group === "ceo" ? code === "DAGL" : group === "chair" ? code === "LEDE" : code === "LEDE" || code === "NEST" || code === "MEDL";
    if (inGroup) out.set(personKey(r), r);
  }
  return out;
}

const namesOf = (m: Map<string, RoleHolder>) => [...m.values()].map((r) => r.name).sort((a, b) => a.localeCompare(b, "nb"));

/**
 * The notifications one company's change is worth. `at` (ISO) dates the events the register gives no date for.
 * `before` null: first sight, nothing to raise.
 */
export function detectRegistryChanges(before: RegistryCompanyState | null, after: RegistryCompanyState, at: string): RegistryDetection[] {
  if (!before) return [];
  const out: RegistryDetection[] = [];
  const orgNumber = after.orgNumber;
  const name = after.name;
  const today = at.slice(0, 10);
  const url = registryCompanyUrl(orgNumber);
  const push = (
    kind: RegistryDetectionKind,
    score: { risk: number; relevance: number },
    change: Record<string, unknown>,
    body: Pick<RegistryDetection, "title" | "description">,
    date = today,
  ) => {
    out.push({
      kind,
      type: "announcement",
      date,
      riskScore: score.risk,
      relevanceScore: score.relevance,
      ...body,
      source: REGISTRY_SOURCE,
      url,
      details: change,
      dedupeKey: registryDedupeKey(orgNumber, kind, change),
    });
  };

  // Status: bankruptcy, dissolution, deletion — each raised when it starts.
  if (after.isBankrupt && !before.isBankrupt) {
    const date = after.bankruptcyDate ?? today;
    push("bankruptcy", FIXED_SCORES.bankruptcy, { from: false, to: true, date }, texts("bankruptcy", { name, orgNumber, date }), date);
  }
  if (after.isUnderForcedLiquidation && !before.isUnderForcedLiquidation) {
    push("compulsory_dissolution", FIXED_SCORES.compulsory_dissolution, { from: false, to: true }, texts("compulsory_dissolution", { name, orgNumber }));
  } else if (after.isUnderLiquidation && !after.isUnderForcedLiquidation && !before.isUnderLiquidation) {
    push("voluntary_dissolution", FIXED_SCORES.voluntary_dissolution, { from: false, to: true }, texts("voluntary_dissolution", { name, orgNumber }));
  }
  if (after.deletedAt && !before.deletedAt) {
    const date = after.deletedAt.slice(0, 10);
    push("deletion", FIXED_SCORES.deletion, { from: null, to: date }, texts("deletion", { name, orgNumber, date }), date);
  }

  // Country before address: a move abroad is one event, not two.
  const countryChanged = (before.countryCode ?? "NO") !== (after.countryCode ?? "NO");
  if (countryChanged) {
    const from = before.countryCode ?? "NO";
    const to = after.countryCode ?? "NO";
    push("country_change", countryChangeScore(to), { from, to, address: addressText(after) }, texts("country_change", { name, from, to }));
  } else {
    const from = addressText(before);
    const to = addressText(after);
    // An address appearing where none was recorded is filled-in data, not a move.
    if (from !== "" && to !== "" && norm(from) !== norm(to)) {
      const otherMunicipality = (before.municipalityCode ?? before.municipality) !== (after.municipalityCode ?? after.municipality);
      push("address_change", addressChangeScore(otherMunicipality), { from, to }, texts("address_change", { name, from, to }));
    }
  }

  if (before.orgForm && after.orgForm && before.orgForm !== after.orgForm) {
    const from = before.orgForm;
    const to = after.orgForm;
    push("org_form_change", FIXED_SCORES.org_form_change, { from, to }, texts("org_form_change", { name, from, to }));
  }

  // Roles: compared only when both sides know some; a first load of roles (or a company whose roles were never loaded) is not a change.
  if (before.roles.length > 0 && after.roles.length > 0) {
    const none = { en: "none", no: "ingen" };
    const single = (group: "ceo" | "chair") => {
      const was = holders(before.roles, group);
      const now = holders(after.roles, group);
      const same = was.size === now.size && [...was.keys()].every((k) => now.has(k));
      return { was, now, changed: !same };
    };
    const ceo = single("ceo");
    if (ceo.changed && (ceo.was.size > 0 || ceo.now.size > 0)) {
      const from = namesOf(ceo.was).join(", ") || null;
      const to = namesOf(ceo.now).join(", ") || null;
      push(
        "ceo_change",
        ceoChangeScore(to),
        { from, to },
        texts("ceo_change", { name, from: from ?? none.en, to: to ?? none.en, fromNo: from ?? none.no, toNo: to ?? none.no }),
      );
    }
    const chair = single("chair");
    if (chair.changed && (chair.was.size > 0 || chair.now.size > 0)) {
      const from = namesOf(chair.was).join(", ") || null;
      const to = namesOf(chair.now).join(", ") || null;
      push(
        "chair_change",
        FIXED_SCORES.chair_change,
        { from, to },
        texts("chair_change", { name, from: from ?? none.en, to: to ?? none.en, fromNo: from ?? none.no, toNo: to ?? none.no }),
      );
    }
    const boardBefore = holders(before.roles, "board");
    const boardAfter = holders(after.roles, "board");
    const joined = new Map([...boardAfter].filter(([k]) => !boardBefore.has(k)));
    const left = new Map([...boardBefore].filter(([k]) => !boardAfter.has(k)));
    // The chair who left and the one who came are told by chair_change already.
    if (chair.changed) {
      for (const k of chair.was.keys()) left.delete(k);
      for (const k of chair.now.keys()) joined.delete(k);
    }
    if (joined.size > 0 || left.size > 0) {
      const share = Math.max(joined.size, left.size) / Math.max(boardBefore.size, boardAfter.size, 1);
      const j = namesOf(joined);
      const l = namesOf(left);
      push(
        "board_change",
        boardChangeScore(share),
        { joined: j, left: l },
        texts("board_change", {
          name,
          joined: j.join(", ") || none.en,
          left: l.join(", ") || none.en,
          joinedNo: j.join(", ") || none.no,
          leftNo: l.join(", ") || none.no,
        }),
      );
    }
  }

  // New annual accounts whose financial risk score crossed a band.
  const prev = before.latestStatement;
  const next = after.latestStatement;
  if (prev && next && next.year > prev.year && prev.score != null && next.score != null) {
    const score = financialBandScore(prev.score, next.score);
    if (score) {
      const change = { year: next.year, score: next.score, previousYear: prev.year, previous: prev.score };
      const values = { name, year: next.year, score: next.score, previous: prev.score, previousYear: prev.year };
      push("financial_band", score, change, texts(score.worse ? "financial_band" : "financial_band_better", values));
    }
  }

  // New announcements of risk 2 or more.
  const known = new Set(before.announcements.map((a) => changeDigest([a.date, a.type, a.detail])));
  for (const a of after.announcements) {
    const key = changeDigest([a.date, a.type, a.detail]);
    if (known.has(key)) continue;
    known.add(key);
    const score = announcementScore(a.risk);
    if (!score) continue;
    const change = { date: a.date, type: a.type, detail: a.detail };
    push("announcement", score, change, texts("announcement", { name, type: a.type, detail: a.detail ?? a.type }), a.date.slice(0, 10));
  }
  return out;
}
