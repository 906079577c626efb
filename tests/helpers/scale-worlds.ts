import { sql } from "kysely";
import { db } from "@server/db";
import { snapshotRisk } from "~/models/overview/risk-snapshots.server";
import { createConnections, createOrganizations } from "./factory";
import { makeOrg, signedIn } from "./fixtures";

/**
 * The large worlds of the scale tests, shared by their vitest files (which check what the lists answer and how the
 * queries read) and by `BENCH_ONLY=budgets npm run bench` (which times the same requests against their budgets).
 * Each writes into the current database (`db()`).
 */

const AT = "2025-01-01T00:00:00.000Z";

/** /supplier_tasks: 10 000 items of one organisation and as many of another. */
export const SUPPLIER_TASK_ITEMS = 10_000;

export async function supplierTasksWorld(): Promise<{ token: string; org: number }> {
  const ITEMS = SUPPLIER_TASK_ITEMS;
  const w = {} as { token: string; org: number };
  w.org = await makeOrg("Scale Customer AS", "customer");
  const other = await makeOrg("Scale Other AS", "customer");
  const suppliers: number[] = [];
  for (let i = 0; i < 50; i++) suppliers.push(await makeOrg(`Scale Supplier ${i} AS`, "supplier", `98${String(i).padStart(7, "0")}`));
  w.token = await signedIn("analyst@scale.test", w.org, 2);
  const statuses = ["sent", "opened", "draft", "submitted", "accepted", "returned", "cancelled"] as const;
  const start = Date.parse("2025-01-01T00:00:00Z");
  await db()
    .transaction()
    .execute(async (trx) => {
      for (let chunk = 0; chunk < ITEMS * 2; chunk += 500) {
        const rows = Array.from({ length: 500 }, (_, k) => {
          const i = chunk + k;
          const at = new Date(start + i * 3_600_000).toISOString();
          return {
            // Half the rows are another organisation's: the queries must not read them.
            organization_id: i % 2 === 0 ? w.org : other,
            supplier_organization_id: suppliers[i % suppliers.length],
            kind: i % 3 === 0 ? ("survey" as const) : ("task" as const),
            compliance_task_id: null,
            survey_response_id: null,
            title: `Item ${i}`,
            status: statuses[i % statuses.length],
            due_date: new Date(start + (i % 400) * 86_400_000).toISOString().slice(0, 10),
            recipient_email: `contact${i % 50}@scale.test`,
            sent_at: at,
            updated_at: at,
          };
        });
        // The CHECK wants exactly one answer row; the list never reads them, so the check is bypassed for the bulk rows.
        await sql`pragma ignore_check_constraints = on`.execute(trx);
        await trx.insertInto("supplier_tasks").values(rows).execute();
      }
    });
  await sql`pragma ignore_check_constraints = off`.execute(db());
  await sql`analyze`.execute(db());
  return w;
}

/** /suppliers: 10 000 followed suppliers with registry data and notifications, followed by two organisations. */
export const RISK_SCALE_SUPPLIERS = 10_000;

export async function suppliersRiskWorld(): Promise<{ token: string; org: number; other: number }> {
  const SUPPLIERS = RISK_SCALE_SUPPLIERS;
  const w = {} as { token: string; org: number; other: number };
  w.org = await makeOrg("Risk Scale Customer AS", "customer");
  w.other = await makeOrg("Risk Scale Other AS", "customer");
  w.token = await signedIn("analyst@risk-scale.test", w.org, 2);
  await db()
    .transaction()
    .execute(async (trx) => {
      for (let chunk = 0; chunk < SUPPLIERS; chunk += 500) {
        const numbers = Array.from({ length: 500 }, (_, k) => `97${String(chunk + k).padStart(7, "0")}`);
        const orgs = await createOrganizations(
          numbers.map((n, k) => ({ name: `Risk Scale Supplier ${chunk + k} AS`, kind: "supplier" as const, orgNumber: n, createdAt: AT })),
          trx,
        );
        const companies = await trx
          .insertInto("companies")
          .values(
            numbers.map((n, k) => ({
              org_number: n,
              legal_name: `Risk Scale Supplier ${chunk + k} AS`,
              country_code: "NO",
              source: "seed" as const,
              updated_at: AT,
            })),
          )
          .returning("id")
          .execute();
        await trx
          .insertInto("financial_statements")
          .values(
            companies.map((c, k) => ({
              company_id: c.id,
              financial_year: 2024,
              financial_risk_score: JSON.stringify({ finalScore: (chunk + k) % 101 }),
              updated_at: AT,
            })),
          )
          .execute();
        await trx
          .insertInto("risk_notifications")
          .values(
            companies
              .filter((_, k) => k % 10 === 0)
              .map((c) => ({
                company_id: c.id,
                type: "announcement" as const,
                date: "2026-01-01",
                created_at: AT,
                risk_score: 90,
                relevance_score: 100,
                title: "Serious",
              })),
          )
          .execute();
        // Both organisations follow every supplier: the list and the recomputation must read only one's rows.
        await createConnections(
          orgs.flatMap((o) => [
            { parent: w.org, child: o, createdAt: AT },
            { parent: w.other, child: o, createdAt: AT },
          ]),
          trx,
        );
      }
    });
  await sql`analyze`.execute(db());
  return w;
}

