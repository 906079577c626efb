/**
 * Supplier intelligence (shared/spec/02-supplier-credit-connections.md §3 "Supplier intelligence response") composed
 * from the registry's facts alone, so it can never contradict the registry:
 * nothing here is guessed from a sector profile. What the registry does not say
 * (certifications, ESG, e-mail, phone) stays empty. Pure: no server imports.
 *
 * The composed sentences are the response's data, written in the asked
 * language; the registry's own texts (industry description, purpose) are
 * quoted as registered, in Norwegian.
 */

export type IntelligenceLanguage = "en" | "no";

/** The registry facts the composition may use; `null` when not registered. */
export interface RegistryFacts {
  orgNumber: string;
  legalName: string;
  orgFormDescription: string | null;
  industryCode: string | null;
  industryDescription: string | null;
  /** The registered purpose (vedtektsfestet formål) or else the registered activity. */
  purpose: string | null;
  employees: number | null;
  /** YYYY-MM-DD */
  establishmentDate: string | null;
  municipality: string | null;
  /** Street lines separated by '\n'. */
  streetAddress: string | null;
  postalCode: string | null;
  postalArea: string | null;
  website: string | null;
}

interface Item {
  name: string;
  description: string;
}

export interface ComposedIntelligence {
  /** The language of the composed sentences (ISO 639-1). */
  language: IntelligenceLanguage;
  /** Who wrote it: composed from the registry's facts here, or written by the configured language model from the same facts. */
  writtenBy?: { kind: "registry" } | { kind: "model"; model: string };
  /** Says truthfully where the text comes from, in `language`. */
  label: string;
  overview: { description: string };
  tags: string[];
  products: Item[];
  services: Item[];
  certifications_and_compliance: Item[];
  esg: { environmental: Item[]; social: Item[]; governance: Item[] };
  key_information: { email: string; phone: string; address: string; organization_number: string };
  source: { url: string; title: string; snippet: string };
}

const WORDS = {
  en: {
    label: "Composed from registry data",
    modelLabel: (model: string) => `Written by the language model ${model} from registry data`,
    sourceTitle: "Brønnøysund Register Centre",
    registered: (name: string, orgNumber: string) => `${name} is registered in the Brønnøysund Register Centre with organisation number ${orgNumber}.`,
    orgForm: (form: string) => `Organisation form: ${form}.`,
    industry: (code: string | null, description: string | null) => `Registered industry: ${[code, description].filter(Boolean).join(" ")}.`,
    purpose: (purpose: string) => `Registered purpose or activity: “${purpose}”`,
    established: (date: string) => `Established ${date}.`,
    employees: (n: number) => `Registered employees: ${n.toLocaleString("en-GB")}.`,
    address: (address: string) => `Business address: ${address}.`,
    website: (url: string) => `Website: ${url}.`,
    size: (n: number) =>
      n === 0 ? "No registered employees" : n < 10 ? "1–9 employees" : n < 50 ? "10–49 employees" : n < 250 ? "50–249 employees" : "250+ employees",
    locale: "en-GB",
  },
  no: {
    label: "Satt sammen fra registerdata",
    modelLabel: (model: string) => `Skrevet av språkmodellen ${model} fra registerdata`,
    sourceTitle: "Brønnøysundregistrene",
    registered: (name: string, orgNumber: string) => `${name} er registrert i Brønnøysundregistrene med organisasjonsnummer ${orgNumber}.`,
    orgForm: (form: string) => `Organisasjonsform: ${form}.`,
    industry: (code: string | null, description: string | null) => `Registrert næring: ${[code, description].filter(Boolean).join(" ")}.`,
    purpose: (purpose: string) => `Registrert formål eller virksomhet: «${purpose}»`,
    established: (date: string) => `Stiftet ${date}.`,
    employees: (n: number) => `Registrerte ansatte: ${n.toLocaleString("nb-NO")}.`,
    address: (address: string) => `Forretningsadresse: ${address}.`,
    website: (url: string) => `Nettside: ${url}.`,
    size: (n: number) =>
      n === 0 ? "Ingen registrerte ansatte" : n < 10 ? "1–9 ansatte" : n < 50 ? "10–49 ansatte" : n < 250 ? "50–249 ansatte" : "250+ ansatte",
    locale: "nb-NO",
  },
} as const;

