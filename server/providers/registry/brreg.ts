import { z } from "zod";
import {
  FINANCIAL_AMOUNT_FIELDS,
  RegistryError,
  normalizeOrgNumber,
  type FinancialAmountField,
  type RegistryFinancialStatement,
  type RegistryOrganization,
  type RegistryProvider,
  type RegistryRole,
  type RolePosition,
  type RegistrySearchOptions,
  type RegistrySearchResult,
} from "./types";

/**
 * The registry provider over Brønnøysundregistrene's open APIs
 * (Enhetsregisteret and Regnskapsregisteret at data.brreg.no, NLOD 2.0).
 * It knows nothing about our store; caching is the caller's business.
 */

export interface BrregProviderOptions {
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  /** Covers the whole exchange, body included, so a stalled response cannot hang a page. */
  timeoutMs?: number;
}

const DEFAULT_SEARCH_SIZE = 20;
// The register refuses pages beyond 10,000 hits; 100 per page keeps responses small.
const MAX_SEARCH_SIZE = 100;

// Schemas: only the fields we map, every one optional unless the register always
// sends it, and unknown keys are stripped, so new fields in the API break nothing.
const text = z.string().nullish();
const flag = z.boolean().nullish();
const amount = z.number().nullish();
const codeAndDescription = z.object({ kode: z.string(), beskrivelse: text });
// Text the register splits over lines: an array with null and '' padding, or a plain string in older payloads.
const lines = z.union([z.string(), z.array(z.string().nullable())]).nullish();

const addressSchema = z.object({
  adresse: lines,
  postnummer: text,
  poststed: text,
  landkode: text,
  kommune: text,
  kommunenummer: text,
});

const unitSchema = z.object({
  organisasjonsnummer: z.string(),
  navn: z.string(),
  organisasjonsform: codeAndDescription.nullish(),
  hjemmeside: text,
  postadresse: addressSchema.nullish(),
  forretningsadresse: addressSchema.nullish(),
  registreringsdatoEnhetsregisteret: text,
  registrertIMvaregisteret: flag,
  naeringskode1: codeAndDescription.nullish(),
  antallAnsatte: z.number().nullish(),
  stiftelsesdato: text,
  konkurs: flag,
  konkursdato: text,
  underAvvikling: flag,
  underTvangsavviklingEllerTvangsopplosning: flag,
  overordnetEnhet: text,
  vedtektsfestetFormaal: lines,
  aktivitet: lines,
  slettedato: text,
});
type Unit = z.infer<typeof unitSchema>;

const searchSchema = z.object({
  // Absent when there are no hits.
  _embedded: z.object({ enheter: z.array(unitSchema).nullish() }).nullish(),
  page: z.object({ totalElements: z.number() }).nullish(),
});

const roleSchema = z.object({
  type: codeAndDescription,
  person: z
    .object({
      fodselsdato: text,
      navn: z.object({ fornavn: text, mellomnavn: text, etternavn: text }).nullish(),
      erDoed: flag,
    })
    .nullish(),
  enhet: z
    .object({
      organisasjonsnummer: z.string(),
      organisasjonsform: codeAndDescription.nullish(),
      navn: lines,
      erSlettet: flag,
    })
    .nullish(),
  fratraadt: flag,
  avregistrert: flag,
  valgtAv: codeAndDescription.nullish(),
  ansvarsandel: text,
  rekkefolge: z.number().nullish(),
});
type Role = z.infer<typeof roleSchema>;

const rolesSchema = z.object({
  rollegrupper: z.array(z.object({ type: codeAndDescription, sistEndret: text, roller: z.array(roleSchema).nullish() })).nullish(),
});

