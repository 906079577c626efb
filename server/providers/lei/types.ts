/**
 * The LEI provider: company identities from the Global LEI System, answered
 * in the GLEIF API v1 JSON shapes (shared/spec/01-shell-chat-lei.md §3 and §7) whichever source is
 * behind it — the local store (golden-copy imports) or the live GLEIF API.
 * Only the fields the app reads are typed; the live adapter passes every other
 * field of GLEIF's answer through unchanged.
 */

export interface LeiAutocompleteItem {
  type: string;
  /** The local store names the record here; GLEIF puts it under relationships (and some items have none). */
  id?: string;
  attributes: { value: string; highlighting: string; legalName?: { name: string } };
  relationships?: { "lei-records": { data: { type: "lei-records"; id: string } } };
}

export interface LeiAddress {
  addressLines: string[];
  postalCode: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  [field: string]: unknown;
}

export interface LeiOtherName {
  name: string;
  type: string | null;
  language?: string | null;
  [field: string]: unknown;
}

export interface LeiRecordAttributes {
  lei: string;
  entity: {
    legalName: { name: string; language?: string | null };
    otherNames: LeiOtherName[];
    transliteratedOtherNames: LeiOtherName[];
    legalAddress: LeiAddress;
    headquartersAddress?: LeiAddress;
    registeredAt?: { id: string | null; other: string | null };
    registeredAs: string | null;
    jurisdiction: string | null;
    category?: string | null;
    /** `name`: the ELF code's name from the store's ELF list, added by the API (null when the code is unknown or absent). */
    legalForm: { id: string | null; other: string | null; name?: string | null };
    status: string | null;
    [field: string]: unknown;
  };
  registration: {
    status: string | null;
    initialRegistrationDate?: string | null;
    lastUpdateDate?: string | null;
    nextRenewalDate: string | null;
    managingLou: string | null;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** One LEI record as GLEIF sends it under `data` (and as each element of a list). */
export interface LeiRecordData {
  type: "lei-records";
  id: string;
  attributes: LeiRecordAttributes;
  [field: string]: unknown;
}

export interface LeiRecordAnswer {
  data: LeiRecordData;
}

export interface LeiProvider {
  readonly name: "local" | "gleif";
  /** Suggestions for a search text; a blank text gives [] without asking anyone. */
  autocomplete(term: string): Promise<LeiAutocompleteItem[]>;
  /** The record, or null when no record has this LEI. */
  record(lei: string): Promise<LeiRecordAnswer | null>;
  /** Every direct child (all pages); [] when there are none. */
  directChildren(lei: string): Promise<LeiRecordData[]>;
  /** The ultimate parent's record, or null when there is none — a reporting exception is not a parent. */
  ultimateParent(lei: string): Promise<LeiRecordAnswer | null>;
  /** The managing LOU's own LEI record, or null when it cannot be found (the caller shows the raw value). */
  managingLou(lei: string): Promise<LeiRecordAnswer | null>;
}

export type LeiErrorKind = "timeout" | "network" | "http" | "invalid_response";

/** What a provider throws instead of a raw fetch or parse error; routes turn it into a 502/504. */
export class LeiProviderError extends Error {
  readonly kind: LeiErrorKind;
  /** HTTP status for `kind: 'http'` (and for an unreadable body). */
  readonly status: number | null;

  constructor(kind: LeiErrorKind, message: string, opts: { status?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "LeiProviderError";
    this.kind = kind;
    this.status = opts.status ?? null;
  }
}
