import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { db } from "@server/db";
import { loader as listLoader } from "~/routes/_app.supplier_tasks";
import { loader as csvLoader } from "~/routes/supplier_tasks[.]csv";
import { call, get } from "../helpers/requests";
import { SUPPLIER_TASK_ITEMS, supplierTasksWorld } from "../helpers/scale-worlds";

/**
 * /supplier_tasks at 10 000 items of one organisation (decision 034 gives the figures): the page's count and first
 * page, for the default order and the filters a user reaches for, count only the organisation's rows, the CSV has
 * them all, and the queries read the organisation's rows through its index instead of scanning the table. How fast
 * they answer is timed by `BENCH_ONLY=budgets npm run bench`, against its budget.
 */

const ITEMS = SUPPLIER_TASK_ITEMS;
const w = {} as { token: string; org: number };

beforeAll(async () => {
  Object.assign(w, await supplierTasksWorld());
}, 120_000);

async function list(query: string): Promise<{ total: number }> {
  const response = await call(listLoader, { request: get(`/supplier_tasks${query}`, { Cookie: `token=${w.token}` }), params: {}, context: {} });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { total: number };
  return { total: body.total };
}

describe(`/supplier_tasks with ${ITEMS} items`, () => {
  it.each(["", "?status=overdue", "?status=submitted&sort=due", "?kind=survey&sort=status", "?q=Supplier%201&sort=supplier", "?page=200"])(
    "answers %s",
    async (query) => {
      const { total } = await list(query);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThanOrEqual(ITEMS);
    },
  );

  it("exports all of them as CSV", async () => {
    const response = await call(csvLoader, { request: get("/supplier_tasks.csv", { Cookie: `token=${w.token}` }), params: {}, context: {} });
    const text = await response.text();
    expect(text.trim().split("\r\n")).toHaveLength(ITEMS + 1);
  });

  it("reads the organisation's rows through its index", async () => {
    const plan = await sql<{
      detail: string;
    }>`explain query plan select count(*) from supplier_tasks as st inner join organizations as o on o.id = st.supplier_organization_id where st.organization_id = ${w.org}`.execute(
      db(),
    );
    expect(plan.rows.map((r) => r.detail).join(" | ")).toMatch(/supplier_tasks_org/);
    const page = await sql<{
      detail: string;
    }>`explain query plan select st.id from supplier_tasks as st where st.organization_id = ${w.org} order by st.sent_at desc limit 25`.execute(db());
    const detail = page.rows.map((r) => r.detail).join(" | ");
    expect(detail).toMatch(/USING (COVERING )?INDEX supplier_tasks_org_sent/);
    // The default order comes from the index: no sort of the organisation's rows per page.
    expect(detail).not.toMatch(/TEMP B-TREE/);
  });
});
