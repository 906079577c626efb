import { sql } from "kysely";
import { z } from "zod";
import { db } from "@server/db";
import { complianceFlags } from "./compliance";
import { NACE_SECTIONS, naceSection, type NaceSection } from "./nace";
import {
  DASHBOARD_CHARTS,
  HISTORY_DAYS,
  TOP_COUNTRIES,
  type BandCounts,
  type BandHistory,
  type CountryCount,
  type Dashboard,
  type DashboardChart,
  type IndustryCount,
  type RegimeCounts,
  type SnapshotBand,
} from "./dashboard";

export { DASHBOARD_CHARTS, SNAPSHOT_BANDS } from "./dashboard";
import { osloDate } from "./supplier-task-states";

/**
 * /dashboard (issue 15; decision 038): the organisation's followed suppliers counted by risk band over time (the daily
 * snapshots), by country with its country risk, by industry (NACE section), by compliance regime (the supplier screen's
 * rules, `complianceFlags`) and by the due-diligence flag — every part under the same filters (tag, priority, due
 * diligence). Each part is one set-based query of this organisation's active connections; only the compliance regimes
 * read the rows (their rules live in JavaScript, once).
 */

export interface DashboardFilters {
  organizationId: number;
  tagId?: number | null;
  /** true: only priority suppliers; false: only the others; null/undefined: any. */
  priority?: boolean | null;
  dueDiligence?: boolean | null;
  language?: "en" | "no";
  now?: Date;
}

const flag = z
  .string()
  .optional()
  .transform((value): boolean | null => (value === "yes" ? true : value === "no" ? false : null));

/** The dashboard's URL (its GET form), read leniently like /suppliers: anything unknown falls back to "any". */
export const dashboardQuery = z
  .object({
    tag: z.string().optional(),
    priority: flag,
    dd: flag,
    chart: z.enum(DASHBOARD_CHARTS).optional().catch(undefined),
  })
  .transform(({ dd, ...rest }) => ({ ...rest, dueDiligence: dd }));

const emptyBands = (): BandCounts => ({ green: 0, yellow: 0, red: 0, unknown: 0 });

/** The organisation's active connections under the filters. */
function connections(filters: DashboardFilters) {
  let query = db().selectFrom("organization_connections as c").where("c.parent_organization_id", "=", filters.organizationId).where("c.is_deleted", "=", 0);
  if (filters.tagId != null) {
    const tagId = filters.tagId;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("organization_connection_tags as ct")
          .innerJoin("organization_tags as t", "t.id", "ct.tag_id")
          .select(sql.lit(1).as("one"))
          .whereRef("ct.connection_id", "=", "c.id")
          .where("ct.tag_id", "=", tagId)
          .where("t.organization_id", "=", filters.organizationId),
      ),
    );
  }
  if (filters.priority != null) query = query.where("c.is_priority", "=", filters.priority ? 1 : 0);
  if (filters.dueDiligence != null) query = query.where("c.is_due_diligence", "=", filters.dueDiligence ? 1 : 0);
  return query;
}

/** Whether the tag is one of the organisation's own (another organisation's tag id is not a filter here). */
export async function isOwnTag(organizationId: number, tagId: number): Promise<boolean> {
  const row = await db().selectFrom("organization_tags").select("id").where("id", "=", tagId).where("organization_id", "=", organizationId).executeTakeFirst();
  return row != null;
}

async function bandsToday(filters: DashboardFilters): Promise<BandCounts> {
  const rows = await connections(filters)
    .select((eb) => [sql<SnapshotBand>`coalesce(c.overall_risk_band, 'unknown')`.as("band"), eb.fn.countAll<number>().as("n")])
    .groupBy(sql`coalesce(c.overall_risk_band, 'unknown')`)
    .execute();
  const out = emptyBands();
  for (const r of rows) out[r.band] = Number(r.n);
  return out;
}

/** Calendar days (YYYY-MM-DD) from `from` to `to`, both included. */
function daysFrom(from: string, to: string): string[] {
  const out: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); at <= end; at += 86_400_000) {
    out.push(new Date(at).toISOString().slice(0, 10));
  }
  return out;
}

