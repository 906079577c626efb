/**
 * NACE Rev. 2 / SN2007 sections (A–U) from an industry code's division (its first two digits, "62.010" → 62 → J).
 * The sections' names are texts (locales `dashboard.industries.<letter>`), not data here.
 */

export const NACE_SECTIONS = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U"] as const;
export type NaceSection = (typeof NACE_SECTIONS)[number];

/** Each section's first and last division (NACE Rev. 2; divisions 04, 34, 40, 44, 48, 54, 57, 67, 76, 83, 89 do not exist). */
const DIVISIONS: ReadonlyArray<readonly [NaceSection, number, number]> = [
  ["A", 1, 3],
  ["B", 5, 9],
  ["C", 10, 33],
  ["D", 35, 35],
  ["E", 36, 39],
  ["F", 41, 43],
  ["G", 45, 47],
  ["H", 49, 53],
  ["I", 55, 56],
  ["J", 58, 63],
  ["K", 64, 66],
  ["L", 68, 68],
  ["M", 69, 75],
  ["N", 77, 82],
  ["O", 84, 84],
  ["P", 85, 85],
  ["Q", 86, 88],
  ["R", 90, 93],
  ["S", 94, 96],
  ["T", 97, 98],
  ["U", 99, 99],
];

/** The section of a division number, null for a number that is no NACE division. */
export function naceSectionOfDivision(division: number): NaceSection | null {
  for (const [section, from, to] of DIVISIONS) if (division >= from && division <= to) return section;
  return null;
}

/** The section of an industry code ("62.010", "01.110", "62"), null when the code is missing or not a NACE code. */
export function naceSection(code: string | null | undefined): NaceSection | null {
  const match = /^\s*(\d{2})(?:\.|\d|\s*$)/.exec(code ?? "");
  return match ? naceSectionOfDivision(Number(match[1])) : null;
}
