import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@server/db";
import { loader as listLoader } from "~/routes/_app.suppliers";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { call, get } from "../helpers/requests";

/**
 * /suppliers at 10 000 followed suppliers with their stored overall risk (decision 036 gives the figures): the default
 * page, the sort by risk and the risk filter stay well under the budget, and recomputing the whole organisation's
 * risks (set-based, in batches) is a matter of seconds.
 */

const SUPPLIERS = 10_000;
/** Per data request (count + page + tags), generous for a shared two-core machine. */
const BUDGET_MS = 400;
const AT = "2025-01-01T00:00:00.000Z";
const w = {} as { token: string; org: number; other: number };

beforeAll(async () => {
  w.org = await makeOrg("Risk Scale Customer AS", "customer");
  w.other = await makeOrg("Risk Scale Other AS", "customer");
  w.token = await signedIn("analyst@risk-scale.test", w.org, 2);
  await db()
    .transaction()
    .execute(async (trx) => {
      for (let chunk = 0; chunk < SUPPLIERS; chunk += 500) {
        const numbers = Array.from({ length: 500 }, (_, k) => `97${String(chunk + k).padStart(7, "0")}`);
        const orgs = await trx
          .insertInto("organizations")
          .values(
            numbers.map((n, k) => ({
              name: `Risk Scale Supplier ${chunk + k} AS`,
              kind: "supplier" as const,
              org_number: n,
              country_code: "NO",
              created_at: AT,
            })),
          )
          .returning("id")
          .execute();
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
        await trx
          .insertInto("organization_connections")
          .values(
            orgs.flatMap((o) => [
              { parent_organization_id: w.org, child_organization_id: o.id, created_at: AT, updated_at: AT },
              { parent_organization_id: w.other, child_organization_id: o.id, created_at: AT, updated_at: AT },
            ]),
          )
          .execute();
      }
    });
  await sql`analyze`.execute(db());
}, 180_000);

async function timed(query: string): Promise<{ ms: number; total: number }> {
  const started = performance.now();
  const response = await call(listLoader, { request: get(`/suppliers${query}`, { Cookie: `token=${w.token}` }), params: {}, context: {} });
  const ms = performance.now() - started;
  expect(response.status).toBe(200);
  const body = (await response.json()) as { list: { total: number } };
  return { ms, total: body.list.total };
}

describe(`/suppliers with ${SUPPLIERS} followed suppliers and their overall risk`, () => {
  it("recomputes the organisation's risks in batches within a few seconds, leaving the other organisation's", async () => {
    const started = performance.now();
    const written = await recomputeOverallRisk({ organizationId: w.org });
    const ms = performance.now() - started;
    console.info(`recomputeOverallRisk: ${written} connections, ${ms.toFixed(0)} ms`);
    expect(written).toBe(SUPPLIERS);
    expect(ms).toBeLessThan(20_000);
    const counts = await db()
      .selectFrom("organization_connections")
      .select(["parent_organization_id", (eb) => eb.fn.count<number>("overall_risk").as("n")])
      .where("parent_organization_id", "in", [w.org, w.other])
      .groupBy("parent_organization_id")
      .execute();
    expect(Object.fromEntries(counts.map((c) => [c.parent_organization_id, Number(c.n)]))).toEqual({ [w.org]: SUPPLIERS, [w.other]: 0 });
  }, 60_000);

  it.each(["", "?sort=risk&dir=desc", "?sort=risk&dir=asc&page=200", "?risk=high", "?risk=low&sort=risk&dir=desc", "?risk=medium&q=Supplier%2099"])(
    "answers %s within the budget",
    async (query) => {
      await timed(query); // warm the statement cache
      const runs = [await timed(query), await timed(query), await timed(query)];
      const median = runs.map((r) => r.ms).sort((a, b) => a - b)[1];
      console.info(`suppliers${query || " (default)"}: ${runs[0].total} rows, median ${median.toFixed(1)} ms`);
      expect(runs[0].total).toBeGreaterThan(0);
      expect(runs[0].total).toBeLessThanOrEqual(SUPPLIERS);
      expect(median).toBeLessThan(BUDGET_MS);
    },
  );

  it("filters and sorts by risk through the organisation's risk index", async () => {
    const plan = await sql<{
      detail: string;
    }>`explain query plan select c.id from organization_connections as c where c.parent_organization_id = ${w.org} and c.is_deleted = 0 and c.overall_risk_band = 'red' order by c.overall_risk desc`.execute(
      db(),
    );
    const detail = plan.rows.map((r) => r.detail).join(" | ");
    console.info(`plan: ${detail}`);
    expect(detail).toMatch(/organization_connections_overall_risk/);
  });
});
