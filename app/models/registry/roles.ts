/**
 * The register's role codes (Brønnøysundregistrene, rolletype) and the
 * position texts the store holds, so a role is shown in the user's language
 * whatever language it was recorded in: the register sync writes the
 * register's Norwegian description ('Styremedlem', 'Daglig leder (CEO)'),
 * the seed writes Norwegian or English ('Board member', 'Chairman of the
 * board'). The label of each code lives in the locale files under
 * `people:roles.<CODE>`; a position that matches no code is shown as stored.
 *
 * Pure: used by components (board, person dialog) and usable by server code.
 */

export const ROLE_CODES = [
  "DAGL",
  "LEDE",
  "NEST",
  "MEDL",
  "VARA",
  "OBS",
  "KONT",
  "REVI",
  "REGN",
  "DTPR",
  "DTSO",
  "KOMP",
  "INNH",
  "FFØR",
  "BEST",
  "REPR",
  "SIFE",
] as const;

export type RoleCode = (typeof ROLE_CODES)[number];

/**
 * The texts (lower case, without a trailing '(CEO)') by which each code is
 * recorded: the register's Norwegian descriptions, their common variants and
 * the English ones.
 */
const ALIASES: Record<RoleCode, readonly string[]> = {
  DAGL: [
    "daglig leder",
    "adm. direktør",
    "administrerende direktør",
    "daglig leder/adm. direktør",
    "ceo",
    "chief executive officer",
    "managing director",
    "general manager",
  ],
  LEDE: ["styreleder", "styrets leder", "leder", "chairman of the board", "chair of the board", "chairman", "chair", "chairperson"],
  NEST: ["nestleder", "styrets nestleder", "deputy chairman", "deputy chair", "vice chairman", "vice chair", "deputy chair of the board"],
  MEDL: ["styremedlem", "medlem", "board member", "member of the board", "director"],
  VARA: ["varamedlem", "varamedlem til styret", "deputy board member", "deputy member", "alternate board member", "alternate member"],
  OBS: ["observatør", "observer", "board observer"],
  KONT: ["kontaktperson", "contact person"],
  REVI: ["revisor", "auditor"],
  REGN: ["regnskapsfører", "accountant"],
  DTPR: [
    "deltaker med proratarisk ansvar",
    "deltaker med delt ansvar (proratarisk)",
    "partner with pro rata liability",
    "partner with proportionate liability",
  ],
  DTSO: ["deltaker med solidarisk ansvar", "deltaker med fullt ansvar", "partner with joint and several liability", "partner with unlimited liability"],
  KOMP: ["komplementar", "general partner"],
  INNH: ["innehaver", "owner", "proprietor", "sole proprietor"],
  FFØR: ["forretningsfører", "managing agent", "business manager"],
  BEST: ["bestyrende reder", "managing owner"],
  REPR: ["norsk representant for utenlandsk enhet", "norwegian representative of a foreign entity"],
  SIFE: ["signatur", "signaturberettiget", "signatory"],
};

const BY_TEXT: ReadonlyMap<string, RoleCode> = new Map(
  ROLE_CODES.flatMap((code) => [[code.toLowerCase(), code] as const, ...ALIASES[code].map((a) => [a, code] as const)]),
);

function normalise(position: string): string {
  return position
    .normalize("NFC")
    .toLocaleLowerCase("nb")
    .replace(/\(\s*ceo\s*\)/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The role code a position text or code stands for, or null when it is none the product knows. */
export function roleCode(position: string | null | undefined): RoleCode | null {
  if (!position) return null;
  return BY_TEXT.get(normalise(position)) ?? null;
}

/** The locale key of a position's label (`people:roles.MEDL`), or null: then show the position as stored. */
export function roleLabelKey(position: string | null | undefined): `roles.${RoleCode}` | null {
  const code = roleCode(position);
  return code ? `roles.${code}` : null;
}

/**
 * A position in the UI language: `t` is the `people` namespace's translate
 * function. Unknown positions come back as stored; a missing one as ''.
 */
export function roleLabel(position: string | null | undefined, t: (key: `roles.${RoleCode}`) => string): string {
  const key = roleLabelKey(position);
  return key ? t(key) : (position ?? "").trim();
}
