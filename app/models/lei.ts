import { MISSING } from "./format";

/**
 * Pure rules for Legal Entity Identifiers (ISO 17442) and the LEI modal's texts (spec 01 §2.7, §3).
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

/** One autocomplete item as GLEIF (and our API) answers it (spec 01 §3). */
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
 * A result's label (spec 01 §2.7: "legal name (or the highlighted match)"): the legal name when
 * the item carries one, else the highlighted match, else the plain completion value.
 */
export function suggestionLabel(item: LeiSuggestion): LabelPart[] {
  const legalName = item.attributes.legalName?.name?.trim();
  if (legalName) return [{ text: legalName, match: false }];
  const highlighting = item.attributes.highlighting?.trim();
  if (highlighting) {
    const parts = highlightParts(highlighting);
    if (parts.length > 0) return parts;
  }
  const value = item.attributes.value?.trim();
  return value ? [{ text: value, match: false }] : [];
}
