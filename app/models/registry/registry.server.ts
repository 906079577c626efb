import { sql } from "kysely";
import { ftsQuery } from "~/models/registry/fts";
import { db } from "@server/db";
import type { FinancialRiskScore, FinancialStatement } from "~/models/registry/financials";
import { searchedOrgNumber } from "~/models/registry/registry-params";
import { intelligenceFor } from "~/models/assistant/intelligence-texts.server";
import { factsOfCompany, type ComposedIntelligence, type IntelligenceLanguage } from "~/models/assistant/supplier-intelligence";

/**
 * Reads of the registry store in the shapes of shared/spec/02-supplier-credit-connections.md §3. Registry data is
 * public company information, not organisation-owned: any signed-in user with
 * access level 2 may read it (the routes enforce the level).
 *
 * Identifiers: an organisation is named by its organisation number (the
 * spec's `organization_id` / externalId); a person by its numeric id.
 * References are paths: `/organizations/{orgnr}` and `/people/{id}`.
 */

export const orgReference = (orgNumber: string) => `/organizations/${orgNumber}`;
export const personReference = (personId: number) => `/people/${personId}`;

/* ---------------- companies ---------------- */

async function companyRow(orgNumber: string) {
  return db().selectFrom("companies").selectAll().where("org_number", "=", orgNumber).executeTakeFirst();
}

export type CompanyRow = NonNullable<Awaited<ReturnType<typeof companyRow>>>;

export async function findCompany(orgNumber: string): Promise<CompanyRow | undefined> {
  return companyRow(orgNumber.replace(/\s/g, ""));
}

/** Latest operating income and profit per company, for search hits. */
async function latestFigures(companyIds: number[]) {
  if (!companyIds.length) return new Map<number, { opInc: number | null; opProft: number | null }>();
  const rows = await db()
    .selectFrom("financial_statements as fs")
    .select(["fs.company_id", "fs.operating_income", "fs.operating_profit", "fs.financial_year"])
    .where("fs.company_id", "in", companyIds)
    .where(({ eb, selectFrom }) =>
      eb(
        "fs.financial_year",
        "=",
        selectFrom("financial_statements as f2")
          .select((e) => e.fn.max("f2.financial_year").as("y"))
          .whereRef("f2.company_id", "=", "fs.company_id"),
      ),
    )
    .execute();
  return new Map(rows.map((r) => [r.company_id, { opInc: r.operating_income, opProft: r.operating_profit }]));
}

export interface OrganizationHit {
  id: string;
  name: string;
  opInc: number | null;
  opProft: number | null;
  country: string;
  type: string | null;
  is_active: boolean;
  date_of_bankruptcy: string | null;
}

/** Organisation search (shared/spec/01-shell-chat-lei.md §3 "Organisation search hit"), best match first. */
export async function searchCompanies(term: string, limit = 10): Promise<{ found: number; hits: OrganizationHit[] }> {
  const clean = term.trim();
  if (!clean) return { found: 0, hits: [] };
  let rows: Array<Pick<CompanyRow, "id" | "org_number" | "legal_name" | "country_code" | "org_form" | "is_active" | "date_of_bankruptcy">>;
  let found: number;
  const orgNumber = searchedOrgNumber(clean);
  if (orgNumber) {
    const row = await findCompany(orgNumber);
    rows = row ? [row] : [];
    found = rows.length;
  } else {
    const match = ftsQuery(clean);
    if (!match) return { found: 0, hits: [] };
    const counted = await sql<{ n: number }>`select count(*) as n from companies_fts where companies_fts match ${match}`.execute(db());
    found = Number(counted.rows[0]?.n ?? 0);
    // Active companies first, then relevance; larger companies break ties.
    rows = await db()
      .selectFrom(
        sql<{ rowid: number; rank: number }>`(select rowid, rank from companies_fts where companies_fts match ${match} order by rank limit 200)`.as("m"),
      )
      .innerJoin("companies", "companies.id", "m.rowid")
      .select([
        "companies.id",
        "companies.org_number",
        "companies.legal_name",
        "companies.country_code",
        "companies.org_form",
        "companies.is_active",
        "companies.date_of_bankruptcy",
      ])
      .orderBy("companies.is_active", "desc")
      .orderBy("m.rank")
      .orderBy(sql`coalesce(companies.number_of_employees, 0)`, "desc")
      .limit(limit)
      .execute();
  }
  const figures = await latestFigures(rows.map((r) => r.id));
  return {
    found,
    hits: rows.map((r) => ({
      id: r.org_number,
      name: r.legal_name,
      opInc: figures.get(r.id)?.opInc ?? null,
      opProft: figures.get(r.id)?.opProft ?? null,
      country: r.country_code,
      type: r.org_form,
      is_active: r.is_active === 1,
      date_of_bankruptcy: r.date_of_bankruptcy,
    })),
  };
}

