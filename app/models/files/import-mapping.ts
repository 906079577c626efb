import { checkOrgNumber } from "~/models/shared/org-number";

/**
 * The column mapping of a supplier-list import: which columns hold the organisation number, the name and the
 * country, guessed from the file's first rows and checked against the file before an analysis starts. Pure, so the
 * analysis screen and the analyzeFile call share one rule.
 */

/** What a mapping can be refused for; each is `analyze.errors.<code>` in the imports namespace. */
export type MappingProblem = "select-both" | "same-column" | "no-such-column" | "no-such-sheet";

export interface MappingInput {
  orgId: number | null;
  orgName: number | null;
  countryCode: number | null;
  hasHeaders: boolean;
  sheet: number;
}

export function mappingProblem(
  mapping: MappingInput,
  source: { columnCount: number; sheets: readonly string[] },
): { problem: MappingProblem; field: string } | null {
  if (mapping.orgId === null || mapping.orgName === null) return { problem: "select-both", field: mapping.orgId === null ? "orgId" : "orgName" };
  if (mapping.sheet < 0 || mapping.sheet >= source.sheets.length) return { problem: "no-such-sheet", field: "sheet" };
  for (const field of ["orgId", "orgName", "countryCode"] as const) {
    const index = mapping[field];
    if (index !== null && (index < 0 || index >= source.columnCount)) return { problem: "no-such-column", field };
  }
  if (mapping.orgId === mapping.orgName) return { problem: "same-column", field: "orgName" };
  if (mapping.countryCode !== null && (mapping.countryCode === mapping.orgId || mapping.countryCode === mapping.orgName))
    return { problem: "same-column", field: "countryCode" };
  return null;
}

const squash = (header: string) =>
  header
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
const ORG_ID_HEADERS = new Set([
  "orgnr",
  "orgno",
  "orgnummer",
  "organisasjonsnummer",
  "organisasjonsnr",
  "organizationnumber",
  "organisationnumber",
  "orgnumber",
  "orgid",
  "organizationid",
  "foretaksnummer",
  "foretaksregisteret",
]);
const NAME_HEADERS = new Set([
  "name",
  "navn",
  "leverandør",
  "leverandor",
  "supplier",
  "suppliername",
  "leverandørnavn",
  "firmanavn",
  "firma",
  "company",
  "companyname",
  "selskap",
  "selskapsnavn",
  "organisasjonsnavn",
  "organizationname",
  "orgname",
]);
const COUNTRY_HEADERS = new Set(["land", "country", "countrycode", "landkode", "nation"]);

/**
 * The mapping guessed from the header line (orgnr, organisasjonsnummer, org.nr, org nr, organization number, name, navn,
 * leverandør, supplier, land, country, …), or without headers from the content: the column that holds mostly valid
 * organisation numbers, and the first mostly-text column beside it.
 */
export function guessMapping(preview: string[][], hasHeaders: boolean): { orgId: number | null; orgName: number | null; countryCode: number | null } {
  const width = preview[0]?.length ?? 0;
  const guess = { orgId: null as number | null, orgName: null as number | null, countryCode: null as number | null };
  if (hasHeaders && preview[0]) {
    preview[0].forEach((cell, i) => {
      const h = squash(cell);
      if (guess.orgId === null && (ORG_ID_HEADERS.has(h) || h.startsWith("organisasjonsnummer") || h.startsWith("orgnr"))) guess.orgId = i;
      else if (guess.orgName === null && NAME_HEADERS.has(h)) guess.orgName = i;
      else if (guess.countryCode === null && COUNTRY_HEADERS.has(h)) guess.countryCode = i;
    });
  }
  const body = hasHeaders ? preview.slice(1) : preview;
  const filled = (i: number) => body.filter((r) => (r[i] ?? "").trim() !== "");
  if (guess.orgId === null && body.length) {
    for (let i = 0; i < width; i++) {
      const cells = filled(i);
      if (cells.length && cells.filter((r) => checkOrgNumber(r[i]).kind === "valid").length * 2 >= cells.length) {
        guess.orgId = i;
        break;
      }
    }
  }
  if (guess.orgName === null && body.length) {
    for (let i = 0; i < width; i++) {
      if (i === guess.orgId || i === guess.countryCode) continue;
      const cells = filled(i);
      if (cells.length && cells.filter((r) => /\p{L}{3,}/u.test(r[i])).length * 2 > cells.length) {
        guess.orgName = i;
        break;
      }
    }
  }
  return guess;
}
