import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { loader } from "~/routes/_app.admin.suppliers-overview";
import { follow, makeOrg, signedIn } from "../helpers/fixtures";
import { call, get } from "../helpers/requests";

/**
 * /admin/suppliers-overview against a real SQLite file: only the operator; suppliers by the number of customer
 * organisations following them (a removed connection does not count), with the highest and average stored overall
 * risk across them; paging; nothing of a customer's comments or tags in the answer.
 */

const w = {} as { admin: string; members: string[]; a: number; b: number; c: number };
const open = (token?: string, query = "") =>
  call(loader, { request: get(`/admin/suppliers-overview${query}`, token ? { Cookie: `token=${token}` } : {}), params: {}, context: {} });

beforeAll(async () => {
  const operatorOrg = await makeOrg("Oversikt Drift AS", "customer");
  w.admin = await signedIn("operator@admin-overview.test", operatorOrg, 1);
  await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", "operator@admin-overview.test").execute();
  const customers = [await makeOrg("Kunde En AS", "customer"), await makeOrg("Kunde To AS", "customer"), await makeOrg("Kunde Tre AS", "customer")];
  w.members = [
    await signedIn("l1@admin-overview.test", customers[0], 1),
    await signedIn("l2@admin-overview.test", customers[0], 2),
    await signedIn("l3@admin-overview.test", customers[0], 3),
  ];
  w.a = await makeOrg("Populær Leverandør AS", "supplier", "923609016");
  w.b = await makeOrg("Middels Leverandør AS", "supplier");
  w.c = await makeOrg("Fjernet Leverandør AS", "supplier");
  for (const customer of customers) await follow(customer, w.a);
  await follow(customers[0], w.b);
  await follow(customers[1], w.b);
  await follow(customers[0], w.c, 1);
  const risks: [number, number, number][] = [
    [customers[0], w.a, 80],
    [customers[1], w.a, 40],
    [customers[0], w.b, 10],
  ];
  for (const [parent, child, risk] of risks)
    await db()
      .updateTable("organization_connections")
      .set({ overall_risk: risk })
      .where("parent_organization_id", "=", parent)
      .where("child_organization_id", "=", child)
      .execute();
  const tag = await db()
    .insertInto("organization_tags")
    .values({ organization_id: customers[0], title: "Hemmelig etikett", created_at: "2025-01-01T00:00:00.000Z" })
    .returning("id")
    .executeTakeFirst();
  expect(tag).toBeTruthy();
});

describe("/admin/suppliers-overview", () => {
  it("only the operator; every level 403; a visitor to the start page", async () => {
    expect((await open(w.admin)).status).toBe(200);
    for (const token of w.members) expect((await open(token)).status).toBe(403);
    const visitor = await open();
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
  });

  it("ranks suppliers by following customers, with the stored risk's highest and average; no private data", async () => {
    const response = await open(w.admin);
    const text = await response.text();
    const data = JSON.parse(text) as {
      list: { rows: { name: string; followers: number; highestRisk: number | null; averageRisk: number | null }[]; total: number };
    };
    expect(data.list.rows.map((r) => [r.name, r.followers, r.highestRisk, r.averageRisk])).toEqual([
      ["Populær Leverandør AS", 3, 80, 60],
      ["Middels Leverandør AS", 2, 10, 10],
    ]);
    expect(data.list.total).toBe(2);
    expect(text).not.toContain("Hemmelig etikett");
    expect(text).not.toContain("Fjernet Leverandør AS");
  });
});