export interface PersonHit {
  pId: number;
  name: string;
  scor: number;
  orgNam: string;
}

/** Person search (shared/spec/01-shell-chat-lei.md §3 "Person search hit"): board score and the main organisation. */
export async function searchPersons(term: string, limit = 10): Promise<{ found: number; hits: PersonHit[] }> {
  const match = ftsQuery(term.trim());
  if (!match) return { found: 0, hits: [] };
  const counted = await sql<{ n: number }>`select count(*) as n from persons_fts where persons_fts match ${match}`.execute(db());
  const rows = await db()
    .selectFrom(sql<{ rowid: number; rank: number }>`(select rowid, rank from persons_fts where persons_fts match ${match} order by rank limit 200)`.as("m"))
    .innerJoin("persons", "persons.id", "m.rowid")
    .select((eb) => [
      "persons.id",
      "persons.name",
      "persons.boardscore",
      eb
        .selectFrom("roles")
        .innerJoin("companies", "companies.id", "roles.company_id")
        .select("companies.legal_name")
        .whereRef("roles.person_id", "=", "persons.id")
        .where("roles.active_to", "is", null)
        .orderBy(sql`coalesce(companies.number_of_employees, 0)`, "desc")
        .limit(1)
        .as("org_name"),
    ])
    .orderBy("m.rank")
    .orderBy("persons.boardscore", "desc")
    .limit(limit)
    .execute();
  return {
    found: Number(counted.rows[0]?.n ?? 0),
    hits: rows.map((r) => ({ pId: r.id, name: r.name, scor: r.boardscore ?? 0, orgNam: r.org_name ?? "" })),
  };
}

/* ---------------- financial statements ---------------- */

export interface StatementOut extends FinancialStatement {
  deprecation: number | null;
  currency: string;
}

export async function financialStatements(companyId: number): Promise<StatementOut[]> {
  const rows = await db().selectFrom("financial_statements").selectAll().where("company_id", "=", companyId).orderBy("financial_year", "desc").execute();
  return rows.map(({ id: _id, company_id: _c, source: _s, updated_at: _u, period_start: _ps, period_end: _pe, financial_risk_score, ...rest }) => ({
    ...rest,
    deprecation: rest.depreciation,
    financial_risk_score: financial_risk_score ? (JSON.parse(financial_risk_score) as FinancialRiskScore) : undefined,
  })) as StatementOut[];
}

/* ---------------- board, roles, persons ---------------- */

export interface BoardMember {
  person: string;
  name: string;
  position: string;
  boardscore: number;
  organization_name: string;
  active_from: string | null;
  active_to: string | null;
}

export async function board(companyId: number, which: "current" | "former"): Promise<BoardMember[]> {
  let q = db()
    .selectFrom("roles")
    .innerJoin("persons", "persons.id", "roles.person_id")
    .innerJoin("companies", "companies.id", "roles.company_id")
    .select(["persons.id", "persons.name", "persons.boardscore", "roles.position", "roles.active_from", "roles.active_to", "companies.legal_name"])
    .where("roles.company_id", "=", companyId);
  q = which === "current" ? q.where("roles.active_to", "is", null) : q.where("roles.active_to", "is not", null);
  const rows = await q.orderBy("persons.boardscore", "desc").orderBy("persons.name").execute();
  return rows.map((r) => ({
    person: personReference(r.id),
    name: r.name,
    position: r.position,
    boardscore: r.boardscore ?? 0,
    organization_name: r.legal_name,
    active_from: r.active_from,
    active_to: r.active_to,
  }));
}

export interface RoleOut {
  organization: string;
  organization_name: string;
  position: string;
  active_from: string | null;
  active_to: string | null;
  /** The role organisation's status, read with the role (shared/spec/02-supplier-credit-connections.md §4 "Role organisation status"). */
  organization_status: { date_of_bankruptcy: string | null; is_active: boolean };
}

export interface ShareOut {
  name: string;
  ownership: number | null;
  country_code: string | null;
  reference: string;
}

export interface PersonOut {
  id: number;
  name: string;
  age: number | null;
  sex: string | null;
  country: string | null;
  boardscore: number;
  roles: RoleOut[];
  inactive_roles: RoleOut[];
  shares: ShareOut[];
}

