/**
 * The contract for company-registry data (the spec's `business-api`): one
 * interface, implemented over the local store (`local`) and over the
 * Brønnøysund open APIs (`brreg`). Field names follow shared/spec/02-supplier-credit-connections.md §3 where the spec
 * has the field, so the store and the screens can take these objects as they are.
 */

/**
 * A unit of the register. Dates are `YYYY-MM-DD`; text the register leaves
 * empty is `null`, never `''`, so callers need only one "missing" check.
 */
export interface RegistryOrganization {
  /** The nine-digit organisation number. */
  organization_id: string;
  legal_name: string;
  /** Organisation form code, e.g. 'AS', 'ASA', 'ENK'. */
  type: string | null;
  type_description: string | null;
  /** NACE code of the main industry (naeringskode1), e.g. '52.292'. */
  industry_code: string | null;
  industry_description: string | null;
  /**
   * The statutory purpose; units registered before it was recorded only have
   * an activity description, which then stands in for it.
   */
  purpose: string | null;
  number_of_employees: number | null;
  establishment_date: string | null;
  /** Registration date in the Central Coordinating Register. */
  registration_date: string | null;
  /** Business address lines joined with ', '. */
  street_address: string | null;
  /** Text, because Norwegian postal codes keep their leading zero ('0101'). */
  street_postal_code: string | null;
  street_postal_area: string | null;
  /** Postal address, when the unit has one apart from its business address. */
  postal_address: string | null;
  postal_code: string | null;
  postal_area: string | null;
  /** ISO 3166-1 alpha-2 of the business address (postal address if none). */
  country_code: string | null;
  municipality: string | null;
  municipality_code: string | null;
  website: string | null;
  /** The superior unit in the public sector's hierarchy (overordnetEnhet). */
  parent_org_number: string | null;
  is_vat_registered: boolean;
  is_bankrupt: boolean;
  date_of_bankruptcy: string | null;
  /** Under voluntary or forced liquidation/dissolution. */
  is_under_liquidation: boolean;
  is_under_forced_liquidation: boolean;
  /**
   * Deleted units are returned, not hidden behind `null`: for supplier risk,
   * "this supplier no longer exists" is a finding, and `null` would look like
   * a mistyped number.
   */
  deleted: boolean;
  deletion_date: string | null;
  /** False when deleted, bankrupt or under liquidation of any kind. */
  is_active: boolean;
}

/**
 * The register's role codes folded into the positions the product talks
 * about (board, CEO, chairman, …); `role_code` keeps the exact code.
 */
export type RolePosition =
  | "ceo"
  | "chairman"
  | "deputy_chairman"
  | "board_member"
  | "deputy_board_member"
  | "observer"
  | "auditor"
  | "accountant"
  | "contact_person"
  | "owner"
  | "partner"
  | "managing_agent"
  | "other";

export type RoleHolder =
  | {
      kind: "person";
      name: string;
      first_name: string | null;
      middle_name: string | null;
      last_name: string | null;
      birth_date: string | null;
      is_deceased: boolean;
    }
  | {
      kind: "organization";
      name: string;
      organization_id: string;
      type: string | null;
      is_deleted: boolean;
    };

export interface RegistryRole {
  /** Role group, e.g. 'STYR' (Styre), 'DAGL' (Daglig leder), 'REVI' (Revisor). */
  group_code: string;
  group_description: string | null;
  /** Role type, e.g. 'LEDE', 'MEDL', 'DAGL', 'VARA', 'REVI'. */
  role_code: string;
  /** The register's own wording, e.g. 'Styrets leder', 'Daglig leder'. */
  role_description: string | null;
  position: RolePosition;
  /** True for positions on the board itself (chairman, members, deputies, observers). */
  is_board: boolean;
  /** Person's full name, or the organisation's name when a company holds the role. */
  name: string;
  /** Only persons have one, and only when the register gives it. */
  birth_date: string | null;
  holder: RoleHolder;
  /** Resigned (fratrådt) or deregistered (avregistrert) from the role. */
  resigned: boolean;
  /** Who elected the person, e.g. 'Representant for A-aksjonærene'. */
  elected_by: string | null;
  /** Share of liability for partners in shared-liability forms, as written ('50%'). */
  responsibility_share: string | null;
  /** The register's order within the group (0 first). */
  order: number | null;
  /** When the role group last changed. */
  group_last_changed: string | null;
}

/**
 * Amount fields of a financial statement, shared/spec/02-supplier-credit-connections.md §3 names first. The last
 * four are totals the register publishes that the spec has no name for.
 */
