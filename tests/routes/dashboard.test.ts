import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { loader } from "~/routes/_app.dashboard/route";
import { loader as csvLoader, action as csvAction } from "~/routes/dashboard[.]csv";
import { snapshotRisk } from "~/models/overview/risk-snapshots.server";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";
import { naceSection } from "~/models/registry/nace";
import type { Dashboard } from "~/models/overview/dashboard";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { call, form, get } from "../helpers/requests";
import { createConnection } from "../helpers/factory";

/**
 * /dashboard and /dashboard.csv against a real SQLite file: who may open them, and every number on the page and in the
 * CSVs equals a count taken from the database here — only the organisation's own active connections (another
 * organisation follows the same suppliers with other flags), under every filter (tag, priority, due diligence).
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const AT = "2025-03-01T10:00:00.000Z";
const DAY = 86_400_000;
const oslo = (at: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Oslo" }).format(at);
const w = {} as {
  orgA: number;
  orgB: number;
  empty: number;
  analyst: string;
  analystB: string;
  manager: string;
  viewer: string;
  respondent: string;
  emptyAnalyst: string;
  tag: number;
  tagB: number;
  suppliers: number[];
  twoDaysAgo: string;
};

/** 17 countries, so the chart has its top 15 and "Other". */
const COUNTRIES = ["NO", "SE", "DK", "FI", "DE", "FR", "GB", "US", "NL", "BE", "PL", "IT", "ES", "CN", "IN", "JP", "BR"];
const INDUSTRIES = ["62.010", "41.200", "10.110", "47.190", "62.020", "86.101", "00.000", null];
const BANDS = ["green", "yellow", "red", null] as const;

const open = (fn: Fn, url: string, token?: string) =>
  call(fn, { request: get(url, token ? { Authorization: `Bearer ${token}` } : {}), params: {}, context: {} });
const page = async (url: string, token = w.analyst) => (await (await open(loader, url, token)).json()) as { any: boolean; data: Dashboard };
async function csv(url: string, token = w.analyst) {
  const response = await open(csvLoader, url, token);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  // The byte order mark, so that Excel reads UTF-8 (Response.text() would drop it).
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return { response, rows: Papa.parse<string[]>(bytes.subarray(3).toString("utf8").trim(), { skipEmptyLines: true }).data };
}

interface Filter {
  tag?: number;
  priority?: boolean;
  dd?: boolean;
}

/** The organisation's active connections under a filter, as SQL of this test (not the model's query). */
function where(org: number, f: Filter) {
  return sql.join(
    [
      sql`c.parent_organization_id = ${org}`,
      sql`c.is_deleted = 0`,
      ...(f.tag != null ? [sql`exists (select 1 from organization_connection_tags ct where ct.connection_id = c.id and ct.tag_id = ${f.tag})`] : []),
      ...(f.priority != null ? [sql`c.is_priority = ${f.priority ? 1 : 0}`] : []),
      ...(f.dd != null ? [sql`c.is_due_diligence = ${f.dd ? 1 : 0}`] : []),
    ],
    sql` and `,
  );
}

async function dbBands(org: number, f: Filter) {
  const { rows } = await sql<{ band: string; n: number }>`
    select coalesce(c.overall_risk_band, 'unknown') as band, count(*) as n from organization_connections c where ${where(org, f)} group by 1`.execute(db());
  const out = { green: 0, yellow: 0, red: 0, unknown: 0 } as Record<string, number>;
  for (const r of rows) out[r.band] = r.n;
  return out;
}

async function dbCountries(org: number, f: Filter) {
  const { rows } = await sql<{ code: string; n: number; risk: number | null }>`
    select upper(o.country_code) as code, count(*) as n, (select risk_score from countries k where k.iso2 = upper(o.country_code)) as risk
      from organization_connections c join organizations o on o.id = c.child_organization_id where ${where(org, f)} group by 1`.execute(db());
  return rows;
}

async function dbIndustries(org: number, f: Filter) {
  const { rows } = await sql<{ code: string | null }>`
    select co.industry_code as code from organization_connections c join organizations o on o.id = c.child_organization_id
      left join companies co on co.org_number = o.org_number where ${where(org, f)}`.execute(db());
  const out = new Map<string | null, number>();
  for (const r of rows) out.set(naceSection(r.code), (out.get(naceSection(r.code)) ?? 0) + 1);
  return out;
}

