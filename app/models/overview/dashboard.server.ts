import { sql } from "kysely";
import { db } from "@server/db";
import { decodeComplianceFlags } from "~/models/suppliers/compliance";
import { NACE_SECTIONS, type NaceSection } from "~/models/registry/nace";
import {
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
} from "~/models/overview/dashboard";

import { osloDate } from "~/models/tasks/task-states";
import { followedConnections } from "~/models/suppliers/supplier-list.server";

/**
 * /dashboard (decision 038): the organisation's followed suppliers counted by risk band over time (the daily
 * snapshots), by country with its country risk, by industry (NACE section), by compliance regime (the supplier screen's
 * rules, `complianceFlags`) and by the due-diligence flag — every part under the same filters (tag, priority, due
 * diligence). Everything but the history comes from one grouped pass over the organisation's connections, which carry
 * their NACE section and compliance regimes beside the overall risk (written by the recomputation, decision 038).
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

const emptyBands = (): BandCounts => ({ green: 0, yellow: 0, red: 0, unknown: 0 });

/** Whether the tag is one of the organisation's own (another organisation's tag id is not a filter here). */
export async function isOwnTag(organizationId: number, tagId: number): Promise<boolean> {
  const row = await db().selectFrom("organization_tags").select("id").where("id", "=", tagId).where("organization_id", "=", organizationId).executeTakeFirst();
  return row != null;
}

/**
 * The organisation's filtered suppliers counted by every grouping at once — band, due diligence, country, NACE section
 * and compliance regimes — in one pass over its connections (the section and regimes are stored on each connection with
 * its overall risk, decision 038): a few hundred groups for 10 000 suppliers, summed up below per chart.
 */
async function portfolio(filters: DashboardFilters) {
  // The tag filter is only ever one of the organisation's own (the route answers another's with 404, `isOwnTag`).
  const rows = await followedConnections(filters)
    .select((eb) => [
      sql<SnapshotBand>`coalesce(c.overall_risk_band, 'unknown')`.as("band"),
      "c.is_due_diligence as dd",
      sql<string>`upper(o.country_code)`.as("country"),
      "c.nace_section as section",
      "c.compliance_flags as flags",
      eb.fn.countAll<number>().as("n"),
    ])
    .groupBy([sql`1`, sql`2`, sql`3`, sql`4`, sql`5`])
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}
type Portfolio = Awaited<ReturnType<typeof portfolio>>;

function bandsToday(rows: Portfolio): BandCounts {
  const out = emptyBands();
  for (const r of rows) out[r.band] += r.n;
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

async function byCountry(rows: Portfolio, language: "en" | "no" = "en"): Promise<CountryCount[]> {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.country, (counts.get(r.country) ?? 0) + r.n);
  const sorted = [...counts].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
  const top = sorted.slice(0, TOP_COUNTRIES);
  const known = top.length
    ? await db()
        .selectFrom("countries")
        .select(["iso2", language === "no" ? "name_no as name" : "name_en as name", "risk_score"])
        .where(
          "iso2",
          "in",
          top.map((t) => t.code),
        )
        .execute()
    : [];
  const info = new Map(known.map((k) => [k.iso2.toUpperCase(), k]));
  const rest = sorted.slice(TOP_COUNTRIES).reduce((n, r) => n + r.count, 0);
  const shown = top.map((t) => ({ code: t.code, name: info.get(t.code)?.name ?? null, riskScore: info.get(t.code)?.risk_score ?? null, count: t.count }));
  return rest > 0 ? [...shown, { code: null, name: null, riskScore: null, count: rest }] : shown;
}

function byIndustry(rows: Portfolio): IndustryCount[] {
  const counts = new Map<NaceSection | null, number>();
  for (const r of rows) {
    const section = (NACE_SECTIONS as readonly string[]).includes(r.section ?? "") ? (r.section as NaceSection) : null;
    counts.set(section, (counts.get(section) ?? 0) + r.n);
  }
  const known = NACE_SECTIONS.filter((s) => counts.has(s)).map((section) => ({ section, count: counts.get(section)! }));
  known.sort((a, b) => b.count - a.count || a.section.localeCompare(b.section));
  return counts.has(null) ? [...known, { section: null, count: counts.get(null)! }] : known;
}

function byRegime(rows: Portfolio): RegimeCounts {
  const out: RegimeCounts = { arp: 0, transparencyAct: 0, csrd: 0, assessed: 0 };
  for (const r of rows) {
    // NULL: no registry company, so not assessed (decision 038).
    if (r.flags == null) continue;
    const flags = decodeComplianceFlags(r.flags);
    out.assessed += r.n;
    if (flags.arp) out.arp += r.n;
    if (flags.transparencyAct) out.transparencyAct += r.n;
    if (flags.csrd) out.csrd += r.n;
  }
  return out;
}

function dueDiligenceShare(rows: Portfolio): { count: number; total: number } {
  let count = 0;
  let total = 0;
  for (const r of rows) {
    total += r.n;
    if (r.dd === 1) count += r.n;
  }
  return { count, total };
}

/** Every part of the dashboard (the page). */
export async function dashboard(filters: DashboardFilters): Promise<Dashboard> {
  const [rows, history] = await Promise.all([portfolio(filters), bandHistory(filters)]);
  const today = bandsToday(rows);
  const total = today.green + today.yellow + today.red + today.unknown;
  return {
    total,
    today,
    history,
    countries: await byCountry(rows, filters.language),
    industries: byIndustry(rows),
    regimes: byRegime(rows),
    dueDiligence: dueDiligenceShare(rows),
  };
}

/** One chart's data (the CSV). */
export async function dashboardChart<C extends DashboardChart>(
  chart: C,
  filters: DashboardFilters,
): Promise<
  { bands: BandHistory; countries: CountryCount[]; industries: IndustryCount[]; regimes: RegimeCounts; "due-diligence": { count: number; total: number } }[C]
> {
  if (chart === "bands") return (await bandHistory(filters)) as never;
  const rows = await portfolio(filters);
  const load = {
    countries: () => byCountry(rows, filters.language),
    industries: () => byIndustry(rows),
    regimes: () => byRegime(rows),
    "due-diligence": () => dueDiligenceShare(rows),
  }[chart as Exclude<DashboardChart, "bands">];
  return (await load()) as never;
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