export const FINANCIAL_AMOUNT_FIELDS = [
  "operating_income",
  "other_operating_income",
  "sales",
  "cost_of_materials",
  "personnel_expenses",
  "other_operating_expenses",
  "depreciation",
  "write_downs",
  "operating_profit",
  "financial_income",
  "other_financial_expenses",
  "financial_expenses",
  "ordinary_result_before_taxes",
  "taxes",
  "ordinary_result_after_taxes",
  "total_taxes",
  "net_income",
  "dividend",
  "intra_group_contribution",
  "transferred_equity",
  "loss_on_receivables",
  "fixed_assets",
  "intangible_assets",
  "deferred_tax_assets",
  "goodwill",
  "tangible_assets",
  "buildings_and_real_estate",
  "machinery_and_equipment",
  "fixed_financial_assets",
  "loan_to_group",
  "current_assets",
  "inventories",
  "receivables",
  "accounts_receivables",
  "short_term_investments",
  "cash_and_deposits",
  "total_assets",
  "equity",
  "paid_up_equity",
  "share_capital",
  "retained_earnings",
  "liabilities",
  "long_term_liabilities",
  "other_long_term_debt",
  "long_term_debt_to_group_companies",
  "subordinated_loan_cap",
  "total_current_debt",
  "overdrafts",
  "overdraft_facility",
  "trade_creditors",
  "value_added_taxes",
  "debt_dividend",
  "operating_expenses",
  "net_financial_items",
  "total_result",
  "total_equity_and_liabilities",
] as const;

export type FinancialAmountField = (typeof FINANCIAL_AMOUNT_FIELDS)[number];

/**
 * One annual statement. Every amount is in THOUSANDS of `currency` (the
 * register reports whole units; thousands is what the spec's screens and risk
 * rules use), not rounded, so totals still add up. `currency` is 'NOK' for
 * almost every Norwegian unit, but the law lets some report in e.g. USD or
 * EUR: those statements are kept with their own currency rather than silently
 * mixed into NOK figures, and NOK-based comparisons must skip them.
 * `null` means the source has no figure, not zero.
 */
export type RegistryFinancialStatement = {
  organization_id: string;
  /** The calendar year in which the accounting period ends. */
  financial_year: number;
  period_start: string | null;
  period_end: string | null;
  /** ISO 4217 code of the amounts. */
  currency: string;
  /** Company accounts or consolidated group accounts. */
  statement_type: "company" | "group";
  /** False when the statement is marked as not audited; null when unknown. */
  is_audited: boolean | null;
  is_liquidation_statement: boolean;
  number_of_employees: number | null;
} & Record<FinancialAmountField, number | null>;

export interface RegistrySearchOptions {
  /** Zero-based, as in the register's own paging. */
  page?: number;
  /** Hits per page, 1–100; default 20. */
  size?: number;
}

export interface RegistrySearchResult {
  /** Number of hits over all pages. */
  total: number;
  items: RegistryOrganization[];
}

export interface RegistryProvider {
  /** `null` when the register does not know the number; deleted units come back with `deleted: true`. */
  getOrganization(orgNumber: string): Promise<RegistryOrganization | null>;
  /** Current and resigned roles; empty for an unknown or deleted unit. */
  getRoles(orgNumber: string): Promise<RegistryRole[]>;
  /** Empty result, not an error, for no hits or a blank name. */
  searchOrganizations(name: string, opts?: RegistrySearchOptions): Promise<RegistrySearchResult>;
  /** Newest year first; empty when nothing is filed. */
  getFinancialStatements(orgNumber: string): Promise<RegistryFinancialStatement[]>;
}

export type RegistryErrorKind = "invalid_org_number" | "http" | "timeout" | "network" | "invalid_response" | "not_configured";

/** Every failure of a provider, so callers can tell "bad input" from "source down". */
export class RegistryError extends Error {
  readonly kind: RegistryErrorKind;
  /** HTTP status for `kind: 'http'`. */
  readonly status: number | null;

  constructor(kind: RegistryErrorKind, message: string, opts: { status?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "RegistryError";
    this.kind = kind;
    this.status = opts.status ?? null;
  }
}

const ORG_NUMBER_WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const;

/**
 * Accepts the way people write organisation numbers ('923 609 016') and
 * returns the nine digits, or null when the number cannot exist: nine digits
 * whose last one is the modulus-11 control digit over the first eight.
 */
export function normalizeOrgNumber(input: string): string | null {
  const digits = input.replace(/\s+/g, "");
  if (!/^\d{9}$/.test(digits)) return null;
  const sum = ORG_NUMBER_WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(digits[i]), 0);
  const remainder = sum % 11;
  // A remainder of 1 would need control digit 10; such numbers are never issued.
  if (remainder === 1) return null;
  const control = remainder === 0 ? 0 : 11 - remainder;
  return control === Number(digits[8]) ? digits : null;
}

export function isValidOrgNumber(input: string): boolean {
  return normalizeOrgNumber(input) !== null;
}
