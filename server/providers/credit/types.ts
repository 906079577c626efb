/**
 * A credit report provider (shared/spec/02-supplier-credit-connections.md §3 "Company search result (credit)",
 * §7 /api/credit-safe/*). Two implementations: `local` (the registry store,
 * PDFs generated here) and `creditsafe` (Creditsafe Connect).
 */
export interface CreditCompanyAddress {
  street: string | null;
  houseNo: string | null;
  postCode: string | null;
  city: string | null;
}

export interface CreditCompany {
  /** The provider's company id (Creditsafe connectId; for local, `local:{org number}`). */
  id: string;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  regNo: string | null;
  status: string | null;
  legalForm: string | null;
  address: CreditCompanyAddress;
}

export type ReportLanguage = "EN" | "NO";

export interface CreditSearch {
  country: string;
  name?: string;
  regNo?: string;
}

export interface CreditReportFile {
  pdf: Buffer;
  /** A file name suggestion without path, ending in .pdf. */
  fileName: string;
}

export interface CreditProvider {
  readonly name: "local" | "creditsafe";
  searchCompanies(search: CreditSearch): Promise<CreditCompany[]>;
  /**
   * One company by the id a search gave, as the provider has it; null when it
   * has none by that id in that country. An order takes its company's name and
   * number from here, never from the client.
   */
  company(ref: { id: string; country: string }): Promise<CreditCompany | null>;
  /** The languages reports can be had in for a country, as codes such as 'NO', 'EN'. */
  reportLanguages(country: string): Promise<string[]>;
  orderReport(order: { id: string; language: ReportLanguage }): Promise<CreditReportFile>;
}

export type CreditErrorKind = "auth" | "http" | "timeout" | "network" | "invalid_response" | "not_found" | "not_configured";

export class CreditError extends Error {
  constructor(
    readonly kind: CreditErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "CreditError";
  }
}