/** ARP: 50 employees or more, the company's count or else the newest statement's (shared/spec/02-supplier-credit-connections.md §9). */
async function dbArp(org: number, f: Filter) {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from organization_connections c join organizations o on o.id = c.child_organization_id
      join companies co on co.org_number = o.org_number
      left join financial_statements fs on fs.company_id = co.id and fs.financial_year = (select max(financial_year) from financial_statements where company_id = co.id)
     where ${where(org, f)} and coalesce(co.number_of_employees, fs.number_of_employees) >= 50`.execute(db());
  return rows[0].n;
}

async function dbDueDiligence(org: number, f: Filter) {
  const { rows } = await sql<{ total: number; dd: number }>`
    select count(*) as total, coalesce(sum(c.is_due_diligence), 0) as dd from organization_connections c where ${where(org, f)}`.execute(db());
  return { count: rows[0].dd, total: rows[0].total };
}

const FILTERS: Array<[string, Filter]> = [
  ["", {}],
  ["?priority=yes", { priority: true }],
  ["?priority=no", { priority: false }],
  ["?dd=yes", { dd: true }],
  ["?dd=no&priority=yes", { dd: false, priority: true }],
];

beforeAll(async () => {
  w.orgA = await makeOrg("Dashboard Customer A AS", "customer");
  w.orgB = await makeOrg("Dashboard Customer B AS", "customer");
  w.empty = await makeOrg("Dashboard Empty AS", "customer");
  w.analyst = await signedIn("analyst@dashboard.test", w.orgA, 2);
  w.manager = await signedIn("manager@dashboard.test", w.orgA, 3);
  w.viewer = await signedIn("viewer@dashboard.test", w.orgA, 1);
  w.analystB = await signedIn("analyst-b@dashboard.test", w.orgB, 2);
  w.emptyAnalyst = await signedIn("analyst@dashboard-empty.test", w.empty, 2);
  for (const [i, code] of COUNTRIES.entries()) {
    await db()
      .insertInto("countries")
      .values({
        iso2: code,
        iso3: `${code}X`,
        name_en: `Country ${code}`,
        name_no: `Land ${code}`,
        region: null,
        risk_score: i % 4 === 3 ? null : 10 + i * 3,
        co2_per_gdp: null,
        governance_percentile: null,
      })
      .onConflict((oc) => oc.column("iso2").doUpdateSet({ risk_score: i % 4 === 3 ? null : 10 + i * 3, name_en: `Country ${code}`, name_no: `Land ${code}` }))
      .execute();
  }
  w.tag = (
    await db().insertInto("organization_tags").values({ organization_id: w.orgA, title: "Critical", created_at: AT }).returning("id").executeTakeFirstOrThrow()
  ).id;
  w.tagB = (
    await db().insertInto("organization_tags").values({ organization_id: w.orgB, title: "B only", created_at: AT }).returning("id").executeTakeFirstOrThrow()
  ).id;

  w.suppliers = [];
  for (let i = 0; i < 24; i++) {
    const country = COUNTRIES[i % COUNTRIES.length];
    // Every fifth supplier has no registry company (no organisation number): industry "not known", regimes not assessed.
    const orgNumber = i % 5 === 4 ? null : `9550000${String(i).padStart(2, "0")}`;
    const supplier = await makeOrg(`Dashboard Supplier ${i} AS`, "supplier", orgNumber, country.toLowerCase());
    w.suppliers.push(supplier);
    if (orgNumber) {
      const company = await db()
        .insertInto("companies")
        .values({
          org_number: orgNumber,
          legal_name: `Dashboard Supplier ${i} AS`,
          country_code: country,
          source: "seed",
          updated_at: AT,
          industry_code: INDUSTRIES[i % INDUSTRIES.length],
          org_form: i % 6 === 0 ? "ASA" : "AS",
          // The company's count wins over the statement's; where it is missing, the newest statement's counts.
          number_of_employees: i % 3 === 0 ? null : i * 15,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db()
        .insertInto("financial_statements")
        .values([
          { company_id: company.id, financial_year: 2023, number_of_employees: 999, total_assets: 999_999, operating_income: 999_999, updated_at: AT },
          { company_id: company.id, financial_year: 2024, number_of_employees: i * 20, total_assets: i * 30_000, operating_income: i * 40_000, updated_at: AT },
        ])
        .execute();
    }
    const band = BANDS[i % BANDS.length];
    await createConnection({
      parent: w.orgA,
      child: supplier,
      priority: i % 3 === 0 ? 1 : 0,
      dueDiligence: i % 4 === 1 ? 1 : 0,
      overallRisk: band === "green" ? 20 : band === "yellow" ? 50 : band === "red" ? 80 : null,
      overallRiskBand: band,
      createdAt: AT,
    });
    // B follows every other one of the same suppliers, all red, priority and under due diligence.
    if (i % 2 === 0) {
      await createConnection({ parent: w.orgB, child: supplier, priority: 1, dueDiligence: 1, overallRisk: 90, overallRiskBand: "red", createdAt: AT });
    }
  }
  // A followed supplier it stopped following: never counted.
  const gone = await makeOrg("Dashboard Gone AS", "supplier", null, "no");
  await createConnection({ parent: w.orgA, child: gone, deleted: 1, dueDiligence: 1, overallRiskBand: "red", overallRisk: 99, createdAt: AT });
  w.respondent = await signedIn("respondent@dashboard.test", w.suppliers[0], 3);

  const connections = await db()
    .selectFrom("organization_connections")
    .select(["id", "parent_organization_id"])
    .where("is_deleted", "=", 0)
    .orderBy("id")
    .execute();
  const ofA = connections.filter((c) => c.parent_organization_id === w.orgA);
  const ofB = connections.filter((c) => c.parent_organization_id === w.orgB);
  await db()
    .insertInto("organization_connection_tags")
    .values([
      ...ofA.filter((_, k) => k % 3 !== 2).map((c) => ({ connection_id: c.id, tag_id: w.tag, created_at: AT })),
      ...ofB.map((c) => ({ connection_id: c.id, tag_id: w.tagB, created_at: AT })),
    ])
    .execute();

  // The registry facts the dashboard groups by (NACE section, compliance regimes) are written with the overall risk by the
  // one recomputation (decision 038); the bands stay this test's own, set above.
  const risks = await db().selectFrom("organization_connections").select(["id", "overall_risk", "overall_risk_band"]).execute();
  await recomputeOverallRisk({ organizationId: w.orgA });
  await recomputeOverallRisk({ organizationId: w.orgB });
  for (const r of risks)
    await db()
      .updateTable("organization_connections")
      .set({ overall_risk: r.overall_risk, overall_risk_band: r.overall_risk_band })
      .where("id", "=", r.id)
      .execute();

  // History: a snapshot two days ago, none yesterday, then one today after a change of band.
  const now = Date.now();
  w.twoDaysAgo = oslo(new Date(now - 2 * DAY));
  await snapshotRisk({ now: new Date(now - 2 * DAY) });
  await db()
    .updateTable("organization_connections")
    .set({ overall_risk: 95, overall_risk_band: "red" })
    .where("parent_organization_id", "=", w.orgA)
    .where("overall_risk_band", "=", "green")
    .execute();
  await snapshotRisk({ now: new Date(now) });
});

describe("who may open /dashboard and /dashboard.csv", () => {
  it("customers of level 2 and up; level 1, respondents and visitors as the kit refuses them", async () => {
    for (const fn of [loader, csvLoader] as Fn[]) {
      const url = fn === loader ? "/dashboard" : "/dashboard.csv?chart=bands";
      expect((await open(fn, url, w.analyst)).status).toBe(200);
      expect((await open(fn, url, w.manager)).status).toBe(200);
      expect((await open(fn, url, w.viewer)).status).toBe(403);
      expect((await open(fn, url, w.respondent)).status).toBe(403);
      const visitor = await open(fn, url);
      expect(visitor.status).toBe(302);
    }
  });

  it("the CSV answers only GET, and refuses an unknown chart with 400; another organisation's tag is 404 on both", async () => {
    expect((await call(csvAction as Fn, { request: form("/dashboard.csv", {}), params: {}, context: {} })).status).toBe(405);
    expect((await open(csvLoader, "/dashboard.csv", w.analyst)).status).toBe(400);
    expect((await open(csvLoader, "/dashboard.csv?chart=secrets", w.analyst)).status).toBe(400);
    expect((await open(csvLoader, `/dashboard.csv?chart=bands&tag=${w.tagB}`, w.analyst)).status).toBe(404);
    expect((await open(loader, `/dashboard?tag=${w.tagB}`, w.analyst)).status).toBe(404);
    // The filters are read leniently, as on /suppliers: an unknown value means "any".
    expect((await open(loader, "/dashboard?tag=abc&priority=maybe&dd=x", w.analyst)).status).toBe(200);
    expect((await open(loader, "/dashboard?dd=%00", w.analyst)).status).toBe(400);
  });
});

describe("/dashboard numbers equal counts from the database", () => {
  const cases: Array<[string, (tag: number) => Filter, (tag: number) => string]> = [
    ...FILTERS.map(([q, f]): [string, (tag: number) => Filter, (tag: number) => string] => [q || "(no filter)", () => f, () => q]),
    ["tag", (tag) => ({ tag }), (tag) => `?tag=${tag}`],
    ["tag + priority", (tag) => ({ tag, priority: true }), (tag) => `?tag=${tag}&priority=yes`],
  ];

  it.each(cases)("%s", async (_name, filter, query) => {
    const f = filter(w.tag);
    const { any, data } = await page(`/dashboard${query(w.tag)}`);
    expect(any).toBe(true);
    const bands = await dbBands(w.orgA, f);
    expect(data.today).toEqual(bands);
    expect(data.total).toBe(Object.values(bands).reduce((a, b) => a + b, 0));
    expect(data.dueDiligence).toEqual(await dbDueDiligence(w.orgA, f));

    // Countries: each shown country's count and risk score; the top 15 are the largest; "Other" sums the rest.
    const countries = await dbCountries(w.orgA, f);
    const shown = data.countries.filter((c) => c.code != null);
    for (const c of shown) {
      const row = countries.find((r) => r.code === c.code)!;
      expect([c.code, c.count, c.riskScore]).toEqual([row.code, row.n, row.risk]);
    }
    expect(shown.length).toBe(Math.min(15, countries.length));
    const rest = countries.filter((r) => !shown.some((c) => c.code === r.code));
    const other = data.countries.find((c) => c.code == null);
    expect(other?.count ?? 0).toBe(rest.reduce((n, r) => n + r.n, 0));
    if (rest.length) expect(Math.min(...shown.map((c) => c.count))).toBeGreaterThanOrEqual(Math.max(...rest.map((r) => r.n)));
    expect(data.countries.reduce((n, c) => n + c.count, 0)).toBe(data.total);

    const industries = await dbIndustries(w.orgA, f);
    expect(new Map(data.industries.map((r) => [r.section, r.count]))).toEqual(industries);

    expect(data.regimes.arp).toBe(await dbArp(w.orgA, f));
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from organization_connections c join organizations o on o.id = c.child_organization_id
        join companies co on co.org_number = o.org_number where ${where(w.orgA, f)}`.execute(db());
    expect(data.regimes.assessed).toBe(rows[0].n);
  });

  it("the compliance regimes follow the supplier screen's rules, supplier by supplier", async () => {
    // Hand-worked from the fixture (i = 0…23, no company where i % 5 = 4; ASA where i % 6 = 0; the 2024 statement has
    // i×20 employees, i×30 000 assets, i×40 000 revenue; the company's own count i×15 unless i % 3 = 0):
    // Transparency Act: ASA (0, 6, 12, 18) or 2 of assets ≥ 35 000 (i ≥ 2), revenue ≥ 70 000 (i ≥ 2), employees ≥ 50.
    // CSRD: 2 of assets ≥ 275 000 (i ≥ 10), revenue ≥ 550 000 (i ≥ 14), employees ≥ 250.
    const withCompany = Array.from({ length: 24 }, (_, i) => i).filter((i) => i % 5 !== 4);
    const employees = (i: number) => (i % 3 === 0 ? i * 20 : i * 15);
    const transparency = withCompany.filter((i) => i % 6 === 0 || [i * 30_000 >= 35_000, i * 40_000 >= 70_000, employees(i) >= 50].filter(Boolean).length >= 2);
    const csrd = withCompany.filter((i) => [i * 30_000 >= 275_000, i * 40_000 >= 550_000, employees(i) >= 250].filter(Boolean).length >= 2);
    const arp = withCompany.filter((i) => employees(i) >= 50);
    const { data } = await page("/dashboard");
    expect(data.regimes).toEqual({ arp: arp.length, transparencyAct: transparency.length, csrd: csrd.length, assessed: withCompany.length });
  });

  it("counts only the organisation's own suppliers: B sees its 12, all red, priority, under due diligence", async () => {
    const { data } = await page("/dashboard", w.analystB);
    expect(data.total).toBe(12);
    expect(data.today).toEqual({ green: 0, yellow: 0, red: 12, unknown: 0 });
    expect(data.dueDiligence).toEqual({ count: 12, total: 12 });
    expect(await page(`/dashboard?tag=${w.tagB}`, w.analystB).then((p) => p.data.total)).toBe(12);
    const { data: a } = await page("/dashboard");
    expect(a.total).toBe(24);
  });

  it("the band history: from the first snapshot, a gap where none was taken, today's counts as the database has them", async () => {
    for (const [query, f] of [...FILTERS, [`?tag=${w.tag}`, { tag: w.tag }] as [string, Filter]]) {
      const { data } = await page(`/dashboard${query}`);
      expect(data.history.since).toBe(w.twoDaysAgo);
      expect(data.history.days.map((d) => d.day)).toEqual([0, 1, 2].map((k) => oslo(new Date(Date.parse(`${w.twoDaysAgo}T12:00:00Z`) + k * DAY))));
      expect(data.history.days[1].counts).toBeNull();
      expect(data.history.days[2].counts).toEqual(await dbBands(w.orgA, f));
      const first = data.history.days[0].counts!;
      // Two days ago the greens were still green; since then they are red.
      expect(first.green + first.red).toBe(data.history.days[2].counts!.red);
    }
  });

  it("an organisation without suppliers gets the empty state, and no history", async () => {
    const { any, data } = await page("/dashboard", w.emptyAnalyst);
    expect(any).toBe(false);
    expect(data.total).toBe(0);
    expect(data.history).toEqual({ since: null, days: [] });
  });
});

