/**
 * Norwegian organisation numbers as people type them into spreadsheets, and the rules that decide whether one is a
 * number the register can have issued. Pure: the supplier-list import (app/models/files/supplier-analysis-job.server.ts) uses it
 * for every row, and the tests use it directly.
 */

const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2] as const;

/** Why a cell is not an organisation number; each is a key of the `imports` locale namespace (`reason.<key>`). */
export type OrgNumberProblem = "not-digits" | "wrong-length" | "check-digit";

export type OrgNumberCheck = { kind: "empty" } | { kind: "valid"; orgNumber: string } | { kind: "invalid"; problem: OrgNumberProblem; cleaned: string };

/**
 * Strips what surrounds the digits in a typed or exported number: whitespace of every kind (NBSP, thin space), dots,
 * dashes, a leading apostrophe (Excel's "text" marker), a country prefix `NO`, a VAT suffix `MVA`, and the `.0` (or the
 * exponent) of a number that Excel stored as a float. Keeps anything else, so a letter in the middle stays visible
 * to the check.
 */
export function normaliseOrgNumber(raw: string): string {
  let s = raw.normalize("NFKC").trim();
  s = s.replace(/^['’‘`]+/, "").trim();
  // A float as Excel writes it: 912345678.0, 912345678.00 or 9.12345678E+08.
  const float = /^(\d+)\.0+$/.exec(s);
  if (float) return float[1];
  const exp = /^(\d)\.(\d+)[eE]\+?(\d+)$/.exec(s);
  if (exp && exp[2].length <= Number(exp[3])) return exp[1] + exp[2].padEnd(Number(exp[3]), "0");
  s = s.replace(/^NO(?=[\s\d.\-–—])/i, "");
  s = s.replace(/\s*MVA\.?$/i, "");
  return s.replace(/[\s.\-–—_/]/g, "");
}

/** The modulus-11 check of a nine-digit number (weights 3 2 7 6 5 4 3 2; remainder 1 has no check digit; 11 → 0). */
export function hasValidCheckDigit(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += WEIGHTS[i] * Number(digits[i]);
  const remainder = sum % 11;
  if (remainder === 1) return false;
  const control = remainder === 0 ? 0 : 11 - remainder;
  return control === Number(digits[8]);
}

/** Reads one cell: empty, a valid organisation number (nine digits), or invalid with the reason. */
export function checkOrgNumber(raw: string | null | undefined): OrgNumberCheck {
  if (raw == null || raw.trim() === "") return { kind: "empty" };
  const cleaned = normaliseOrgNumber(raw);
  if (cleaned === "") return { kind: "empty" };
  if (!/^\d+$/.test(cleaned)) return { kind: "invalid", problem: "not-digits", cleaned };
  if (cleaned.length !== 9) return { kind: "invalid", problem: "wrong-length", cleaned };
  if (!hasValidCheckDigit(cleaned)) return { kind: "invalid", problem: "check-digit", cleaned };
  return { kind: "valid", orgNumber: cleaned };
}

const LEGAL_FORMS = new Set([
  "as",
  "asa",
  "ans",
  "da",
  "sa",
  "ba",
  "ks",
  "nuf",
  "enk",
  "stiftelse",
  "ltd",
  "limited",
  "inc",
  "ab",
  "oy",
  "gmbh",
  "aps",
  "bv",
  "llc",
  "plc",
]);

/**
 * A company name reduced to what identifies it: lower case, accents folded except the Norwegian letters, punctuation as
 * spaces, and a trailing legal form (AS, ASA, Ltd, …) dropped. "Aker Solutions ASA" and "AKER SOLUTIONS" compare equal.
 */
export function normaliseCompanyName(name: string): string {
  const lowered = name.normalize("NFKC").toLowerCase().replace(/&/g, " og ");
  const words = lowered
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  while (words.length > 1 && LEGAL_FORMS.has(words[words.length - 1])) words.pop();
  return words.join(" ");
}

/**
 * How close a registry name is to the name in the file, from 0 to 1: 1 for the same normalised name, otherwise the
 * share of the words they have in common (Dice coefficient over words), so "Aker Solutions" against "Aker Solutions
 * Norway" scores 0.8.
 */
export function nameConfidence(fileName: string, registryName: string): number {
  const a = normaliseCompanyName(fileName);
  const b = normaliseCompanyName(registryName);
  if (a === "" || b === "") return 0;
  if (a === b) return 1;
  const wa = a.split(" ");
  const wb = new Set(b.split(" "));
  const common = new Set(wa.filter((w) => wb.has(w))).size;
  const score = (2 * common) / (new Set(wa).size + wb.size);
  return Math.round(score * 0.95 * 100) / 100;
}
