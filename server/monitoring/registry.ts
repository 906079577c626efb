import { detectRegistryChanges, type RegistryCompanyState } from "../../app/models/notifications/monitoring-rules";
import { now, type Db } from "../db";
import { raiseNotifications, type DetectedNotification } from "./notify";

/**
 * Registry monitoring (docs/decisions/023-registry-monitoring.md): wherever registry data of companies is written —
 * the bulk units import, the roles import, the live refresh, the update feed — the writer reads the followed companies' state
 * before, writes, reads it after and raises what changed, all inside its own transaction. Only companies followed by at least
 * one organisation are watched (a live connection to an organisation carrying the company's number): the others raise nothing,
 * and reading them would only slow a million-row import down.
 */

const BATCH = 500;

/** The companies among `orgNumbers` that some organisation follows. */
export async function followedOrgNumbers(database: Db, orgNumbers: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const unique = [...new Set(orgNumbers)];
  for (let i = 0; i < unique.length; i += BATCH) {
    const part = unique.slice(i, i + BATCH);
    const rows = await database
      .selectFrom("organizations as o")
      .innerJoin("organization_connections as oc", "oc.child_organization_id", "o.id")
      .select("o.org_number")
      .distinct()
      .where("oc.is_deleted", "=", 0)
      .where("o.org_number", "in", part)
      .execute();
    for (const r of rows) if (r.org_number) out.push(r.org_number);
  }
  return out;
}

export interface RegistrySnapshot {
  companyId: number;
  state: RegistryCompanyState;
}

/** The monitored state of these companies (those in the store), by organisation number. */
export async function readRegistryStates(database: Db, orgNumbers: readonly string[]): Promise<Map<string, RegistrySnapshot>> {
  const out = new Map<string, RegistrySnapshot>();
  if (orgNumbers.length === 0) return out;
  const companies = await database
    .selectFrom("companies")
    .select([
      "id",
      "org_number",
      "legal_name",
      "country_code",
      "org_form",
      "org_form_description",
      "street_address",
      "street_postal_code",
      "street_postal_area",
      "municipality",
      "municipality_code",
      "is_bankrupt",
      "date_of_bankruptcy",
      "is_under_liquidation",
      "is_under_forced_liquidation",
      "deleted_at",
    ])
    .where("org_number", "in", [...new Set(orgNumbers)])
    .execute();
  if (companies.length === 0) return out;
  const ids = companies.map((c) => c.id);
  const [roles, statements, announcements] = await Promise.all([
    database
      .selectFrom("roles")
      .innerJoin("persons", "persons.id", "roles.person_id")
      .select(["roles.company_id", "roles.position", "persons.name", "persons.birth_year"])
      .where("roles.company_id", "in", ids)
      .where("roles.active_to", "is", null)
      .execute(),
    database
      .selectFrom("financial_statements")
      .select(["company_id", "financial_year", "financial_risk_score"])
      .where("company_id", "in", ids)
      .orderBy("financial_year", "desc")
      .execute(),
    database.selectFrom("announcements").select(["company_id", "date", "type", "detail", "risk"]).where("company_id", "in", ids).execute(),
  ]);
  for (const c of companies) {
    const newest = statements.find((s) => s.company_id === c.id);
    let score: number | null = null;
    if (newest?.financial_risk_score) {
      try {
        const parsed = JSON.parse(newest.financial_risk_score) as { finalScore?: unknown };
        score = typeof parsed.finalScore === "number" ? parsed.finalScore : null;
      } catch {
        score = null;
      }
    }
    out.set(c.org_number, {
      companyId: c.id,
      state: {
        orgNumber: c.org_number,
        name: c.legal_name,
        countryCode: c.country_code,
        orgForm: c.org_form,
        orgFormDescription: c.org_form_description,
        streetAddress: c.street_address,
        streetPostalCode: c.street_postal_code,
        streetPostalArea: c.street_postal_area,
        municipality: c.municipality,
        municipalityCode: c.municipality_code,
        isBankrupt: c.is_bankrupt === 1,
        bankruptcyDate: c.date_of_bankruptcy,
        isUnderLiquidation: c.is_under_liquidation === 1,
        isUnderForcedLiquidation: c.is_under_forced_liquidation === 1,
        deletedAt: c.deleted_at,
        roles: roles.filter((r) => r.company_id === c.id).map((r) => ({ name: r.name, birthYear: r.birth_year, position: r.position })),
        latestStatement: newest ? { year: newest.financial_year, score } : null,
        announcements: announcements.filter((a) => a.company_id === c.id).map((a) => ({ date: a.date, type: a.type, detail: a.detail, risk: a.risk })),
      },
    });
  }
  return out;
}

/** Compares the states and raises the notifications; returns the ids written (a change already raised is skipped). */
export async function raiseRegistryChanges(
  database: Db,
  before: Map<string, RegistrySnapshot>,
  after: Map<string, RegistrySnapshot>,
  at: string = now(),
): Promise<number[]> {
  const items: DetectedNotification[] = [];
  for (const [orgNumber, next] of after) {
    const previous = before.get(orgNumber);
    for (const d of detectRegistryChanges(previous?.state ?? null, next.state, at)) items.push({ ...d, companyId: next.companyId });
  }
  return items.length ? raiseNotifications(database, items) : [];
}

/**
 * Runs `write` between two readings of the followed companies among `orgNumbers`, in the caller's transaction, and raises
 * what changed. Returns what `write` returned and the notification ids written.
 */
export async function monitorRegistryWrite<R>(
  trx: Db,
  orgNumbers: readonly string[],
  write: () => Promise<R>,
  at?: string,
): Promise<{ result: R; notificationIds: number[] }> {
  const followed = await followedOrgNumbers(trx, orgNumbers);
  if (followed.length === 0) return { result: await write(), notificationIds: [] };
  const before = await readRegistryStates(trx, followed);
  const result = await write();
  const after = await readRegistryStates(trx, followed);
  return { result, notificationIds: await raiseRegistryChanges(trx, before, after, at) };
}
