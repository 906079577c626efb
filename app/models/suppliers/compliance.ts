/**
 * Compliance-regime flags of the company overview (shared/spec/02-supplier-credit-connections.md §9).
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

/** The company's flags from the register and its newest accounts (the supplier screen's facts, shared/spec/02-supplier-credit-connections.md §9): the register's
 * employee count, else the newest statement's; balance and revenue from the newest statement. */
export function companyComplianceFlags(
  company: { org_form: string | null; number_of_employees: number | null },
  newest: { number_of_employees?: number | null; total_assets?: number | null; operating_income?: number | null } | null | undefined,
): ComplianceFlags {
  return complianceFlags({
    type: company.org_form,
    number_of_employees: company.number_of_employees ?? newest?.number_of_employees ?? null,
    total_assets: newest?.total_assets ?? null,
    operating_income: newest?.operating_income ?? null,
  });
}

/** The flags as stored on a connection (decision 038): bit 1 ARP, 2 Transparency Act, 4 CSRD. */
export const COMPLIANCE_BITS = { arp: 1, transparencyAct: 2, csrd: 4 } as const satisfies Record<keyof ComplianceFlags, number>;

export function encodeComplianceFlags(flags: ComplianceFlags): number {
  return (flags.arp ? COMPLIANCE_BITS.arp : 0) | (flags.transparencyAct ? COMPLIANCE_BITS.transparencyAct : 0) | (flags.csrd ? COMPLIANCE_BITS.csrd : 0);
}

export function decodeComplianceFlags(bits: number): ComplianceFlags {
  return {
    arp: (bits & COMPLIANCE_BITS.arp) !== 0,
    transparencyAct: (bits & COMPLIANCE_BITS.transparencyAct) !== 0,
    csrd: (bits & COMPLIANCE_BITS.csrd) !== 0,
  };
}
