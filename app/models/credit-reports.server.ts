import type { CreditCompany, ReportLanguage } from "@server/providers/credit";

/**
 * Credit report orders for one organisation (taken from the session).
 * SCAFFOLDING: the signatures are the contract; the bodies are being built.
 */

export interface OrderInput {
  organizationId: number;
  userId: number;
  /** One per confirm form; a repeated key returns the first order instead of ordering again. */
  idempotencyKey: string;
  connectId: string;
  companyName: string;
  regNo: string | null;
  countryCode: string;
  language: ReportLanguage;
}

export interface OrderResult {
  id: number;
  fileName: string;
  companyName: string;
  /** False when the idempotency key had been used: nothing new was ordered or billed. */
  created: boolean;
}

export interface CreditReportListItem {
  id: number;
  companyName: string;
  fileName: string;
  createdAt: string;
  user: { email: string | null };
}

/** Provider search; a failing provider gives an empty list (spec 02 §8), logged. */
export async function searchCreditCompanies(_search: { country: string; name?: string; regNo?: string }): Promise<CreditCompany[]> {
  throw new Error("not built yet");
}

/** The report language choice (spec 02 §4): Norwegian only when offered; only English when the lookup fails. */
export async function reportLanguageChoice(_country: string): Promise<{ options: ReportLanguage[]; selected: ReportLanguage }> {
  throw new Error("not built yet");
}

export async function placeCreditOrder(_input: OrderInput): Promise<OrderResult> {
  throw new Error("not built yet");
}

/** The organisation's reports on one company from the last 24 months, newest first. */
export async function supplierCreditReports(_input: { organizationId: number; regNo: string; country: string; now?: Date }): Promise<CreditReportListItem[]> {
  throw new Error("not built yet");
}

/** The order as the done step shows it; null for another organisation's order. */
export async function creditOrder(_input: { organizationId: number; id: number }): Promise<{ id: number; companyName: string; fileName: string } | null> {
  throw new Error("not built yet");
}
