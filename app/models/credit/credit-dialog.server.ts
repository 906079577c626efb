import { randomBytes } from "node:crypto";
import type { CreditCompany, ReportLanguage } from "@server/providers/credit";
import termsEn from "../../../locales/en/creditTerms.json";
import termsNo from "../../../locales/no/creditTerms.json";
import { DEFAULT_CREDIT_COUNTRY, isCreditCountry, type CreditCountryCode } from "~/models/credit/credit";
import { creditOrder, reportLanguageChoice, searchCreditCompanies } from "~/models/credit/credit-reports.server";
import type { SessionUser } from "@server/auth/session";

/**
 * The credit report order dialog (shared/spec/02-supplier-credit-connections.md "Credit report order dialog"), URL
 * state on any page — nothing but the URL holds its state:
 *
 *   dialog=credit                      open
 *   step=search|details|confirm|done   the step (default search; loading is the confirm POST in flight)
 *   country={CC}                       one of the 16 credit countries (default NO; empty = none chosen)
 *   name, regNo                        the search (also what details and confirm re-run to find the company)
 *   id={provider id}                   the chosen company (details, confirm)
 *   order={id}                         the order the done step shows
 *   language=NO|EN                     the report language chosen before a refused confirm
 *   terms=en|no                        the terms dialog on top, in that language
 *   error=terms|order                  the confirm form came back unticked / the order failed
 *
 * Opened with country and regNo but no step (the supplier screen's link), it
 * searches at once and shows the first hit's details. The list of these
 * parameters, for links that keep or drop them: components/credit/links.tsx.
 */
export type CreditStep = "search" | "details" | "confirm" | "done";
export type TermsLanguage = "en" | "no";
export type CreditDialogError = "terms" | "order";

const NAME_MAX = 100;
const REG_NO_MAX = 50;
const ID_MAX = 200;

export interface CreditTerms {
  language: TermsLanguage;
  title: string;
  subtitle: string;
  languageLabel: string;
  toggle: Record<TermsLanguage, string>;
  download: string;
  close: string;
  pdf: string;
  sections: Array<{ heading: string; body: string }>;
}

interface Common {
  /** The search behind every step: what Back to search and the re-find use. */
  country: CreditCountryCode | null;
  name: string;
  regNo: string;
  error: CreditDialogError | null;
  terms: CreditTerms | null;
}

export type CreditDialogState =
  | (Common & { step: "search"; searched: boolean; results: CreditCompany[] })
  | (Common & { step: "details"; company: CreditCompany })
  | (Common & {
      step: "confirm";
      company: CreditCompany;
      languages: { options: ReportLanguage[]; selected: ReportLanguage };
      /** One per confirm form (128 random bits): a resubmitted form orders nothing new. */
      idempotencyKey: string;
    })
  | (Common & { step: "done"; order: { id: number; companyName: string; fileName: string } });

function termsFor(language: TermsLanguage): CreditTerms {
  const text = language === "no" ? termsNo : termsEn;
  return {
    language,
    title: text.title,
    subtitle: text.subtitle,
    languageLabel: text.languageLabel,
    toggle: text.toggle,
    download: text.download,
    close: text.close,
    pdf: `/user_agreement_credit_${language}.pdf`,
    sections: text.sections,
  };
}

function stepParam(value: string | null): CreditStep | null {
  return value === "search" || value === "details" || value === "confirm" || value === "done" ? value : null;
}

/** The chosen country: absent → Norway (shared/spec/02-supplier-credit-connections.md §9); present but not one of the list → none chosen. */
function countryParam(params: URLSearchParams): CreditCountryCode | null {
  if (!params.has("country")) return DEFAULT_CREDIT_COUNTRY as CreditCountryCode;
  const code = (params.get("country") ?? "").trim().toUpperCase();
  return isCreditCountry(code) ? code : null;
}

function textParam(params: URLSearchParams, key: string, max: number): string {
  return (params.get(key) ?? "").trim().slice(0, max);
}

/** Spec 02 §5: a search needs a country and a name or a registration number. */
async function search(country: CreditCountryCode | null, name: string, regNo: string): Promise<CreditCompany[] | null> {
  if (!country || (!name && !regNo)) return null;
  return searchCreditCompanies({ country, ...(name ? { name } : {}), ...(regNo ? { regNo } : {}) });
}

export function newIdempotencyKey(): string {
  return randomBytes(16).toString("hex");
}

/**
 * The dialog's data for the root loader (`?dialog=credit…`). A step whose
 * subject cannot be found (a company the search no longer returns, another
 * organisation's order) falls back to the search step.
 */
export async function loadCreditDialog(url: URL, user: SessionUser): Promise<CreditDialogState | null> {
  const params = url.searchParams;
  if (params.get("dialog") !== "credit") return null;
  const requested = stepParam(params.get("step"));
  const country = countryParam(params);
  const name = textParam(params, "name", NAME_MAX);
  const regNo = textParam(params, "regNo", REG_NO_MAX);
  const id = textParam(params, "id", ID_MAX);
  const termsParam = params.get("terms");
  const errorParam = params.get("error");
  const common: Common = {
    country,
    name,
    regNo,
    error: errorParam === "terms" || errorParam === "order" ? errorParam : null,
    terms: termsParam === "en" || termsParam === "no" ? termsFor(termsParam) : null,
  };

  if (requested === "done") {
    const orderId = Number(params.get("order"));
    const order =
      user.organizationId != null && Number.isSafeInteger(orderId) && orderId > 0
        ? await creditOrder({ organizationId: user.organizationId, id: orderId })
        : null;
    if (order) return { ...common, step: "done", order };
    return { ...common, step: "search", searched: false, results: [] };
  }

  const results = await search(country, name, regNo);

  // Pre-filled from a supplier (country + regNo, no step): straight to the first hit.
  if (requested === null && params.has("regNo") && results?.length) {
    return { ...common, step: "details", company: results[0] };
  }

  if ((requested === "details" || requested === "confirm") && id) {
    const company = results?.find((c) => c.id === id);
    if (company) {
      if (requested === "details") return { ...common, step: "details", company };
      const choice = await reportLanguageChoice(country ?? company.country);
      const wanted = params.get("language");
      const languages = choice.options.some((option) => option === wanted) ? { ...choice, selected: wanted as ReportLanguage } : choice;
      return { ...common, step: "confirm", company, languages, idempotencyKey: newIdempotencyKey() };
    }
  }

  return { ...common, step: "search", searched: results !== null, results: results ?? [] };
}
