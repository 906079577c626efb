import { sql, type RawBuilder } from "kysely";
import { db } from "@server/db";
import { padPostalCode } from "~/models/format";
import { announcements, board, country, financialStatements, findCompany, ftsQuery, shareholders, type CompanyRow } from "~/models/registry.server";
import { financialRisk } from "~/models/risk";
import { osloDate, renderCreditReport, type CreditReportInput } from "./pdf-report";
import { CreditError, type CreditCompany, type CreditCompanyAddress, type CreditProvider, type CreditSearch, type ReportLanguage } from "./types";

/**
 * The `local` credit provider: searches the registry store and writes the
 * credit report itself, as a PDF, from the same store (DESIGN.md, providers).
 * Works offline; the demo seed gives it Norwegian companies and a few
 * fictional ones in each of the other report countries.
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

type StatusFields = Pick<
  CompanyRow,
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

function address(c: CompanyRow): CreditCompanyAddress {
  return {
    ...splitStreet(c.street_address),
    // Only Norwegian postal codes are four digits that lose a leading zero.
    postCode: c.country_code === "NO" ? padPostalCode(c.street_postal_code) : c.street_postal_code?.trim() || null,
    city: c.street_postal_area?.trim() || null,
  };
}

function toCreditCompany(c: CompanyRow): CreditCompany {
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

const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * Companies of one country by registration number (exact, spaces ignored)
 * and/or name (full-text prefix words, or the name's start). The foreign demo
 * numbers carry their country as a prefix ('DE-HRB214941'); the number as the
 * local register writes it ('HRB214941') finds them too.
 * Best first: name equal to the query, then starting with it, then units
 * not deleted, active ones, full-text rank, and larger companies.
 */
async function search(input: CreditSearch): Promise<CreditCompany[]> {
  const countryCode = input.country.trim().toUpperCase();
  const regNo = input.regNo?.replace(/\s/g, "") ?? "";
  const name = input.name?.trim() ?? "";
  if (!/^[A-Z]{2}$/.test(countryCode) || (!regNo && !name)) return [];

  let query = db().selectFrom("companies").selectAll("companies").where("companies.country_code", "=", countryCode);
  if (regNo) query = query.where("companies.org_number", "in", [regNo, `${countryCode}-${regNo}`]);

  // Without a name there is nothing to rank by; a constant ORDER BY 0 would be read as a column number.
  let nameOrder: RawBuilder<number> | null = null;
  let rank: RawBuilder<number> | null = null;
  if (name) {
    const match = ftsQuery(name);
    const prefix = likePrefix(name);
    // LIKE folds ASCII case only; the full-text index folds case and accents for the rest.
    const startsWith = sql<boolean>`companies.legal_name like ${prefix} escape '\\'`;
    if (match) {
      query = query.where(sql<boolean>`(companies.id in (select rowid from companies_fts where companies_fts match ${match}) or ${startsWith})`);
      rank = sql<number>`coalesce((select rank from companies_fts where companies_fts match ${match} and rowid = companies.id), 0)`;
    } else {
      query = query.where(startsWith);
    }
    nameOrder = sql<number>`case when lower(companies.legal_name) = lower(${name}) then 0 when ${startsWith} then 1 else 2 end`;
  }
  if (nameOrder) query = query.orderBy(nameOrder);
  query = query.orderBy(sql`companies.deleted_at is not null`).orderBy("companies.is_active", "desc");
  if (rank) query = query.orderBy(rank);
  const rows = await query
    .orderBy(sql`coalesce(companies.number_of_employees, 0)`, "desc")
    .orderBy("companies.legal_name")
    .limit(MAX_SEARCH_RESULTS)
    .execute();
  return rows.map(toCreditCompany);
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

async function reportInput(company: CompanyRow, language: ReportLanguage, now: Date): Promise<CreditReportInput> {
  const lang = language === "NO" ? "no" : "en";
  const [statements, members, owners, news, land] = await Promise.all([
    financialStatements(company.id),
    board(company.id, "current"),
    shareholders(company.id),
    announcements(company.id),
    country(company.country_code),
  ]);
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
  /** The report's moment; fixed in tests so that the same input gives the same bytes. */
  now?: () => Date;
}

export function createLocalCreditProvider(options: LocalCreditOptions = {}): CreditProvider {
  const now = options.now ?? (() => new Date());
  return {
    name: "local",
    searchCompanies: search,
    async reportLanguages(countryCode) {
      return countryCode.trim().toUpperCase() === "NO" ? ["NO", "EN"] : ["EN"];
    },
    async orderReport({ id, language }) {
      const orgNumber = id.startsWith(LOCAL_ID_PREFIX) ? id.slice(LOCAL_ID_PREFIX.length) : "";
      const company = orgNumber ? await findCompany(orgNumber) : undefined;
      if (!company) throw new CreditError("not_found", `No company ${id} in the registry store`, 404);
      const at = now();
      const pdf = await renderCreditReport(await reportInput(company, language === "NO" ? "NO" : "EN", at));
      return { pdf, fileName: reportFileName(company.org_number, osloDate(at), language) };
    },
  };
}