export async function person(personId: number, now = new Date()): Promise<PersonOut | null> {
  const p = await db().selectFrom("persons").selectAll().where("id", "=", personId).executeTakeFirst();
  if (!p) return null;
  const roles = await db()
    .selectFrom("roles")
    .innerJoin("companies", "companies.id", "roles.company_id")
    .select([
      "companies.org_number",
      "companies.legal_name",
      "companies.date_of_bankruptcy",
      "companies.is_active",
      "roles.position",
      "roles.active_from",
      "roles.active_to",
    ])
    .where("roles.person_id", "=", personId)
    .orderBy("roles.active_from", "desc")
    .execute();
  const shares = await db()
    .selectFrom("shareholdings")
    .innerJoin("companies", "companies.id", "shareholdings.company_id")
    .select(["companies.org_number", "companies.legal_name", "companies.country_code", "shareholdings.percent"])
    .where("shareholdings.holder_person_id", "=", personId)
    .orderBy("shareholdings.percent", "desc")
    .execute();
  const toRole = (r: (typeof roles)[number]): RoleOut => ({
    organization: orgReference(r.org_number),
    organization_name: r.legal_name,
    position: r.position,
    active_from: r.active_from,
    active_to: r.active_to,
    organization_status: { date_of_bankruptcy: r.date_of_bankruptcy, is_active: r.is_active === 1 },
  });
  return {
    id: p.id,
    name: p.name,
    age: p.birth_year ? now.getUTCFullYear() - p.birth_year : null,
    sex: p.sex,
    country: p.country_code,
    boardscore: p.boardscore ?? 0,
    roles: roles.filter((r) => r.active_to == null).map(toRole),
    inactive_roles: roles.filter((r) => r.active_to != null).map(toRole),
    shares: shares.map((s) => ({ name: s.legal_name, ownership: s.percent, country_code: s.country_code, reference: orgReference(s.org_number) })),
  };
}

/* ---------------- ownership ---------------- */

export interface OwnershipEntry {
  name: string;
  ownership: number | null;
  reference: string;
}

/** Who owns this company: organisations and people, largest stake first. */
export async function shareholders(companyId: number): Promise<OwnershipEntry[]> {
  const rows = await db()
    .selectFrom("shareholdings")
    .leftJoin("companies as holder", "holder.id", "shareholdings.holder_company_id")
    .leftJoin("persons", "persons.id", "shareholdings.holder_person_id")
    .select(["shareholdings.percent", "holder.org_number", "holder.legal_name", "persons.id as person_id", "persons.name as person_name"])
    .where("shareholdings.company_id", "=", companyId)
    .orderBy("shareholdings.percent", "desc")
    .execute();
  return rows.map((r) =>
    r.org_number
      ? { name: r.legal_name ?? r.org_number, ownership: r.percent, reference: orgReference(r.org_number) }
      : { name: r.person_name ?? "", ownership: r.percent, reference: personReference(r.person_id!) },
  );
}

/** What this company owns. */
export async function companyShares(companyId: number): Promise<OwnershipEntry[]> {
  const rows = await db()
    .selectFrom("shareholdings")
    .innerJoin("companies", "companies.id", "shareholdings.company_id")
    .select(["shareholdings.percent", "companies.org_number", "companies.legal_name"])
    .where("shareholdings.holder_company_id", "=", companyId)
    .orderBy("shareholdings.percent", "desc")
    .execute();
  return rows.map((r) => ({ name: r.legal_name, ownership: r.percent, reference: orgReference(r.org_number) }));
}

export interface OwnershipNode {
  name: string;
  organization_id: string;
  ownershipFraction: number;
  children: OwnershipNode[];
}

export const OWNERSHIP_TREE_LEVELS = 3;

/**
 * The ownership tree below a company (the companies it owns, their
 * companies, …), at most three levels (shared/spec/02-supplier-credit-connections.md §9). `fraction` is the root's
 * own fraction as given by the caller (0–1); children carry their stake.
 */
export async function ownershipTree(orgNumber: string, fraction: number): Promise<OwnershipNode | null> {
  const root = await findCompany(orgNumber);
  if (!root) return null;
  const seen = new Set<number>([root.id]);
  async function childrenOf(companyId: number, level: number): Promise<OwnershipNode[]> {
    if (level >= OWNERSHIP_TREE_LEVELS) return [];
    const rows = await db()
      .selectFrom("shareholdings")
      .innerJoin("companies", "companies.id", "shareholdings.company_id")
      .select(["companies.id", "companies.org_number", "companies.legal_name", "shareholdings.percent"])
      .where("shareholdings.holder_company_id", "=", companyId)
      .orderBy("shareholdings.percent", "desc")
      .execute();
    const nodes: OwnershipNode[] = [];
    for (const r of rows) {
      if (seen.has(r.id)) continue; // cross-holdings must not loop
      seen.add(r.id);
      nodes.push({
        name: r.legal_name,
        organization_id: r.org_number,
        // Rounded to the precision of a percent with four decimals, free of float noise.
        ownershipFraction: Math.round((r.percent ?? 0) * 10_000) / 1_000_000,
        children: await childrenOf(r.id, level + 1),
      });
    }
    return nodes;
  }
  return { name: root.legal_name, organization_id: root.org_number, ownershipFraction: fraction, children: await childrenOf(root.id, 1) };
}

