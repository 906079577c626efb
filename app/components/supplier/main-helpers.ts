import { isLanguage, type Language } from "~/i18n";
import type { FigureField } from "~/models/registry/financials";

/**
 * Small pure helpers of the supplier screen's main sections (header, overview,
 * risk, geography, intelligence, announcements). No React, so they are unit-tested.
 */

/** Announcements shown before "Show all" (shared/spec/02-supplier-credit-connections.md §9). */
export const ANNOUNCEMENTS_SHOWN = 5;
/** Items per list of the collapsed supplier intelligence (shared/spec/02-supplier-credit-connections.md §9). */
export const INTELLIGENCE_COLLAPSED_ITEMS = 2;
/** How long the organisation id's 'copied' confirmation stays (shared/spec/02-supplier-credit-connections.md §9). */
export const COPIED_CONFIRMATION_MS = 500;

/** The key figures of the financial summary, in the order they are shown. */
export const SUMMARY_FIELDS: readonly FigureField[] = [
  "operating_income",
  "operating_profit",
  "ebitda",
  "net_income",
  "total_assets",
  "equity",
  "cash_and_deposits",
];

/** The UI language from i18next's language ('en' | 'no'), English for anything else. */
export function uiLanguage(language: string | undefined): Language {
  return isLanguage(language) ? language : "en";
}

/**
 * The calendar day (UTC midnight) of `now`. The 2-year announcement window
 * works by UTC day, so the server's render and the browser's hydration agree
 * unless the page is rendered across midnight UTC.
 */
export function utcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** A 0–100 score rounded for display; null for a missing or non-finite value. */
export function displayScore(value: number | null | undefined): number | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  return Math.round(Math.min(100, Math.max(0, value)));
}

/** Locale keys of the three risk bands, so the band is written as well as coloured. */
export const BAND_LABEL_KEY = { green: "band.low", yellow: "band.medium", red: "band.high" } as const;

// ── Supplier intelligence ───────────────────────────────────────────────────

export interface IntelligenceItem {
  name: string;
  description: string | null;
}

export interface SupplierIntelligence {
  /** The language its texts are written in (ISO 639-1): data, not translated. */
  language: string;
  description: string | null;
  tags: string[];
  products: IntelligenceItem[];
  services: IntelligenceItem[];
  certifications: IntelligenceItem[];
  esg: { environmental: IntelligenceItem[]; social: IntelligenceItem[]; governance: IntelligenceItem[] };
  keyInformation: { email: string | null; phone: string | null; address: string | null; organization_number: string | null };
  source: { url: string | null; title: string | null; snippet: string | null };
  /** The language model that wrote the texts from the registry's facts; null when composed from them here. */
  writtenByModel: string | null;
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

/** A list entry is either a plain name or {name, description}; anything else is dropped. */
function items(value: unknown): IntelligenceItem[] {
  if (!Array.isArray(value)) return [];
  const out: IntelligenceItem[] = [];
  for (const entry of value) {
    if (isObj(entry)) {
      const name = text(entry.name) ?? text(entry.title);
      if (name) out.push({ name, description: text(entry.description) });
    } else {
      const name = text(entry);
      if (name) out.push({ name, description: null });
    }
  }
  return out;
}

/**
 * Reads the stored supplier intelligence response (shared/spec/02-supplier-credit-connections.md §3) whatever its
 * exact shape: the `{data}` envelope of the API or the bare object; missing
 * parts become empty. Null when there is nothing to show.
 */
export function readIntelligence(raw: unknown): SupplierIntelligence | null {
  if (!isObj(raw)) return null;
  const data = isObj(raw.data) ? raw.data : raw;
  const overview = isObj(data.overview) ? data.overview : {};
  const esg = isObj(data.esg) ? data.esg : {};
  const key = isObj(data.key_information) ? data.key_information : {};
  const source = isObj(data.source) ? data.source : {};
  const out: SupplierIntelligence = {
    language: typeof data.language === "string" && /^[a-z]{2}$/.test(data.language) ? data.language : "en",
    description: text(overview.description),
    tags: items(data.tags).map((i) => i.name),
    products: items(data.products),
    services: items(data.services),
    certifications: items(data.certifications_and_compliance),
    esg: { environmental: items(esg.environmental), social: items(esg.social), governance: items(esg.governance) },
    keyInformation: {
      email: text(key.email),
      phone: text(key.phone),
      address: text(key.address),
      organization_number: text(key.organization_number),
    },
    source: { url: safeHttpUrl(source.url), title: text(source.title), snippet: text(source.snippet) },
    writtenByModel: isObj(data.writtenBy) && data.writtenBy.kind === "model" ? text(data.writtenBy.model) || null : null,
  };
  const empty =
    !out.description &&
    !out.tags.length &&
    !out.products.length &&
    !out.services.length &&
    !out.certifications.length &&
    !out.esg.environmental.length &&
    !out.esg.social.length &&
    !out.esg.governance.length &&
    !Object.values(out.keyInformation).some(Boolean) &&
    !out.source.url &&
    !out.source.title;
  return empty ? null : out;
}

/** Only http(s) addresses become links: generated text must not smuggle in a javascript: URL. */
export function safeHttpUrl(value: unknown): string | null {
  const raw = text(value);
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The first `limit` entries unless expanded, and how many are left out. */
export function visibleItems<T>(list: readonly T[], expanded: boolean, limit: number): { shown: T[]; hidden: number } {
  if (expanded || list.length <= limit) return { shown: [...list], hidden: 0 };
  return { shown: list.slice(0, limit), hidden: list.length - limit };
}