async function bandHistory(filters: DashboardFilters): Promise<BandHistory> {
  const today = osloDate(filters.now ?? new Date());
  const windowStart = new Date(Date.parse(`${today}T00:00:00Z`) - (HISTORY_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const first = await db()
    .selectFrom("risk_snapshots")
    .select((eb) => eb.fn.min<string>("day").as("day"))
    .where("organization_id", "=", filters.organizationId)
    .where("tag_id", "=", 0)
    .executeTakeFirst();
  const since = first?.day ?? null;
  if (since == null || since > today) return { since, days: [] };
  const start = since > windowStart ? since : windowStart;
  // The days a snapshot was taken (any supplier at all), so a filter that matches nobody that day reads 0, not "no data".
  const [taken, counted] = await Promise.all([
    db()
      .selectFrom("risk_snapshots")
      .select("day")
      .distinct()
      .where("organization_id", "=", filters.organizationId)
      .where("tag_id", "=", 0)
      .where("day", ">=", start)
      .where("day", "<=", today)
      .execute(),
    (() => {
      let q = db()
        .selectFrom("risk_snapshots")
        .select((eb) => ["day", "band", eb.fn.sum<number>("count").as("n")])
        .where("organization_id", "=", filters.organizationId)
        .where("tag_id", "=", filters.tagId ?? 0)
        .where("day", ">=", start)
        .where("day", "<=", today);
      if (filters.priority != null) q = q.where("is_priority", "=", filters.priority ? 1 : 0);
      if (filters.dueDiligence != null) q = q.where("is_due_diligence", "=", filters.dueDiligence ? 1 : 0);
      return q.groupBy(["day", "band"]).execute();
    })(),
  ]);
  const byDay = new Map<string, BandCounts>(taken.map((r) => [r.day, emptyBands()]));
  for (const r of counted) {
    const counts = byDay.get(r.day);
    if (counts) counts[r.band] = Number(r.n);
  }
  return { since, days: daysFrom(start, today).map((day) => ({ day, counts: byDay.get(day) ?? null })) };
}

async function byCountry(filters: DashboardFilters): Promise<CountryCount[]> {
  const countryName = filters.language === "no" ? ("k.name_no" as const) : ("k.name_en" as const);
  const rows = await connections(filters)
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .leftJoin("countries as k", (join) => join.on((eb) => eb("k.iso2", "=", eb.fn<string>("upper", ["o.country_code"]))))
    .select((eb) => [
      sql<string>`upper(o.country_code)`.as("code"),
      eb.fn.max(countryName).as("name"),
      eb.fn.max("k.risk_score").as("riskScore"),
      eb.fn.countAll<number>().as("n"),
    ])
    .groupBy(sql`upper(o.country_code)`)
    .execute();
  const sorted = rows
    .map((r) => ({ code: r.code, name: r.name ?? null, riskScore: r.riskScore ?? null, count: Number(r.n) }))
    .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
  const top = sorted.slice(0, TOP_COUNTRIES);
  const rest = sorted.slice(TOP_COUNTRIES).reduce((n, r) => n + r.count, 0);
  return rest > 0 ? [...top, { code: null, name: null, riskScore: null, count: rest }] : top;
}

async function byIndustry(filters: DashboardFilters): Promise<IndustryCount[]> {
  const rows = await connections(filters)
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .leftJoin("companies as co", "co.org_number", "o.org_number")
    .select((eb) => [sql<string | null>`substr(co.industry_code, 1, 2)`.as("division"), eb.fn.countAll<number>().as("n")])
    .groupBy(sql`substr(co.industry_code, 1, 2)`)
    .execute();
  const counts = new Map<NaceSection | null, number>();
  for (const r of rows) {
    const section = naceSection(r.division);
    counts.set(section, (counts.get(section) ?? 0) + Number(r.n));
  }
  const known = NACE_SECTIONS.filter((s) => counts.has(s)).map((section) => ({ section, count: counts.get(section)! }));
  known.sort((a, b) => b.count - a.count || a.section.localeCompare(b.section));
  return counts.has(null) ? [...known, { section: null, count: counts.get(null)! }] : known;
}

async function byRegime(filters: DashboardFilters): Promise<RegimeCounts> {
  // The supplier screen's facts (supplier-screen.server.ts): the company's form and employees, else the newest statement's.
  const rows = await connections(filters)
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .innerJoin("companies as co", "co.org_number", "o.org_number")
    .leftJoin("financial_statements as f", (join) =>
      join
        .onRef("f.company_id", "=", "co.id")
        .on("f.financial_year", "=", sql<number>`(select max(f2.financial_year) from financial_statements f2 where f2.company_id = co.id)`),
    )
    .select([
      "co.org_form",
      "co.number_of_employees as companyEmployees",
      "f.number_of_employees as statementEmployees",
      "f.total_assets",
      "f.operating_income",
    ])
    .execute();
  const out: RegimeCounts = { arp: 0, transparencyAct: 0, csrd: 0, assessed: rows.length };
  for (const r of rows) {
    const flags = complianceFlags({
      type: r.org_form,
      number_of_employees: r.companyEmployees ?? r.statementEmployees ?? null,
      total_assets: r.total_assets ?? null,
      operating_income: r.operating_income ?? null,
    });
    if (flags.arp) out.arp++;
    if (flags.transparencyAct) out.transparencyAct++;
    if (flags.csrd) out.csrd++;
  }
  return out;
}

async function dueDiligenceShare(filters: DashboardFilters): Promise<{ count: number; total: number }> {
  const row = await connections(filters)
    .select((eb) => [eb.fn.countAll<number>().as("total"), eb.fn.sum<number>("c.is_due_diligence").as("dd")])
    .executeTakeFirst();
  return { count: Number(row?.dd ?? 0), total: Number(row?.total ?? 0) };
}

/** Every part of the dashboard (the page). */
export async function dashboard(filters: DashboardFilters): Promise<Dashboard> {
  const [today, history, countries, industries, regimes, dueDiligence] = await Promise.all([
    bandsToday(filters),
    bandHistory(filters),
    byCountry(filters),
    byIndustry(filters),
    byRegime(filters),
    dueDiligenceShare(filters),
  ]);
  const total = today.green + today.yellow + today.red + today.unknown;
  return { total, today, history, countries, industries, regimes, dueDiligence };
}

/** One chart's data (the CSV). */
export async function dashboardChart<C extends DashboardChart>(
  chart: C,
  filters: DashboardFilters,
): Promise<
  { bands: BandHistory; countries: CountryCount[]; industries: IndustryCount[]; regimes: RegimeCounts; "due-diligence": { count: number; total: number } }[C]
> {
  const load = { bands: bandHistory, countries: byCountry, industries: byIndustry, regimes: byRegime, "due-diligence": dueDiligenceShare }[chart];
  return (await load(filters)) as never;
}

/** Whether the organisation follows any supplier at all (the empty state), whatever the filters. */
export async function followsAnySupplier(organizationId: number): Promise<boolean> {
  const row = await db()
    .selectFrom("organization_connections")
    .select("id")
    .where("parent_organization_id", "=", organizationId)
    .where("is_deleted", "=", 0)
    .limit(1)
    .executeTakeFirst();
  return row != null;
}
