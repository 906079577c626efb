import type { Kysely } from "kysely";
import { now } from "../../db";
import type { DB } from "../../db-types";
import { upsertUnits, type UnitRecord } from "../../importers/brreg-units";
import { monitorRegistryWrite } from "../../monitoring/registry";
import type { RegistryFinancialStatement, RegistryOrganization, RegistryProvider, RegistryRole } from "./types";

/**
 * Refreshes the store from a live registry. The screens always read the
 * store; with REGISTRY_PROVIDER=brreg a company is fetched when it is missing
 * or older than `maxAgeMs`, and what came back is cached: the unit, its
 * board and CEO, and its statements.
 */
export const REGISTRY_CACHE_MS = 24 * 60 * 60 * 1000;

export type SyncOutcome = "fresh" | "fetched" | "unknown";

function unitRecord(orgNumber: string, org: RegistryOrganization): UnitRecord {
  return {
    org_number: orgNumber,
    legal_name: org.legal_name,
    country_code: org.country_code ?? "NO",
    org_form: org.type,
    org_form_description: org.type_description,
    industry_code: org.industry_code,
    industry_description: org.industry_description,
    purpose: org.purpose,
    activity: null,
    number_of_employees: org.number_of_employees,
    establishment_date: org.establishment_date,
    registration_date: org.registration_date,
    // The adapter joins address lines with ', '; the store keeps one per line.
    street_address: org.street_address?.split(", ").join("\n") ?? null,
    street_postal_code: org.street_postal_code,
    street_postal_area: org.street_postal_area,
    municipality: org.municipality,
    municipality_code: org.municipality_code,
    postal_address: org.postal_address?.split(", ").join("\n") ?? null,
    postal_code: org.postal_code,
    postal_area: org.postal_area,
    website: org.website,
    is_vat_registered: org.is_vat_registered,
    is_bankrupt: org.is_bankrupt,
    date_of_bankruptcy: org.date_of_bankruptcy,
    is_under_liquidation: org.is_under_liquidation,
    is_under_forced_liquidation: org.is_under_forced_liquidation,
    deleted_at: org.deleted ? (org.deletion_date ?? now().slice(0, 10)) : null,
    parent_org_number: org.parent_org_number,
  };
}

/** Board and management roles held by people: what the screens show. */
const SHOWN_POSITIONS = new Set(["ceo", "chairman", "deputy_chairman", "board_member", "deputy_board_member", "observer"]);

function positionText(role: RegistryRole): string {
  // The register's own Norwegian wording; the CEO and chair detection rules read it ('daglig leder' is given an explicit CEO mark).
  if (role.position === "ceo") return `${role.role_description ?? "Daglig leder"} (CEO)`;
  return role.role_description ?? role.role_code;
}

