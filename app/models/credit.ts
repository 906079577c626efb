/**
 * Credit report constants and rules (spec 02 §4, §9), shared by the server
 * and the browser.
 */
export const CREDIT_REPORT_PRICE_NOK = 80;
export const CREDIT_REPORT_WINDOW_MONTHS = 24;
export const CREDIT_SEARCH_DEBOUNCE_MS = 1000;
export const DEFAULT_CREDIT_COUNTRY = "NO";

/** The fixed country list of the order dialog, in the spec's order. */
export const CREDIT_COUNTRIES = [
  { code: "NO", name: "Norway" },
  { code: "AT", name: "Austria" },
  { code: "BE", name: "Belgium" },
  { code: "CA", name: "Canada" },
  { code: "DK", name: "Denmark" },
  { code: "FR", name: "France" },
  { code: "DE", name: "Germany" },
  { code: "IE", name: "Ireland" },
  { code: "IT", name: "Italy" },
  { code: "JP", name: "Japan" },
  { code: "LU", name: "Luxembourg" },
  { code: "MX", name: "Mexico" },
  { code: "NL", name: "Netherlands" },
  { code: "SE", name: "Sweden" },
  { code: "GB", name: "United Kingdom" },
  { code: "US", name: "United States" },
] as const;

export type CreditCountryCode = (typeof CREDIT_COUNTRIES)[number]["code"];

export function isCreditCountry(code: unknown): code is CreditCountryCode {
  return typeof code === "string" && CREDIT_COUNTRIES.some((c) => c.code === code);
}