describe("/dashboard.csv", () => {
  it("each chart's rows are the page's numbers, with a dated file name, under the filters", async () => {
    for (const query of ["", "&priority=yes", `&tag=${w.tag}`]) {
      const { data } = await page(`/dashboard?${query.slice(1)}`);

      const bands = await csv(`/dashboard.csv?chart=bands${query}`);
      expect(bands.response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      expect(bands.response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="dashboard-bands-\d{4}-\d{2}-\d{2}\.csv"/);
      expect(bands.rows[0]).toEqual(["Day", "High", "Medium", "Low", "Not available", "Total"]);
      const taken = data.history.days.filter((d) => d.counts);
      expect(bands.rows.slice(1)).toEqual(
        taken.map(({ day, counts }) => [
          day,
          ...[counts!.red, counts!.yellow, counts!.green, counts!.unknown].map(String),
          String(Object.values(counts!).reduce((a, b) => a + b, 0)),
        ]),
      );

      const countries = await csv(`/dashboard.csv?chart=countries${query}`);
      expect(countries.rows[0]).toEqual(["Country code", "Country", "Country risk score", "Suppliers"]);
      expect(countries.rows.slice(1)).toEqual(
        data.countries.map((c) => [
          c.code ?? "",
          c.code == null ? "Other countries" : (c.name ?? ""),
          c.riskScore == null ? "" : String(c.riskScore),
          String(c.count),
        ]),
      );

      const industries = await csv(`/dashboard.csv?chart=industries${query}`);
      expect(industries.rows.slice(1).map((r) => [r[0], r[2]])).toEqual(data.industries.map((r) => [r.section ?? "", String(r.count)]));
      if (data.industries.some((r) => r.section === "J")) expect(industries.rows.find((r) => r[0] === "J")?.[1]).toBe("Information and communication");

      const regimes = await csv(`/dashboard.csv?chart=regimes${query}`);
      expect(regimes.rows.slice(1)).toEqual([
        ["ARP", String(data.regimes.arp), String(data.regimes.assessed)],
        ["Transparency Act", String(data.regimes.transparencyAct), String(data.regimes.assessed)],
        ["CSRD", String(data.regimes.csrd), String(data.regimes.assessed)],
      ]);

      const dd = await csv(`/dashboard.csv?chart=due-diligence${query}`);
      const share = data.dueDiligence.total ? Math.round((data.dueDiligence.count * 1000) / data.dueDiligence.total) / 10 : 0;
      expect(dd.rows.slice(1)).toEqual([[String(data.dueDiligence.count), String(data.dueDiligence.total), String(share)]]);
    }
  });

  it("B's CSV has B's numbers only", async () => {
    const { rows } = await csv("/dashboard.csv?chart=due-diligence", w.analystB);
    expect(rows[1].slice(0, 2)).toEqual(["12", "12"]);
  });
});