const statementSchema = z.object({
  regnskapstype: text,
  virksomhet: z.object({ organisasjonsnummer: text }).nullish(),
  regnskapsperiode: z.object({ fraDato: text, tilDato: text }).nullish(),
  valuta: text,
  avviklingsregnskap: flag,
  revisjon: z.object({ ikkeRevidertAarsregnskap: flag }).nullish(),
  egenkapitalGjeld: z
    .object({
      sumEgenkapitalGjeld: amount,
      egenkapital: z
        .object({
          sumEgenkapital: amount,
          opptjentEgenkapital: z.object({ sumOpptjentEgenkapital: amount }).nullish(),
          // The misspelling is the API's own.
          innskuttEgenkapital: z.object({ sumInnskuttEgenkaptial: amount }).nullish(),
        })
        .nullish(),
      gjeldOversikt: z
        .object({
          sumGjeld: amount,
          kortsiktigGjeld: z.object({ sumKortsiktigGjeld: amount }).nullish(),
          langsiktigGjeld: z.object({ sumLangsiktigGjeld: amount }).nullish(),
        })
        .nullish(),
    })
    .nullish(),
  eiendeler: z
    .object({
      sumEiendeler: amount,
      goodwill: amount,
      sumVarer: amount,
      sumFordringer: amount,
      sumInvesteringer: amount,
      sumBankinnskuddOgKontanter: amount,
      omloepsmidler: z.object({ sumOmloepsmidler: amount }).nullish(),
      anleggsmidler: z.object({ sumAnleggsmidler: amount }).nullish(),
    })
    .nullish(),
  resultatregnskapResultat: z
    .object({
      ordinaertResultatFoerSkattekostnad: amount,
      ordinaertResultatSkattekostnad: amount,
      aarsresultat: amount,
      totalresultat: amount,
      finansresultat: z
        .object({
          nettoFinans: amount,
          finansinntekt: z.object({ sumFinansinntekter: amount }).nullish(),
          finanskostnad: z.object({ sumFinanskostnad: amount }).nullish(),
        })
        .nullish(),
      driftsresultat: z
        .object({
          driftsresultat: amount,
          driftsinntekter: z.object({ sumDriftsinntekter: amount, salgsinntekter: amount }).nullish(),
          driftskostnad: z.object({ sumDriftskostnad: amount, loennskostnad: amount }).nullish(),
        })
        .nullish(),
    })
    .nullish(),
});
type Statement = z.infer<typeof statementSchema>;