/** /dashboard: 10 000 followed suppliers (and 10 000 of another organisation) with a year of daily snapshots. */
export const DASHBOARD_SUPPLIERS = 10_000;
export const DASHBOARD_DAYS = 365;
const COUNTRIES = ["NO", "SE", "DK", "FI", "DE", "FR", "GB", "US", "NL", "BE", "PL", "IT", "ES", "CN", "IN", "JP", "BR", "EE", "LT", "LV"];
const INDUSTRIES = ["62.010", "41.200", "10.110", "47.190", "49.410", "86.101", "68.209", "71.129", null];
const BANDS = ["green", "yellow", "red", null] as const;

/** `snapshotMs`: how long today's snapshot of both organisations took while the world was written. */
export async function dashboardWorld(): Promise<{ token: string; org: number; other: number; tags: number[]; snapshotMs: number }> {
  const SUPPLIERS = DASHBOARD_SUPPLIERS;
  const DAYS = DASHBOARD_DAYS;
  const w = {} as { token: string; org: number; other: number; tags: number[]; snapshotMs: number };
  w.org = await makeOrg("Dashboard Scale Customer AS", "customer");
  w.other = await makeOrg("Dashboard Scale Other AS", "customer");
  w.token = await signedIn("analyst@dashboard-scale.test", w.org, 2);
  w.tags = [];
  for (const title of ["Critical", "Logistics", "IT", "Tier 1", "Review"]) {
    w.tags.push(
      (await db().insertInto("organization_tags").values({ organization_id: w.org, title, created_at: AT }).returning("id").executeTakeFirstOrThrow()).id,
    );
  }
  for (const [i, code] of COUNTRIES.entries()) {
    await db()
      .insertInto("countries")
      .values({
        iso2: code,
        iso3: `${code}S`,
        name_en: `Country ${code}`,
        name_no: `Land ${code}`,
        region: null,
        risk_score: 5 + i * 4,
        co2_per_gdp: null,
        governance_percentile: null,
      })
      .onConflict((oc) => oc.column("iso2").doNothing())
      .execute();
  }
  await db()
    .transaction()
    .execute(async (trx) => {
      for (let chunk = 0; chunk < SUPPLIERS; chunk += 500) {
        const numbers = Array.from({ length: 500 }, (_, k) => `96${String(chunk + k).padStart(7, "0")}`);
        const orgs = await createOrganizations(
          numbers.map((n, k) => ({
            name: `Dashboard Scale ${chunk + k} AS`,
            kind: "supplier" as const,
            orgNumber: n,
            countryCode: COUNTRIES[(chunk + k) % 7 === 0 ? (chunk + k) % COUNTRIES.length : 0],
            createdAt: AT,
          })),
          trx,
        );
        const companies = await trx
          .insertInto("companies")
          .values(
            numbers.map((n, k) => ({
              org_number: n,
              legal_name: `Dashboard Scale ${chunk + k} AS`,
              country_code: "NO",
              source: "seed" as const,
              updated_at: AT,
              industry_code: INDUSTRIES[(chunk + k) % INDUSTRIES.length],
              org_form: (chunk + k) % 50 === 0 ? "ASA" : "AS",
              number_of_employees: (chunk + k) % 3 === 0 ? null : (chunk + k) % 400,
            })),
          )
          .returning("id")
          .execute();
        await trx
          .insertInto("financial_statements")
          .values(
            companies.flatMap((c, k) => [
              { company_id: c.id, financial_year: 2023, number_of_employees: k, total_assets: k * 900, operating_income: k * 1_000, updated_at: AT },
              { company_id: c.id, financial_year: 2024, number_of_employees: k % 300, total_assets: k * 1_000, operating_income: k * 1_500, updated_at: AT },
            ]),
          )
          .execute();
        const connections = await createConnections(
          orgs.flatMap((o, k) => {
            const band = BANDS[(chunk + k) % 4];
            const risk = { overallRisk: band === "green" ? 20 : band === "yellow" ? 50 : band === "red" ? 80 : null, overallRiskBand: band };
            return [
              { parent: w.org, child: o, priority: k % 5 === 0 ? 1 : 0, dueDiligence: k % 7 === 0 ? 1 : 0, createdAt: AT, ...risk },
              { parent: w.other, child: o, priority: 1, dueDiligence: 1, createdAt: AT, ...risk },
            ];
          }),
          trx,
        );
        const own = connections.filter((c) => c.parent === w.org);
        await trx
          .insertInto("organization_connection_tags")
          .values(
            own.flatMap((c, k) => [
              { connection_id: c.id, tag_id: w.tags[k % 5], created_at: AT },
              ...(k % 3 === 0 ? [{ connection_id: c.id, tag_id: w.tags[(k + 1) % 5], created_at: AT }] : []),
            ]),
          )
          .execute();
      }
    });
  // Today's snapshot of everyone, timed; then the same rows for each of the 364 days before (a year of history).
  const started = performance.now();
  await snapshotRisk();
  w.snapshotMs = performance.now() - started;
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Oslo" }).format(new Date());
  for (let k = 1; k < DAYS; k++) {
    await sql`insert into risk_snapshots (organization_id, day, tag_id, band, is_priority, is_due_diligence, count)
              select organization_id, date(${today}, ${`-${k} days`}), tag_id, band, is_priority, is_due_diligence, count
                from risk_snapshots where day = ${today}`.execute(db());
  }
  await sql`analyze`.execute(db());
  return w;
}
