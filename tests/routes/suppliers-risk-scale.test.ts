import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@server/db";
import { loader as listLoader } from "~/routes/_app.suppliers";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";
import { call, get } from "../helpers/requests";
import { RISK_SCALE_SUPPLIERS, suppliersRiskWorld } from "../helpers/scale-worlds";

/**
 * /suppliers at 10 000 followed suppliers with their stored overall risk (decision 036 gives the figures): recomputing
 * the whole organisation's risks (set-based, in batches) writes every one of its connections and none of the other's;
 * the default page, the sort by risk and the risk filter count only the organisation's rows and read them through its
 * risk index. How fast they answer is timed by `BENCH_ONLY=budgets npm run bench`, against its budget.
 */

const SUPPLIERS = RISK_SCALE_SUPPLIERS;
const w = {} as { token: string; org: number; other: number };

beforeAll(async () => {
  Object.assign(w, await suppliersRiskWorld());
}, 180_000);

async function list(query: string): Promise<{ total: number }> {
  const response = await call(listLoader, { request: get(`/suppliers${query}`, { Cookie: `token=${w.token}` }), params: {}, context: {} });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { list: { total: number } };
  return { total: body.list.total };
}

describe(`/suppliers with ${SUPPLIERS} followed suppliers and their overall risk`, () => {
  it("recomputes the organisation's risks in batches, leaving the other organisation's", async () => {
    const written = await recomputeOverallRisk({ organizationId: w.org });
    expect(written).toBe(SUPPLIERS);
    const counts = await db()
      .selectFrom("organization_connections")
      .select(["parent_organization_id", (eb) => eb.fn.count<number>("overall_risk").as("n")])
      .where("parent_organization_id", "in", [w.org, w.other])
      .groupBy("parent_organization_id")
      .execute();
    expect(Object.fromEntries(counts.map((c) => [c.parent_organization_id, Number(c.n)]))).toEqual({ [w.org]: SUPPLIERS, [w.other]: 0 });
  }, 60_000);

  it.each(["", "?sort=risk&dir=desc", "?sort=risk&dir=asc&page=200", "?risk=high", "?risk=low&sort=risk&dir=desc", "?risk=medium&q=Supplier%2099"])(
    "answers %s",
    async (query) => {
      const { total } = await list(query);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(SUPPLIERS);
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
