import type { Selectable } from "kysely";
import type { CompanyTable } from "@server/db-types";
import type { FinancialStatement } from "~/models/registry/financials";
import { padPostalCode } from "~/models/shared/format";
import { financialRisk } from "~/models/suppliers/risk";
import { osloDate, renderCreditReport, type CreditReportInput, type ReportTextLanguage, type ReportTexts } from "./pdf-report";
import { CreditError, type CreditCompany, type CreditCompanyAddress, type CreditProvider, type CreditSearch, type ReportLanguage } from "./types";

/**
 * The `local` credit provider: searches the registry store and writes the
 * credit report itself, as a PDF, from the same store (docs/architecture.md, providers).
 * Works offline; the demo seed gives it Norwegian companies and a few
 * fictional ones in each of the other report countries.
 *
 * It reads the store through a {@link LocalCreditStore} and prints the texts
 * it is handed: the queries live with the registry model, the words in the
 * locales, and both are passed in by the model that creates the provider.
 */

export const LOCAL_ID_PREFIX = "local:";
export const MAX_SEARCH_RESULTS = 20;
/** Announcements printed in the report: those of the last three years before the report date. */
export const REPORT_ANNOUNCEMENT_YEARS = 3;

/**
 * Search result status, one word as Creditsafe gives it. Precedence: a unit
 * deleted from the register is 'Deleted' whatever else it was; a bankruptcy
 * makes it 'Bankrupt'; not active, or under (compulsory) liquidation, is
 * 'Inactive' — it is winding up and no longer trades normally; else 'Active'.
 */
export type LocalCompanyStatus = "Active" | "Bankrupt" | "Inactive" | "Deleted";

/** A registry unit as the store keeps it (a `companies` row). */
export type LocalCompany = Selectable<CompanyTable>;

/** What the report prints besides the unit itself, as the registry model reads it. */
export interface LocalReportFacts {
  /** Newest first; amounts in thousands of their currency. */
  statements: Array<FinancialStatement & { currency: string }>;
  /** The current board. */
  board: Array<{ name: string; position: string; active_from: string | null }>;
  /** Largest stake first; `reference` is '/organizations/{org number}' for a company owner. */
  shareholders: Array<{ name: string; reference: string; ownership: number | null }>;
  /** Newest first, all of them: the report keeps its own window. */
  announcements: Array<{ date: string; type: string; detail: string | null; risk: number }>;
  /** The unit's country in English and Norwegian; null when the store has no such country. */
  country: { country_name: string; country_name_no: string } | null;
}

/** The registry store the local provider reads (implemented by the credit report model). */
export interface LocalCreditStore {
  /**
   * Units of one country by registration number (exact; the foreign demo
   * numbers also without their country prefix) and/or name (full-text
   * prefix words, or the name's start), best first, at most `limit`.
   */
  searchCompanies(search: { country: string; name: string; regNo: string; limit: number }): Promise<LocalCompany[]>;
  /** The unit with this organisation number, if the store has it. */
  findCompany(orgNumber: string): Promise<LocalCompany | undefined>;
  reportFacts(company: LocalCompany): Promise<LocalReportFacts>;
}

type StatusFields = Pick<
  LocalCompany,
  "deleted_at" | "is_bankrupt" | "date_of_bankruptcy" | "is_active" | "is_under_liquidation" | "is_under_forced_liquidation"
>;

export function companyStatus(c: StatusFields): LocalCompanyStatus {
  if (c.deleted_at) return "Deleted";
  if (c.is_bankrupt === 1 || c.date_of_bankruptcy) return "Bankrupt";
  if (c.is_active === 0 || c.is_under_liquidation === 1 || c.is_under_forced_liquidation === 1) return "Inactive";
  return "Active";
}

// A house number: digits, optionally a letter ('5B', '204 A') or a range ('14-16').
const HOUSE_NUMBER = /^(.*\S)\s+(\d+(?:\s?[A-Za-z])?(?:\s?[-–]\s?\d+(?:\s?[A-Za-z])?)?)$/;

/**
 * Street and house number of the first street line: 'Rådhusgata 5B' →
 * ['Rådhusgata', '5B']. A line that does not end in a number ('200 Bay
 * Street', 'Falksentret Industriveien') stays whole as the street: guessing at
 * other countries' orders would split some addresses wrongly. A c/o line is
 * a recipient, not a street, and is skipped.
 */
export function splitStreet(streetAddress: string | null): { street: string | null; houseNo: string | null } {
  const lines = (streetAddress ?? "")
    .split("\n")
    .map((l) => l.trim().replace(/,$/, ""))
    .filter(Boolean);
  const line = lines.find((l) => !/^c\/o\b/i.test(l)) ?? lines[0];
  if (!line) return { street: null, houseNo: null };
  const match = HOUSE_NUMBER.exec(line);
  return match ? { street: match[1], houseNo: match[2].replace(/\s+/g, " ") } : { street: line, houseNo: null };
}

function address(c: LocalCompany): CreditCompanyAddress {
  return {
    ...splitStreet(c.street_address),
    // Only Norwegian postal codes are four digits that lose a leading zero.
    postCode: c.country_code === "NO" ? padPostalCode(c.street_postal_code) : c.street_postal_code?.trim() || null,
    city: c.street_postal_area?.trim() || null,
  };
}

function toCreditCompany(c: LocalCompany): CreditCompany {
  return {
    id: `${LOCAL_ID_PREFIX}${c.org_number}`,
    name: c.legal_name,
    country: c.country_code,
    regNo: c.org_number,
    status: companyStatus(c),
    legalForm: c.org_form_description ?? c.org_form,
    address: address(c),
  };
}