function clean(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function joinLines(value: z.infer<typeof lines>, separator: string): string | null {
  if (value == null) return null;
  const parts = (typeof value === "string" ? [value] : value).map(clean).filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(separator) : null;
}

function mapUnit(unit: Unit, deleted: boolean): RegistryOrganization {
  const street = unit.forretningsadresse;
  const postal = unit.postadresse;
  const isBankrupt = unit.konkurs === true;
  const isForcedLiquidation = unit.underTvangsavviklingEllerTvangsopplosning === true;
  const isUnderLiquidation = unit.underAvvikling === true || isForcedLiquidation;
  const deletionDate = clean(unit.slettedato);
  const isDeleted = deleted || deletionDate !== null;
  return {
    organization_id: unit.organisasjonsnummer,
    legal_name: unit.navn.trim(),
    type: clean(unit.organisasjonsform?.kode),
    type_description: clean(unit.organisasjonsform?.beskrivelse),
    industry_code: clean(unit.naeringskode1?.kode),
    industry_description: clean(unit.naeringskode1?.beskrivelse),
    purpose: joinLines(unit.vedtektsfestetFormaal, " ") ?? joinLines(unit.aktivitet, " "),
    number_of_employees: unit.antallAnsatte ?? null,
    establishment_date: clean(unit.stiftelsesdato),
    registration_date: clean(unit.registreringsdatoEnhetsregisteret),
    street_address: joinLines(street?.adresse, ", "),
    street_postal_code: clean(street?.postnummer),
    street_postal_area: clean(street?.poststed),
    postal_address: joinLines(postal?.adresse, ", "),
    postal_code: clean(postal?.postnummer),
    postal_area: clean(postal?.poststed),
    country_code: clean(street?.landkode) ?? clean(postal?.landkode),
    municipality: clean(street?.kommune),
    municipality_code: clean(street?.kommunenummer),
    website: clean(unit.hjemmeside),
    parent_org_number: clean(unit.overordnetEnhet),
    is_vat_registered: unit.registrertIMvaregisteret === true,
    is_bankrupt: isBankrupt,
    date_of_bankruptcy: clean(unit.konkursdato),
    is_under_liquidation: isUnderLiquidation,
    is_under_forced_liquidation: isForcedLiquidation,
    deleted: isDeleted,
    deletion_date: deletionDate,
    is_active: !isDeleted && !isBankrupt && !isUnderLiquidation,
  };
}

const POSITIONS: Record<string, RolePosition> = {
  DAGL: "ceo",
  LEDE: "chairman",
  NEST: "deputy_chairman",
  MEDL: "board_member",
  VARA: "deputy_board_member",
  OBS: "observer",
  REVI: "auditor",
  REGN: "accountant",
  KONT: "contact_person",
  INNH: "owner",
  DTPR: "partner",
  DTSO: "partner",
  KOMP: "partner",
  FFØR: "managing_agent",
};

const BOARD_POSITIONS: ReadonlySet<RolePosition> = new Set(["chairman", "deputy_chairman", "board_member", "deputy_board_member", "observer"]);

function mapRole(role: Role, group: { code: string; description: string | null; lastChanged: string | null }): RegistryRole | null {
  const position = POSITIONS[role.type.kode] ?? "other";
  let holder: RegistryRole["holder"];
  if (role.person) {
    const first = clean(role.person.navn?.fornavn);
    const middle = clean(role.person.navn?.mellomnavn);
    const last = clean(role.person.navn?.etternavn);
    holder = {
      kind: "person",
      name: [first, middle, last].filter((p): p is string => p !== null).join(" "),
      first_name: first,
      middle_name: middle,
      last_name: last,
      birth_date: clean(role.person.fodselsdato),
      is_deceased: role.person.erDoed === true,
    };
  } else if (role.enhet) {
    holder = {
      kind: "organization",
      // Unit names come as name lines here, unlike everywhere else in the API.
      name: joinLines(role.enhet.navn, " ") ?? role.enhet.organisasjonsnummer,
      organization_id: role.enhet.organisasjonsnummer,
      type: clean(role.enhet.organisasjonsform?.kode),
      is_deleted: role.enhet.erSlettet === true,
    };
  } else {
    // A role with no holder tells the user nothing about who holds it.
    return null;
  }
  return {
    group_code: group.code,
    group_description: group.description,
    role_code: role.type.kode,
    role_description: clean(role.type.beskrivelse),
    position,
    is_board: BOARD_POSITIONS.has(position),
    name: holder.name,
    birth_date: holder.kind === "person" ? holder.birth_date : null,
    holder,
    resigned: role.fratraadt === true || role.avregistrert === true,
    elected_by: clean(role.valgtAv?.beskrivelse),
    responsibility_share: clean(role.ansvarsandel),
    order: role.rekkefolge ?? null,
    group_last_changed: group.lastChanged,
  };
}

function rolesOf(data: z.infer<typeof rolesSchema>): RegistryRole[] {
  return (data.rollegrupper ?? []).flatMap((group) => {
    const context = {
      code: group.type.kode,
      description: clean(group.type.beskrivelse),
      lastChanged: clean(group.sistEndret),
    };
    return (group.roller ?? []).map((role) => mapRole(role, context)).filter((role): role is RegistryRole => role !== null);
  });
}

/**
 * A unit's roles in the register's own shape (`{rollegrupper: [...]}`, as `/enhetsregisteret/api/enheter/{orgnr}/roller`
 * answers and as each unit of the roles bulk download carries them), or the reason it cannot be read. The roles import uses it.
 */
export function parseRollegrupper(body: unknown): { ok: true; roles: RegistryRole[] } | { ok: false; reason: string } {
  const parsed = rolesSchema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join(".") || "rollegrupper"}: ${i.message}`).join("; ") };
  return { ok: true, roles: rolesOf(parsed.data) };
}

/**
 * Missing or placeholder currency codes mean the register's default, NOK:
 * regnskapsloven makes NOK the presentation currency unless an exception is filed.
 */
function currencyOf(valuta: string | null | undefined): string {
  const code = clean(valuta);
  return code && /^[A-Z]{3}$/.test(code) ? code : "NOK";
}

// The register publishes whole currency units; the product works in thousands.
function thousands(value: number | null | undefined): number | null {
  return value == null ? null : value / 1000;
}

function yearOf(date: string | null): number | null {
  const match = date ? /^(\d{4})-/.exec(date) : null;
  return match ? Number(match[1]) : null;
}

function mapStatement(statement: Statement, orgNumber: string): RegistryFinancialStatement | null {
  const periodStart = clean(statement.regnskapsperiode?.fraDato);
  const periodEnd = clean(statement.regnskapsperiode?.tilDato);
  const year = yearOf(periodEnd) ?? yearOf(periodStart);
  // Without a period the figures cannot be placed on a timeline.
  if (year === null) return null;

  const balance = statement.egenkapitalGjeld;
  const assets = statement.eiendeler;
  const result = statement.resultatregnskapResultat;
  const operations = result?.driftsresultat;
  const finance = result?.finansresultat;

  const amounts = Object.fromEntries(FINANCIAL_AMOUNT_FIELDS.map((field) => [field, null])) as Record<FinancialAmountField, number | null>;
  const set = (field: FinancialAmountField, value: number | null | undefined) => {
    amounts[field] = thousands(value);
  };
  set("operating_income", operations?.driftsinntekter?.sumDriftsinntekter);
  set("sales", operations?.driftsinntekter?.salgsinntekter);
  set("personnel_expenses", operations?.driftskostnad?.loennskostnad);
  set("operating_expenses", operations?.driftskostnad?.sumDriftskostnad);
  set("operating_profit", operations?.driftsresultat);
  set("financial_income", finance?.finansinntekt?.sumFinansinntekter);
  set("financial_expenses", finance?.finanskostnad?.sumFinanskostnad);
  set("net_financial_items", finance?.nettoFinans);
  set("ordinary_result_before_taxes", result?.ordinaertResultatFoerSkattekostnad);
  set("taxes", result?.ordinaertResultatSkattekostnad);
  set("net_income", result?.aarsresultat);
  set("total_result", result?.totalresultat);
  set("total_assets", assets?.sumEiendeler);
  set("fixed_assets", assets?.anleggsmidler?.sumAnleggsmidler);
  set("current_assets", assets?.omloepsmidler?.sumOmloepsmidler);
  set("goodwill", assets?.goodwill);
  set("inventories", assets?.sumVarer);
  set("receivables", assets?.sumFordringer);
  set("short_term_investments", assets?.sumInvesteringer);
  set("cash_and_deposits", assets?.sumBankinnskuddOgKontanter);
  set("total_equity_and_liabilities", balance?.sumEgenkapitalGjeld);
  set("equity", balance?.egenkapital?.sumEgenkapital);
  set("paid_up_equity", balance?.egenkapital?.innskuttEgenkapital?.sumInnskuttEgenkaptial);
  set("retained_earnings", balance?.egenkapital?.opptjentEgenkapital?.sumOpptjentEgenkapital);
  set("liabilities", balance?.gjeldOversikt?.sumGjeld);
  set("total_current_debt", balance?.gjeldOversikt?.kortsiktigGjeld?.sumKortsiktigGjeld);
  set("long_term_liabilities", balance?.gjeldOversikt?.langsiktigGjeld?.sumLangsiktigGjeld);

  const notAudited = statement.revisjon?.ikkeRevidertAarsregnskap;
  return {
    ...amounts,
    organization_id: clean(statement.virksomhet?.organisasjonsnummer) ?? orgNumber,
    financial_year: year,
    period_start: periodStart,
    period_end: periodEnd,
    currency: currencyOf(statement.valuta),
    statement_type: statement.regnskapstype?.toUpperCase() === "KONSERN" ? "group" : "company",
    is_audited: notAudited == null ? null : !notAudited,
    is_liquidation_statement: statement.avviklingsregnskap === true,
    number_of_employees: null,
  };
}

interface Reply {
  status: number;
  body: unknown;
}

export function createBrregProvider(options: BrregProviderOptions = {}): RegistryProvider {
  const baseUrl = (options.baseUrl ?? "https://data.brreg.no").replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 8000;

  /** GET a path; resolves for 2xx and the statuses the caller handles, throws RegistryError otherwise. */
  async function get(path: string, handled: readonly number[]): Promise<Reply> {
    const url = `${baseUrl}${path}`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let status: number;
    let raw: string;
    try {
      const response = await fetchImpl(url, {
        headers: { Accept: "application/json" },
        signal: controller.signal,
      });
      status = response.status;
      if (!response.ok && !handled.includes(status)) {
        // Drain so the connection can be reused.
        await response.body?.cancel().catch(() => undefined);
        throw new RegistryError("http", `Brønnøysund answered ${status} for ${path}`, { status });
      }
      raw = await response.text();
    } catch (error) {
      if (error instanceof RegistryError) throw error;
      if (controller.signal.aborted) {
        throw new RegistryError("timeout", `Brønnøysund did not answer within ${timeoutMs} ms for ${path}`, {
          cause: error,
        });
      }
      throw new RegistryError("network", `Brønnøysund could not be reached for ${path}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (!(status >= 200 && status < 300) && raw.trim() === "") return { status, body: null };
    try {
      return { status, body: JSON.parse(raw) as unknown };
    } catch (error) {
      throw new RegistryError("invalid_response", `Brønnøysund sent no JSON for ${path}`, { status, cause: error });
    }
  }

  function parse<T>(schema: z.ZodType<T>, body: unknown, path: string, status: number): T {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new RegistryError("invalid_response", `Unexpected response from Brønnøysund for ${path}: ${parsed.error.message}`, {
        status,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  function requireOrgNumber(input: string): string {
    const orgNumber = normalizeOrgNumber(input);
    if (orgNumber === null) {
      throw new RegistryError("invalid_org_number", `Not a valid Norwegian organisation number: '${input}'`);
    }
    return orgNumber;
  }

  return {
    async getOrganization(input) {
      const orgNumber = requireOrgNumber(input);
      const path = `/enhetsregisteret/api/enheter/${orgNumber}`;
      // 410 Gone is how the register reports a deleted unit; its body still names the unit.
      const reply = await get(path, [404, 410]);
      if (reply.status === 404) return null;
      return mapUnit(parse(unitSchema, reply.body, path, reply.status), reply.status === 410);
    },

    async getRoles(input) {
      const orgNumber = requireOrgNumber(input);
      const path = `/enhetsregisteret/api/enheter/${orgNumber}/roller`;
      const reply = await get(path, [404, 410]);
      if (reply.status === 404 || reply.status === 410) return [];
      return rolesOf(parse(rolesSchema, reply.body, path, reply.status));
    },

    async searchOrganizations(name, opts: RegistrySearchOptions = {}): Promise<RegistrySearchResult> {
      const query = name.trim();
      if (query === "") return { total: 0, items: [] };
      const page = Math.max(0, Math.floor(opts.page ?? 0));
      const size = Math.min(MAX_SEARCH_SIZE, Math.max(1, Math.floor(opts.size ?? DEFAULT_SEARCH_SIZE)));
      const params = new URLSearchParams({ navn: query, page: String(page), size: String(size) });
      const path = `/enhetsregisteret/api/enheter?${params.toString()}`;
      const reply = await get(path, []);
      const data = parse(searchSchema, reply.body, path, reply.status);
      const items = (data._embedded?.enheter ?? []).map((unit) => mapUnit(unit, false));
      return { total: data.page?.totalElements ?? items.length, items };
    },

    async getFinancialStatements(input) {
      const orgNumber = requireOrgNumber(input);
      const path = `/regnskapsregisteret/regnskap/${orgNumber}`;
      const reply = await get(path, [404, 410]);
      if (reply.status === 404 || reply.status === 410) return [];
      const data = parse(z.array(statementSchema), reply.body, path, reply.status);
      return data
        .map((statement) => mapStatement(statement, orgNumber))
        .filter((statement): statement is RegistryFinancialStatement => statement !== null)
        .sort((a, b) => b.financial_year - a.financial_year || (a.statement_type === b.statement_type ? 0 : a.statement_type === "company" ? -1 : 1));
    },
  };
}