const clean = (value: string | null | undefined): string | null => {
  const trimmed = value?.replace(/\s+/g, " ").trim();
  return trimmed ? trimmed : null;
};

function formatDate(iso: string, locale: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return null;
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

/** A website only when it is an http(s) address (bare host names as the registry stores them get https). */
function websiteUrl(value: string | null): string | null {
  const raw = clean(value);
  if (!raw) return null;
  try {
    const url = new URL(/^[a-z]+:/i.test(raw) ? raw : `https://${raw}`);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

export function registryAddress(facts: Pick<RegistryFacts, "streetAddress" | "postalCode" | "postalArea">): string {
  const street = facts.streetAddress
    ?.split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join(", ");
  const postal = [clean(facts.postalCode)?.padStart(4, "0"), clean(facts.postalArea)].filter(Boolean).join(" ");
  return [clean(street), postal].filter(Boolean).join(", ");
}

export function brregUrl(orgNumber: string): string {
  return `https://virksomhet.brreg.no/nb/oppslag/enheter/${encodeURIComponent(orgNumber)}`;
}

/**
 * The intelligence of one company in `language`, or null when the registry
 * says neither its industry nor its purpose (there is nothing to tell then).
 */
export function composeIntelligence(facts: RegistryFacts, language: IntelligenceLanguage): ComposedIntelligence | null {
  const w = WORDS[language];
  const industryCode = clean(facts.industryCode);
  const industry = clean(facts.industryDescription);
  const purpose = clean(facts.purpose);
  if (!industry && !industryCode && !purpose) return null;
  const name = clean(facts.legalName) ?? facts.orgNumber;
  const formDescription = clean(facts.orgFormDescription);
  const established = facts.establishmentDate ? formatDate(facts.establishmentDate, w.locale) : null;
  const employees = typeof facts.employees === "number" && Number.isFinite(facts.employees) && facts.employees >= 0 ? facts.employees : null;
  const address = registryAddress(facts);
  const website = websiteUrl(facts.website);
  const municipality = clean(facts.municipality);

  const sentences = [
    w.registered(name, facts.orgNumber),
    formDescription ? w.orgForm(formDescription) : null,
    industry || industryCode ? w.industry(industryCode, industry) : null,
    purpose ? w.purpose(purpose) : null,
    established ? w.established(established) : null,
    employees !== null ? w.employees(employees) : null,
    address ? w.address(address) : null,
    website ? w.website(website) : null,
  ].filter((s): s is string => s !== null);

  const tags = [industry, employees !== null ? w.size(employees) : null, municipality].filter((t): t is string => t !== null);
  // The registry names one line of business; it is the one product/service entry it supports.
  const products = industry ? [{ name: industry, description: purpose ?? "" }] : [];

  return {
    language,
    writtenBy: { kind: "registry" },
    label: w.label,
    overview: { description: sentences.join(" ") },
    tags: [...new Set(tags)],
    products,
    services: [],
    certifications_and_compliance: [],
    esg: { environmental: [], social: [], governance: [] },
    key_information: { email: "", phone: "", address, organization_number: facts.orgNumber },
    source: { url: brregUrl(facts.orgNumber), title: w.sourceTitle, snippet: purpose ?? industry ?? "" },
  };
}

/** The facts of a stored company row (the registry store's column names). */
export function factsOfCompany(row: {
  org_number: string;
  legal_name: string;
  org_form_description: string | null;
  industry_code: string | null;
  industry_description: string | null;
  purpose: string | null;
  activity: string | null;
  number_of_employees: number | null;
  establishment_date: string | null;
  municipality: string | null;
  street_address: string | null;
  street_postal_code: string | null;
  street_postal_area: string | null;
  website: string | null;
}): RegistryFacts {
  return {
    orgNumber: row.org_number,
    legalName: row.legal_name,
    orgFormDescription: row.org_form_description,
    industryCode: row.industry_code,
    industryDescription: row.industry_description,
    purpose: row.purpose ?? row.activity,
    employees: row.number_of_employees,
    establishmentDate: row.establishment_date,
    municipality: row.municipality,
    streetAddress: row.street_address,
    postalCode: row.street_postal_code,
    postalArea: row.street_postal_area,
    website: row.website,
  };
}

/** What a language model is asked to write (the rest of the response is never the model's). */
export interface ModelIntelligence {
  overview: { description: string };
  tags: string[];
  products: Item[];
  services: Item[];
}

const LIMITS = { description: 2000, tag: 60, tags: 8, itemName: 120, itemDescription: 500, items: 6 } as const;

const text = (value: unknown, max: number): string | null => {
  if (typeof value !== "string") return null;
  const trimmed = value.replace(/\s+/g, " ").trim();
  return trimmed ? trimmed.slice(0, max) : null;
};

function items(value: unknown): Item[] {
  if (!Array.isArray(value)) return [];
  const out: Item[] = [];
  for (const v of value.slice(0, LIMITS.items)) {
    const record = v && typeof v === "object" ? (v as Record<string, unknown>) : {};
    const name = text(record.name, LIMITS.itemName);
    if (name) out.push({ name, description: text(record.description, LIMITS.itemDescription) ?? "" });
  }
  return out;
}

/**
 * A model's answer (parsed JSON of any shape) as the parts it may write, or null when it wrote no overview. Lengths are
 * capped; anything else it returned is dropped.
 */
export function readModelIntelligence(value: unknown): ModelIntelligence | null {
  if (!value || typeof value !== "object") return null;
  const record = value as Record<string, unknown>;
  const overview = record.overview && typeof record.overview === "object" ? (record.overview as Record<string, unknown>) : {};
  const description = text(overview.description, LIMITS.description);
  if (!description) return null;
  const tags = Array.isArray(record.tags) ? record.tags.map((t) => text(t, LIMITS.tag)).filter((t): t is string => t !== null) : [];
  return { overview: { description }, tags: [...new Set(tags)].slice(0, LIMITS.tags), products: items(record.products), services: items(record.services) };
}

/**
 * The response built around a model's text (decision 028, amended by 029): the overview, tags, products and services are
 * the model's, written from the registry's facts; certifications, ESG, e-mail and phone stay empty (the registry says
 * nothing of them, so nothing the model says about them could be checked), and the key information and the source are the
 * registry's own. The label names the model. Null when the registry has nothing to tell (as composeIntelligence).
 */
export function withModelText(facts: RegistryFacts, language: IntelligenceLanguage, written: ModelIntelligence, model: string): ComposedIntelligence | null {
  const composed = composeIntelligence(facts, language);
  if (!composed) return null;
  return {
    ...composed,
    writtenBy: { kind: "model", model },
    label: WORDS[language].modelLabel(model),
    overview: written.overview,
    tags: written.tags.length ? written.tags : composed.tags,
    products: written.products,
    services: written.services,
  };
}

/** A stable digest of the facts, so a text written from older facts is not shown once the registry changes. */
export function factsKey(facts: RegistryFacts): string {
  return JSON.stringify([
    facts.orgNumber,
    facts.legalName,
    facts.orgFormDescription,
    facts.industryCode,
    facts.industryDescription,
    facts.purpose,
    facts.employees,
    facts.establishmentDate,
    facts.municipality,
    facts.streetAddress,
    facts.postalCode,
    facts.postalArea,
    facts.website,
  ]);
}
