import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { loader } from "~/routes/_app.admin.credit-reports";
import { loader as csvLoader } from "~/routes/admin.credit-reports[.]csv";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { call, get } from "../helpers/requests";

/**
 * /admin/credit-reports and its CSV against a real SQLite file: only the operator; per billing month (Europe/Oslo) and
 * organisation the count and total; the CSV's rows and sums equal the database's.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as { admin: string; orgA: number; orgB: number; members: string[] };
let seq = 0;

const open = (fn: Fn, path: string, token?: string) => call(fn, { request: get(path, token ? { Cookie: `token=${token}` } : {}), params: {}, context: {} });

async function order(organizationId: number, createdAt: string, companyName = "Kreditt AS") {
  seq++;
  await db()
    .insertInto("credit_reports")
    .values({
      organization_id: organizationId,
      user_id: null,
      company_name: companyName,
      reg_no: "923609016",
      country_code: "NO",
      language: "NO",
      provider: "local",
      provider_id: `admin-${seq}`,
      file_name: `admin-${seq}.pdf`,
      storage_key: `admin-${seq}`,
      file_size: 1,
      price_nok: 80,
      idempotency_key: `admin-${seq}`,
      created_at: createdAt,
    })
    .execute();
}

beforeAll(async () => {
  const operatorOrg = await makeOrg("Faktura Drift AS", "customer");
  w.admin = await signedIn("operator@admin-credit.test", operatorOrg, 1);
  await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", "operator@admin-credit.test").execute();
  w.orgA = await makeOrg("Alfa Kunde AS", "customer");
  w.orgB = await makeOrg("Beta Kunde AS", "customer");
  w.members = [
    await signedIn("l1@admin-credit.test", w.orgA, 1),
    await signedIn("l2@admin-credit.test", w.orgA, 2),
    await signedIn("l3@admin-credit.test", w.orgA, 3),
  ];
  // 31 January 23:30 UTC is 1 February in Oslo: billed in February.
  await order(w.orgA, "2026-01-31T23:30:00.000Z");
  await order(w.orgA, "2026-01-15T10:00:00.000Z");
  await order(w.orgA, "2026-01-20T10:00:00.000Z", '=HYPERLINK("x")');
  await order(w.orgB, "2026-01-02T10:00:00.000Z");
  for (let i = 0; i < 25; i++) await order(w.orgB, `2026-02-${String(2 + (i % 20)).padStart(2, "0")}T10:00:00.000Z`);
});

describe("who may open the credit billing", () => {
  it("the operator; every level gets 403; a visitor goes to the start page", async () => {
    expect((await open(loader, "/admin/credit-reports", w.admin)).status).toBe(200);
    expect((await open(csvLoader, "/admin/credit-reports.csv", w.admin)).status).toBe(200);
    for (const token of w.members) {
      expect((await open(loader, "/admin/credit-reports", token)).status).toBe(403);
      expect((await open(csvLoader, "/admin/credit-reports.csv", token)).status).toBe(403);
    }
    const visitor = await open(loader, "/admin/credit-reports");
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
    expect((await open(csvLoader, "/admin/credit-reports.csv")).status).toBe(302);
  });
});

describe("monthly totals per organisation", () => {
  it("groups by the Oslo billing month, newest first, organisations by name, at 80 NOK each", async () => {
    const data = (await (await open(loader, "/admin/credit-reports", w.admin)).json()) as {
      months: { month: string; count: number; totalNok: number; organizations: { organizationName: string; count: number; totalNok: number }[] }[];
      orders: { rows: unknown[]; total: number; pageCount: number };
    };
    expect(data.months.map((m) => [m.month, m.count, m.totalNok])).toEqual([
      ["2026-02", 26, 2080],
      ["2026-01", 3, 240],
    ]);
    expect(data.months[0].organizations.map((o) => [o.organizationName, o.count, o.totalNok])).toEqual([
      ["Alfa Kunde AS", 1, 80],
      ["Beta Kunde AS", 25, 2000],
    ]);
    expect(data.months[1].organizations.map((o) => [o.organizationName, o.count])).toEqual([
      ["Alfa Kunde AS", 2],
      ["Beta Kunde AS", 1],
    ]);
    expect([data.orders.rows.length, data.orders.total, data.orders.pageCount]).toEqual([25, 29, 2]);
  });

  it("the CSV has one row per order, its counts and sums equal the database's, formulas escaped", async () => {
    const response = await open(csvLoader, "/admin/credit-reports.csv", w.admin);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = Papa.parse<Record<string, string>>(new TextDecoder().decode(bytes).trim(), { header: true });
    const rows = parsed.data;
    const db_ = await db()
      .selectFrom("credit_reports")
      .select(["organization_id", (eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.sum<number>("price_nok").as("sum")])
      .groupBy("organization_id")
      .execute();
    for (const row of db_) {
      const mine = rows.filter((r) => r["Organization id"] === String(row.organization_id));
      expect([mine.length, mine.reduce((s, r) => s + Number(r["Price (NOK)"]), 0)]).toEqual([Number(row.n), Number(row.sum)]);
    }
    expect(rows).toHaveLength(29);
    expect(rows.filter((r) => r.Month === "2026-02" && r.Organization === "Alfa Kunde AS")).toHaveLength(1);
    expect(rows.find((r) => r.Company.includes("HYPERLINK"))!.Company).toBe('\'=HYPERLINK("x")');
  });
});
