/**
 * The supplier intelligence as the screen shows it: the stored response read whatever its exact shape, its links
 * kept only when they are http(s). No React, so it is unit-tested.
 */

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
