import { MISSING } from "~/models/shared/format";

/**
 * Pure rules for Legal Entity Identifiers (ISO 17442) and the LEI modal's texts (shared/spec/01-shell-chat-lei.md §2.7, §3).
 * No server imports: the routes, the providers and the importers all use it.
 *
 * Lower case: GLEIF issues LEIs in upper case only, so 'abc…' cannot be a different LEI from 'ABC…'.
 * A user who types or pastes one in lower case (or with spaces around it) means that LEI:
 * `normalizeLei` upper-cases and trims, and `isValidLei` accepts whatever `normalizeLei` accepts.
 * Spaces or other characters inside the 20 are never accepted.
 */

const LEI_SHAPE = /^[A-Z0-9]{18}[0-9]{2}$/;

/** ISO 7064 MOD 97-10 remainder of a string of A–Z0–9, letters read as two digits (A=10 … Z=35). */
function mod97(value: string): number {
  let remainder = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    // '0'–'9' are 48–57, 'A'–'Z' are 65–90.
    if (code <= 57) remainder = (remainder * 10 + (code - 48)) % 97;
    else remainder = (remainder * 100 + (code - 55)) % 97;
  }
  return remainder;
}

/** The LEI in upper case when it is 20 characters of A–Z0–9 ending in two check digits that pass MOD 97-10; else null. */
export function normalizeLei(value: string | null | undefined): string | null {
  if (typeof value !== "string") return null;
  const lei = value.trim().toUpperCase();
  if (!LEI_SHAPE.test(lei)) return null;
  return mod97(lei) === 1 ? lei : null;
}

export function isValidLei(value: string | null | undefined): boolean {
  return normalizeLei(value) !== null;
}

/** The two check digits that make an 18-character prefix of A–Z0–9 a valid LEI (for generated demo and benchmark records). */
export function leiCheckDigits(prefix: string): string {
  const upper = prefix.toUpperCase();
  if (!/^[A-Z0-9]{18}$/.test(upper)) throw new Error(`An LEI prefix is 18 characters of A–Z0–9: ${prefix}`);
  return String(98 - mod97(`${upper}00`)).padStart(2, "0");
}

/** 'name (type with underscores replaced by spaces)'; the name alone when there is no type. */
export function formatOtherName({ name, type }: { name: string; type?: string | null }): string {
  const kind = type?.replaceAll("_", " ").trim();
  return kind ? `${name} (${kind})` : name;
}

/** Next renewal: the first 10 characters of the date (YYYY-MM-DD of an ISO timestamp), or the dash. */
export function renewalDate(nextRenewalDate: string | null | undefined): string {
  const text = nextRenewalDate?.trim();
  return text ? text.slice(0, 10) : MISSING;
}

/** One autocomplete item as GLEIF (and our API) answers it (shared/spec/01-shell-chat-lei.md §3). */
export interface LeiSuggestion {
  type?: string;
  id?: string | null;
  attributes: { value?: string | null; highlighting?: string | null; legalName?: { name?: string | null } | null };
  relationships?: { "lei-records"?: { data?: { type?: string; id?: string | null } | null } | null } | null;
}

/** The LEI a suggestion points at: its id, else relationships.lei-records.data.id; null for a bare completion (no record). */
export function suggestionLei(item: LeiSuggestion): string | null {
  return item.id || item.relationships?.["lei-records"]?.data?.id || null;
}

/** A piece of a suggestion's label; `match` pieces are the part the search matched. */
export interface LabelPart {
  text: string;
  match: boolean;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#39);/g, (_, name: string) => ENTITIES[name]);
}

/**
 * GLEIF's highlighting ('B <b>GLOBAL</b>') as parts, so that a page can mark the match without
 * inserting the answer's HTML. Only <b>…</b> is understood; any other tag is dropped, its text kept.
 */
export function highlightParts(highlighting: string): LabelPart[] {
  const parts: LabelPart[] = [];
  let match = false;
  for (const piece of highlighting.split(/(<\/?b>)/i)) {
    if (/^<b>$/i.test(piece)) match = true;
    else if (/^<\/b>$/i.test(piece)) match = false;
    else {
      const text = decodeEntities(piece.replace(/<[^>]*>/g, ""));
      if (!text) continue;
      const last = parts[parts.length - 1];
      if (last && last.match === match) last.text += text;
      else parts.push({ text, match });
    }
  }
  return parts;
}

/**
 * A result's label (shared/spec/01-shell-chat-lei.md §2.7: "legal name (or the highlighted match)"): the legal name when
 * the item carries one (with the match marked when the highlighting is of that name), else the
 * highlighted match, else the plain completion value.
 */
export function suggestionLabel(item: LeiSuggestion): LabelPart[] {
  const legalName = item.attributes.legalName?.name?.trim();
  const highlighting = item.attributes.highlighting?.trim();
  const parts = highlighting ? highlightParts(highlighting) : [];
  if (legalName) {
    // The legal name, its matched part marked when the highlighting is of the legal name itself.
    return parts.some((p) => p.match) && parts.map((p) => p.text).join("") === legalName ? parts : [{ text: legalName, match: false }];
  }
  if (parts.length > 0) return parts;
  const value = item.attributes.value?.trim();
  return value ? [{ text: value, match: false }] : [];
}

