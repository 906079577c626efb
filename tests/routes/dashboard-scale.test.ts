import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@server/db";
import { loader } from "~/routes/_app.dashboard/route";
import { loader as csvLoader } from "~/routes/dashboard[.]csv";
import type { Dashboard } from "~/models/overview/dashboard";
import { call, get } from "../helpers/requests";
import { DASHBOARD_DAYS, DASHBOARD_SUPPLIERS, dashboardWorld } from "../helpers/scale-worlds";

/**
 * /dashboard at 10 000 followed suppliers (and 10 000 of another organisation) with a year of daily snapshots (decision
 * 038 gives the figures): the page's data request, each CSV, and one day's snapshot of both organisations answer, and the snapshots are read by
 * their key. How fast is timed by `BENCH_ONLY=budgets npm run bench`, against its budget.
 */

const SUPPLIERS = DASHBOARD_SUPPLIERS;
const DAYS = DASHBOARD_DAYS;
const w = {} as { token: string; org: number; other: number; tags: number[]; snapshotMs: number };

beforeAll(async () => {
  Object.assign(w, await dashboardWorld());
}, 300_000);

async function answer(url: string) {
  const fn = url.startsWith("/dashboard.csv") ? csvLoader : loader;
  const response = await call(fn, { request: get(url, { Cookie: `token=${w.token}` }), params: {}, context: {} });
  expect(response.status).toBe(200);
  return { response };
}

describe(`/dashboard with ${SUPPLIERS} followed suppliers and ${DAYS} days of snapshots`, () => {
  it("one day's snapshot of both organisations is small", async () => {
    const [{ n }] = (await sql<{ n: number }>`select count(*) as n from risk_snapshots where organization_id = ${w.org} and day = date('now')`.execute(db()))
      .rows;
    const [{ all }] = (await sql<{ all: number }>`select count(*) as "all" from risk_snapshots`.execute(db())).rows;
    console.info(`snapshotRisk (both organisations, ${2 * SUPPLIERS} connections): ${n} rows per day for the organisation; ${all} rows in all`);
    // bands × priority × due diligence × (tags + 1) at most.
    expect(n).toBeLessThanOrEqual(4 * 2 * 2 * 6);
  });

  it.each(["", "?priority=yes", "?dd=no&priority=no", "TAG"])("the page's data %s", async (query) => {
    const url = `/dashboard${query === "TAG" ? `?tag=${w.tags[0]}` : query}`;
    const { response } = await answer(url);
    const body = (await response.json()) as { data: Dashboard };
    expect(body.data.total).toBeGreaterThan(0);
    expect(body.data.total).toBeLessThanOrEqual(SUPPLIERS);
    expect(body.data.history.days.length).toBe(90);
  });

  it.each(["bands", "countries", "industries", "regimes", "due-diligence"])("the %s CSV", async (chart) => {
    await answer(`/dashboard.csv?chart=${chart}&tag=${w.tags[1]}`);
  });

  it("reads the snapshots by their key", async () => {
    const plan = await sql<{ detail: string }>`explain query plan
      select day, band, sum(count) from risk_snapshots where organization_id = ${w.org} and tag_id = 0 and day >= '2026-01-01' and day <= '2026-12-31' group by day, band`.execute(
      db(),
    );
    const detail = plan.rows.map((r) => r.detail).join(" | ");
    console.info(`plan: ${detail}`);
    expect(detail).toMatch(/USING PRIMARY KEY/);
  });
});
