/**
 * Compliance-regime flags of the company overview (spec 02 §9).
 * Amounts are NOK thousands (35 000 = NOK 35 million), the unit of the accounts data.
 * A missing figure never counts as a met threshold: we do not claim a duty we cannot show.
 */

export interface ComplianceFacts {
  /** Organisation form, e.g. 'ASA'. */
  type?: string | null;
  number_of_employees?: number | null;
  /** Balance: total assets, NOK thousands. */
  total_assets?: number | null;
  /** Revenue: operating income, NOK thousands. */
  operating_income?: number | null;
}

export const ARP_MIN_EMPLOYEES = 50;

export const TRANSPARENCY_ACT = {
  minBalance: 35_000,
  minRevenue: 70_000,
  minEmployees: 50,
} as const;

export const CSRD = {
  minBalance: 275_000,
  minRevenue: 550_000,
  minEmployees: 250,
} as const;

/** Both regimes trigger when a company meets at least 2 of their 3 size criteria. */
const CRITERIA_NEEDED = 2;

function atLeast(value: number | null | undefined, threshold: number): boolean {
  return typeof value === "number" && Number.isFinite(value) && value >= threshold;
}

function sizeCriteriaMet(facts: ComplianceFacts, limits: { minBalance: number; minRevenue: number; minEmployees: number }): number {
  return [
    atLeast(facts.total_assets, limits.minBalance),
    atLeast(facts.operating_income, limits.minRevenue),
    atLeast(facts.number_of_employees, limits.minEmployees),
  ].filter(Boolean).length;
}

/** ARP (Norwegian equality and anti-discrimination reporting): at least 50 employees. */
export function isArpRequired(facts: ComplianceFacts): boolean {
  return atLeast(facts.number_of_employees, ARP_MIN_EMPLOYEES);
}

/** Transparency Act: every ASA, or any company meeting 2 of the 3 size criteria. */
export function isTransparencyActRequired(facts: ComplianceFacts): boolean {
  // Registry data writes the form in capitals; tolerate stray case and spaces anyway.
  if (facts.type?.trim().toUpperCase() === "ASA") return true;
  return sizeCriteriaMet(facts, TRANSPARENCY_ACT) >= CRITERIA_NEEDED;
}

/** CSRD: 2 of the 3 large-undertaking criteria. */
export function isCsrdRequired(facts: ComplianceFacts): boolean {
  return sizeCriteriaMet(facts, CSRD) >= CRITERIA_NEEDED;
}

export interface ComplianceFlags {
  arp: boolean;
  transparencyAct: boolean;
  csrd: boolean;
}

export function complianceFlags(facts: ComplianceFacts): ComplianceFlags {
  return {
    arp: isArpRequired(facts),
    transparencyAct: isTransparencyActRequired(facts),
    csrd: isCsrdRequired(facts),
  };
}