/** Spec 01 §9: the LEI search waits 750 ms after the last keystroke; the "copied" note shows 2000 ms. */
export const LEI_SEARCH_DEBOUNCE_MS = 750;
export const LEI_COPIED_MS = 2000;
/** The longest search text the dialog sends (longer text is cut, never an error). */
export const LEI_QUERY_MAX = 200;
/** The footer's external page on the LEI standard (GLEIF's introduction to the LEI, ISO 17442). */
export const LEI_STANDARD_URL = "https://www.gleif.org/en/about-lei/introducing-the-legal-entity-identifier-lei";

/** One result of the dialog's search: the LEI it opens and its label. */
export interface LeiResultView {
  lei: string;
  label: LabelPart[];
}

/** The dialog's results from an autocomplete answer: items without a record (bare completions) are left out, each LEI once. */
export function resultViews(items: LeiSuggestion[]): LeiResultView[] {
  const seen = new Set<string>();
  const views: LeiResultView[] = [];
  for (const item of items) {
    const lei = suggestionLei(item);
    if (!lei || seen.has(lei)) continue;
    seen.add(lei);
    views.push({ lei, label: suggestionLabel(item) });
  }
  return views;
}

/** A parent or child card (shared/spec/01-shell-chat-lei.md §3 "LEI child and parent record": id and attributes.entity.legalName.name). */
export interface LeiEntityCard {
  lei: string;
  name: string;
}

interface RecordLike {
  id?: string | null;
  attributes?: {
    lei?: string | null;
    entity?: {
      legalName?: { name?: string | null } | null;
      registeredAs?: string | null;
      jurisdiction?: string | null;
      legalForm?: { id?: string | null; other?: string | null; name?: string | null } | null;
      status?: string | null;
      legalAddress?: {
        addressLines?: Array<string | null> | null;
        postalCode?: string | null;
        city?: string | null;
        country?: string | null;
        region?: string | null;
      } | null;
      otherNames?: Array<{ name?: string | null; type?: string | null }> | null;
    } | null;
    registration?: { status?: string | null; nextRenewalDate?: string | null; managingLou?: string | null } | null;
  } | null;
}

export function entityCard(data: RecordLike): LeiEntityCard | null {
  const lei = data.id || data.attributes?.lei;
  if (!lei) return null;
  return { lei, name: data.attributes?.entity?.legalName?.name?.trim() || lei };
}

/** What the dialog's detail section shows of a record (shared/spec/01-shell-chat-lei.md §2.7), every text ready to render. */
export interface LeiRecordView {
  lei: string;
  name: string;
  registeredAs: string;
  jurisdiction: string;
  /** The ELF name with its code ('Aksjeselskap (YI42)'), the code alone, or the free text of a form outside the list. */
  legalForm: string;
  status: string;
  /** Address lines, then 'postal code city'. */
  address: string[];
  /** 'NO (NO-03)', or the country alone. */
  countryRegion: string;
  registrationStatus: string;
  nextRenewal: string;
  /** The raw managing LOU (its LEI): shown until (and unless) its name is found. */
  managingLou: string;
  otherNames: string[];
}

function text(value: string | null | undefined): string {
  return value?.trim() || MISSING;
}

export function recordView(data: RecordLike): LeiRecordView | null {
  const attributes = data.attributes;
  const lei = attributes?.lei || data.id;
  if (!attributes || !lei) return null;
  const entity = attributes.entity ?? {};
  const form = entity.legalForm ?? {};
  const formCode = form.id?.trim();
  // 8888 is the ELF list's "no code yet": the form's own text says what it is.
  const legalForm = form.name?.trim() ? (formCode ? `${form.name.trim()} (${formCode})` : form.name.trim()) : form.other?.trim() || formCode || MISSING;
  const address = entity.legalAddress ?? {};
  const lines = (address.addressLines ?? []).map((line) => line?.trim()).filter((line): line is string => Boolean(line));
  const place = [address.postalCode?.trim(), address.city?.trim()].filter(Boolean).join(" ");
  const country = address.country?.trim();
  const region = address.region?.trim();
  return {
    lei,
    name: entity.legalName?.name?.trim() || lei,
    registeredAs: text(entity.registeredAs),
    jurisdiction: text(entity.jurisdiction),
    legalForm,
    status: text(entity.status),
    address: place ? [...lines, place] : lines,
    countryRegion: country ? (region ? `${country} (${region})` : country) : region || MISSING,
    registrationStatus: text(attributes.registration?.status),
    nextRenewal: renewalDate(attributes.registration?.nextRenewalDate),
    managingLou: text(attributes.registration?.managingLou),
    otherNames: (entity.otherNames ?? []).flatMap((n) => (n.name?.trim() ? [formatOtherName({ name: n.name.trim(), type: n.type })] : [])),
  };
}

/** The managing LOU's name from GET /api/lei-api/relationship?path=managing-lou: its legal name, else its LEI, else null. */
export function managingLouName(answer: { data?: RecordLike | null } | null | undefined): string | null {
  const attributes = answer?.data?.attributes;
  return attributes?.entity?.legalName?.name?.trim() || attributes?.lei?.trim() || null;
}