async function personId(trx: Kysely<DB>, name: string, birthDate: string | null): Promise<number> {
  const birthYear = birthDate ? Number(birthDate.slice(0, 4)) : null;
  let q = trx.selectFrom("persons").select("id").where("name", "=", name);
  q = birthYear == null ? q.where("birth_year", "is", null) : q.where("birth_year", "=", birthYear);
  const found = await q.executeTakeFirst();
  if (found) return found.id;
  const row = await trx.insertInto("persons").values({ name, birth_year: birthYear, sex: null, country_code: "NO" }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** The register is the truth for a company's roles: replaces the stored ones (board and management held by people). */
export async function replaceRoles(trx: Kysely<DB>, companyId: number, roles: readonly RegistryRole[]): Promise<void> {
  await trx.deleteFrom("roles").where("company_id", "=", companyId).execute();
  const today = now().slice(0, 10);
  for (const role of roles) {
    if (role.holder.kind !== "person" || !SHOWN_POSITIONS.has(role.position)) continue;
    await trx
      .insertInto("roles")
      .values({
        person_id: await personId(trx, role.name, role.birth_date),
        company_id: companyId,
        position: positionText(role),
        active_from: null,
        active_to: role.resigned ? today : null,
      })
      .execute();
  }
}

const STATEMENT_META = new Set([
  "organization_id",
  "financial_year",
  "period_start",
  "period_end",
  "currency",
  "statement_type",
  "is_audited",
  "is_liquidation_statement",
]);

function statementValues(companyId: number, s: RegistryFinancialStatement) {
  const amounts: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(s)) if (!STATEMENT_META.has(key) && (typeof value === "number" || value === null)) amounts[key] = value;
  return {
    company_id: companyId,
    financial_year: s.financial_year,
    period_start: s.period_start,
    period_end: s.period_end,
    currency: s.currency,
    source: "brreg-api",
    updated_at: now(),
    ...amounts,
  };
}

/** What the live registry says of one company: its unit, and (unless it is deleted) its roles and statements. */
export interface FetchedCompany {
  orgNumber: string;
  org: RegistryOrganization;
  roles: RegistryRole[];
  statements: RegistryFinancialStatement[];
}

/** Reads one company from the live registry (no database access); null when the register does not know it. */
export async function fetchCompany(provider: RegistryProvider, orgNumber: string): Promise<FetchedCompany | null> {
  const org = await provider.getOrganization(orgNumber);
  if (!org) return null;
  const [roles, statements] = org.deleted ? [[], []] : await Promise.all([provider.getRoles(orgNumber), provider.getFinancialStatements(orgNumber)]);
  return { orgNumber, org, roles, statements };
}

/**
 * Writes what the live registry said into the store, inside the caller's transaction, and raises the notifications the
 * change is worth when the company is followed (decision 023). Returns the notification ids written.
 */
export async function writeFetchedCompany(trx: Kysely<DB>, fetched: FetchedCompany): Promise<number[]> {
  const { orgNumber, org, roles, statements } = fetched;
  const { notificationIds } = await monitorRegistryWrite(trx, [orgNumber], async () => {
    await upsertUnits(trx, [{ line: 0, value: unitRecord(orgNumber, org) }], "brreg-api", { monitor: false });
    const company = await trx.selectFrom("companies").select("id").where("org_number", "=", orgNumber).executeTakeFirstOrThrow();

    // A deleted unit's roles are not fetched: keep what the store had rather than reading it as "everyone left".
    if (!org.deleted) await replaceRoles(trx, company.id, roles);

    // Company accounts in NOK only: group accounts and other currencies would not compare.
    for (const s of statements) {
      if (s.statement_type !== "company" || s.currency !== "NOK") continue;
      const values = statementValues(company.id, s);
      await trx
        .insertInto("financial_statements")
        .values(values)
        .onConflict((oc) => oc.columns(["company_id", "financial_year"]).doUpdateSet(values))
        .execute();
    }
  });
  return notificationIds;
}

export async function syncCompany(database: Kysely<DB>, provider: RegistryProvider, orgNumber: string, maxAgeMs = REGISTRY_CACHE_MS): Promise<SyncOutcome> {
  const cached = await database.selectFrom("companies").select(["source", "updated_at"]).where("org_number", "=", orgNumber).executeTakeFirst();
  if (cached?.source === "brreg-api" && Date.now() - Date.parse(cached.updated_at) < maxAgeMs) return "fresh";

  const fetched = await fetchCompany(provider, orgNumber);
  if (!fetched) return "unknown";
  await database.transaction().execute((trx) => writeFetchedCompany(trx, fetched));
  return "fetched";
}

/** Caches the organisations of a live name search, so the local search finds them. */
export async function syncSearch(database: Kysely<DB>, provider: RegistryProvider, term: string, size = 10): Promise<number> {
  const result = await provider.searchOrganizations(term, { size });
  const units = result.items.filter((o) => /^\d{9}$/.test(o.organization_id)).map((o, i) => ({ line: i, value: unitRecord(o.organization_id, o) }));
  if (units.length) await database.transaction().execute((trx) => upsertUnits(trx, units, "brreg-api"));
  return units.length;
}