/* ---------------- board relations ---------------- */

export interface BoardRelation {
  person: string;
  name: string;
  /** The supplier's board member(s) this person shares boards with. */
  via: string[];
  sharedBoards: Array<{ organization: string; organization_name: string }>;
}

/**
 * People who sit on other boards together with the supplier's board members,
 * sorted by how many boards they share (shared/spec/02-supplier-credit-connections.md §2, §9).
 */
export async function boardRelations(companyId: number, limit = 50): Promise<BoardRelation[]> {
  const rows = await sql<{
    member_id: number;
    member_name: string;
    other_id: number;
    other_name: string;
    org_number: string;
    legal_name: string;
  }>`
    select m.person_id as member_id, mp.name as member_name, o.person_id as other_id, op.name as other_name,
           c.org_number, c.legal_name
    from roles m
    join roles mb on mb.person_id = m.person_id and mb.active_to is null and mb.company_id <> ${companyId}
    join roles o on o.company_id = mb.company_id and o.active_to is null and o.person_id <> m.person_id
    join persons mp on mp.id = m.person_id
    join persons op on op.id = o.person_id
    join companies c on c.id = mb.company_id
    where m.company_id = ${companyId} and m.active_to is null
      and o.person_id not in (select person_id from roles where company_id = ${companyId} and active_to is null)
  `.execute(db());
  const byPerson = new Map<number, BoardRelation & { boards: Set<string> }>();
  for (const r of rows.rows) {
    let rel = byPerson.get(r.other_id);
    if (!rel) {
      rel = { person: personReference(r.other_id), name: r.other_name, via: [], sharedBoards: [], boards: new Set() };
      byPerson.set(r.other_id, rel);
    }
    if (!rel.via.includes(r.member_name)) rel.via.push(r.member_name);
    if (!rel.boards.has(r.org_number)) {
      rel.boards.add(r.org_number);
      rel.sharedBoards.push({ organization: orgReference(r.org_number), organization_name: r.legal_name });
    }
  }
  return [...byPerson.values()]
    .sort((a, b) => b.sharedBoards.length - a.sharedBoards.length || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map(({ boards: _b, ...rel }) => rel);
}

/* ---------------- announcements, country, intelligence ---------------- */

export interface AnnouncementOut {
  id: number;
  date: string;
  type: string;
  detail: string | null;
  risk: number;
  risk_scores: { operational_risk: number | null; legal_risk: number | null };
}

export async function announcements(companyId: number): Promise<AnnouncementOut[]> {
  const rows = await db()
    .selectFrom("announcements")
    .select(["id", "date", "type", "detail", "risk", "operational_risk", "legal_risk"])
    .where("company_id", "=", companyId)
    .orderBy("date", "desc")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    date: r.date,
    type: r.type,
    detail: r.detail,
    risk: r.risk,
    risk_scores: { operational_risk: r.operational_risk, legal_risk: r.legal_risk },
  }));
}

export interface CountryOut {
  country_name: string;
  country_name_no: string;
  region: string | null;
  iso_2: string;
  risk_score: number | null;
  co2_per_gdp: number | null;
}

export async function country(iso2: string): Promise<CountryOut | null> {
  const row = await db().selectFrom("countries").selectAll().where("iso2", "=", iso2.toUpperCase()).executeTakeFirst();
  if (!row) return null;
  return {
    country_name: row.name_en,
    country_name_no: row.name_no,
    region: row.region,
    iso_2: row.iso2,
    risk_score: row.risk_score,
    co2_per_gdp: row.co2_per_gdp,
  };
}

/**
 * Supplier intelligence composed from the company's registry facts in the
 * reader's language (decision 028): never a stored or generated text that
 * could contradict the registry. Null when the registry says neither industry
 * nor purpose.
 */
export async function supplierIntelligence(companyId: number, language: IntelligenceLanguage = "en"): Promise<ComposedIntelligence | null> {
  const row = await db().selectFrom("companies").selectAll().where("id", "=", companyId).executeTakeFirst();
  return row ? intelligenceFor(row.id, factsOfCompany(row), language) : null;
}

/** A value stored as JSON text and read back as it is. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