/** The search as the dialog and the API give it: one country, a name and/or a number (spaces ignored). */
function searchTerms(input: CreditSearch): { country: string; name: string; regNo: string } | null {
  const country = input.country.trim().toUpperCase();
  const regNo = input.regNo?.replace(/\s/g, "") ?? "";
  const name = input.name?.trim() ?? "";
  if (!/^[A-Z]{2}$/.test(country) || (!regNo && !name)) return null;
  return { country, name, regNo };
}

/** 'credit-report-{orgnr}-{YYYY-MM-DD}-{en|no}.pdf', the org number reduced to letters, digits and dashes. */
export function reportFileName(orgNumber: string, day: string, language: ReportLanguage): string {
  const safe = orgNumber.replace(/[^A-Za-z0-9-]+/g, "-").replace(/^-+|-+$/g, "") || "company";
  return `credit-report-${safe}-${day}-${language === "NO" ? "no" : "en"}.pdf`;
}

/** The calendar day `years` before an Oslo date, as 'YYYY-MM-DD' (compared as text with the stored dates). */
function yearsBefore(day: string, years: number): string {
  return `${String(Number(day.slice(0, 4)) - years).padStart(4, "0")}${day.slice(4)}`;
}

function reportInput(company: LocalCompany, facts: LocalReportFacts, lang: ReportTextLanguage, texts: ReportTexts, now: Date): CreditReportInput {
  const { statements, board: members, shareholders: owners, announcements: news, country: land } = facts;
  const day = osloDate(now);
  const since = yearsBefore(day, REPORT_ANNOUNCEMENT_YEARS);
  const score = financialRisk(statements);
  const countryName = land ? (lang === "no" ? land.country_name_no : land.country_name) : null;
  const addressLines = (company.street_address ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const industry = [company.industry_code, company.industry_description].filter(Boolean).join(" ") || null;
  const legalForm = company.org_form_description
    ? company.org_form && company.org_form !== company.org_form_description
      ? `${company.org_form_description} (${company.org_form})`
      : company.org_form_description
    : company.org_form;
  return {
    language: lang,
    texts,
    now,
    company: {
      orgNumber: company.org_number,
      name: company.legal_name,
      legalForm,
      industry,
      establishmentDate: company.establishment_date,
      registrationDate: company.registration_date,
      employees: company.number_of_employees,
      country: countryName ? `${countryName} (${company.country_code})` : company.country_code,
      website: company.website,
      purpose: company.purpose ?? company.activity,
      address: {
        lines: addressLines,
        postCode: company.country_code === "NO" ? padPostalCode(company.street_postal_code) : company.street_postal_code,
        city: company.street_postal_area,
      },
      flags: {
        bankrupt: company.is_bankrupt === 1,
        bankruptcyDate: company.date_of_bankruptcy,
        underLiquidation: company.is_under_liquidation === 1,
        underForcedLiquidation: company.is_under_forced_liquidation === 1,
        inactive: company.is_active === 0,
        deletedAt: company.deleted_at,
      },
      // Units from Brønnøysundregistrene (CSV, JSON or API); 'seed' units are the fictional foreign demo companies.
      fromRegistry: company.source.startsWith("brreg"),
    },
    risk: score && statements[0] ? { score, year: statements[0].financial_year } : null,
    board: members.map((m) => ({ name: m.name, position: m.position, since: m.active_from })),
    shareholders: owners.map((o) => {
      const orgNumber = o.reference.startsWith("/organizations/") ? o.reference.slice("/organizations/".length) : null;
      return { name: o.name, kind: orgNumber ? "company" : "person", orgNumber, ownership: o.ownership };
    }),
    statements,
    // Statements of one company share a currency; NOK is the register's unit when there are none.
    currency: statements[0]?.currency ?? "NOK",
    announcements: news
      .filter((n) => n.date.slice(0, 10) >= since && n.date.slice(0, 10) <= day)
      .map((n) => ({ date: n.date, type: n.type, detail: n.detail, risk: n.risk })),
  };
}

export interface LocalCreditOptions {
  /** Where the registry facts come from. */
  store: LocalCreditStore;
  /** The creditReport texts of each report language. */
  texts: Record<ReportTextLanguage, ReportTexts>;
  /** The report's moment; fixed in tests so that the same input gives the same bytes. */
  now?: () => Date;
}

export function createLocalCreditProvider(options: LocalCreditOptions): CreditProvider {
  const { store, texts } = options;
  const now = options.now ?? (() => new Date());

  /** The unit behind a `local:{org number}` id, if the store has it. */
  async function unit(id: string): Promise<LocalCompany | undefined> {
    const orgNumber = id.startsWith(LOCAL_ID_PREFIX) ? id.slice(LOCAL_ID_PREFIX.length) : "";
    return orgNumber ? store.findCompany(orgNumber) : undefined;
  }

  return {
    name: "local",
    async searchCompanies(input) {
      const terms = searchTerms(input);
      return terms ? (await store.searchCompanies({ ...terms, limit: MAX_SEARCH_RESULTS })).map(toCreditCompany) : [];
    },
    async company({ id, country }) {
      const found = await unit(id);
      return found && found.country_code === country.trim().toUpperCase() ? toCreditCompany(found) : null;
    },
    async reportLanguages(countryCode) {
      return countryCode.trim().toUpperCase() === "NO" ? ["NO", "EN"] : ["EN"];
    },
    async orderReport({ id, language }) {
      const company = await unit(id);
      if (!company) throw new CreditError("not_found", `No company ${id} in the registry store`, 404);
      const at = now();
      const lang: ReportTextLanguage = language === "NO" ? "no" : "en";
      const pdf = await renderCreditReport(reportInput(company, await store.reportFacts(company), lang, texts[lang], at));
      return { pdf, fileName: reportFileName(company.org_number, osloDate(at), language) };
    },
  };
}
