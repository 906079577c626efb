import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { osloMonth } from "~/models/credit/credit";
import { loader } from "~/routes/_app.admin.credit-reports";
import { loader as csvLoader } from "~/routes/admin.credit-reports[.]csv";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { call, get } from "../helpers/requests";

/**
 * /admin/credit-reports and its CSV against a real SQLite file: only the operator; the billing months (Europe/Oslo) with
 * their counts and totals, one month at a time per organisation and its orders paged; every figure and the CSV's rows
 * equal what the database holds, billed by `osloMonth` here rather than by the SQL under test.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as { admin: string; orgA: number; orgB: number; orgC: number; members: string[] };
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

type PageData = {
  months: { month: string; count: number; totalNok: number }[];
  badMonth: boolean;
  chosen: {
    month: string;
    count: number;
    totalNok: number;
    organizations: { organizationId: number; organizationName: string; count: number; totalNok: number }[];
    orders: { rows: { id: number; organizationId: number }[]; total: number; page: number; pageCount: number };
  } | null;
};
const page = async (path: string) => (await (await open(loader, path, w.admin)).json()) as PageData;

/** The database's orders, billed by `osloMonth` in JS (not by the SQL under test). */
async function stored() {
  const rows = await db().selectFrom("credit_reports").select(["id", "organization_id", "created_at", "price_nok"]).execute();
  return rows.map((r) => ({ id: r.id, org: r.organization_id, month: osloMonth(r.created_at), price: r.price_nok }));
}

async function csvRows(path: string) {
  const response = await open(csvLoader, path, w.admin);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return { response, rows: Papa.parse<Record<string, string>>(new TextDecoder().decode(bytes).trim(), { header: true }).data };
}

beforeAll(async () => {
  const operatorOrg = await makeOrg("Faktura Drift AS", "customer");
  w.admin = await signedIn("operator@admin-credit.test", operatorOrg, 1);
  await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", "operator@admin-credit.test").execute();
  w.orgA = await makeOrg("Alfa Kunde AS", "customer");
  w.orgB = await makeOrg("Beta Kunde AS", "customer");
  // Norwegian collation: Å after Z (an English sort would put it first).
  w.orgC = await makeOrg("Ågesen Kunde AS", "customer");
  w.members = [
    await signedIn("l1@admin-credit.test", w.orgA, 1),
    await signedIn("l2@admin-credit.test", w.orgA, 2),
    await signedIn("l3@admin-credit.test", w.orgA, 3),
  ];
  // 31 January 23:30 UTC is 1 February in Oslo: billed in February.
  await order(w.orgA, "2026-01-31T23:30:00.000Z", "Grense Februar AS");
  await order(w.orgA, "2026-01-15T10:00:00.000Z");
  await order(w.orgA, "2026-01-20T10:00:00.000Z", '=HYPERLINK("x")');
  await order(w.orgB, "2026-01-02T10:00:00.000Z");
  for (let i = 0; i < 25; i++) await order(w.orgB, `2026-02-${String(2 + (i % 20)).padStart(2, "0")}T10:00:00.000Z`);
  // The year's end: 23:59:59.999 on 31 December in Oslo is December's, 00:00 on 1 January is January's.
  await order(w.orgC, "2025-12-31T22:59:59.999Z", "Nyttårsaften AS");
  await order(w.orgC, "2025-12-31T23:00:00.000Z", "Nyttårsdag AS");
  await order(w.orgC, "2026-02-10T10:00:00.000Z");
});

describe("who may open the credit billing", () => {
  it("the operator; every level gets 403; a visitor goes to the start page", async () => {
    for (const path of ["/admin/credit-reports", "/admin/credit-reports?month=2026-01"]) {
      expect((await open(loader, path, w.admin)).status).toBe(200);
    }
    for (const path of ["/admin/credit-reports.csv", "/admin/credit-reports.csv?month=2026-01"]) {
      expect((await open(csvLoader, path, w.admin)).status).toBe(200);
    }
    for (const token of w.members) {
      expect((await open(loader, "/admin/credit-reports", token)).status).toBe(403);
      expect((await open(loader, "/admin/credit-reports?month=2026-01", token)).status).toBe(403);
      expect((await open(csvLoader, "/admin/credit-reports.csv", token)).status).toBe(403);
      expect((await open(csvLoader, "/admin/credit-reports.csv?month=2026-01", token)).status).toBe(403);
    }
    const visitor = await open(loader, "/admin/credit-reports");
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
    expect((await open(csvLoader, "/admin/credit-reports.csv")).status).toBe(302);
    expect((await open(csvLoader, "/admin/credit-reports.csv?month=2026-01")).status).toBe(302);
  });
});

describe("the billing months", () => {
  it("lists every Oslo billing month newest first with its count and total, each equal to the database's", async () => {
    const data = await page("/admin/credit-reports");
    const orders = await stored();
    const expected = [...new Set(orders.map((o) => o.month))]
      .sort()
      .reverse()
      .map((month) => {
        const mine = orders.filter((o) => o.month === month);
        return [month, mine.length, mine.reduce((s, o) => s + o.price, 0)];
      });
    expect(data.months.map((m) => [m.month, m.count, m.totalNok])).toEqual(expected);
    expect(expected).toEqual([
      ["2026-02", 27, 2160],
      ["2026-01", 4, 320],
      ["2025-12", 1, 80],
    ]);
  });

  it("without a month, the newest: per organisation (by name, Norwegian order) and paged 25 in SQL, every order once", async () => {
    const data = await page("/admin/credit-reports");
    expect(data.badMonth).toBe(false);
    const chosen = data.chosen!;
    expect([chosen.month, chosen.count, chosen.totalNok]).toEqual(["2026-02", 27, 2160]);
    expect(chosen.organizations.map((o) => [o.organizationName, o.count, o.totalNok])).toEqual([
      ["Alfa Kunde AS", 1, 80],
      ["Beta Kunde AS", 25, 2000],
      ["Ågesen Kunde AS", 1, 80],
    ]);
    const orders = (await stored()).filter((o) => o.month === "2026-02");
    for (const org of chosen.organizations) expect(org.count).toBe(orders.filter((o) => o.org === org.organizationId).length);
    expect([chosen.orders.rows.length, chosen.orders.total, chosen.orders.page, chosen.orders.pageCount]).toEqual([25, 27, 1, 2]);
    const second = (await page("/admin/credit-reports?month=2026-02&page=2")).chosen!.orders;
    expect([second.rows.length, second.page]).toEqual([2, 2]);
    expect([...chosen.orders.rows, ...second.rows].map((r) => r.id).sort((a, b) => a - b)).toEqual(orders.map((o) => o.id).sort((a, b) => a - b));
    // Past the last page: the last page.
    expect((await page("/admin/credit-reports?month=2026-02&page=99")).chosen!.orders.page).toBe(2);
  });

  it("a chosen month has only its own orders: 23:30 UTC on 31 January is February's, not January's", async () => {
    const chosen = (await page("/admin/credit-reports?month=2026-01")).chosen!;
    expect([chosen.month, chosen.count, chosen.totalNok]).toEqual(["2026-01", 4, 320]);
    expect(chosen.organizations.map((o) => [o.organizationId, o.count])).toEqual([
      [w.orgA, 2],
      [w.orgB, 1],
      [w.orgC, 1],
    ]);
    const orders = (await stored()).filter((o) => o.month === "2026-01");
    expect(chosen.orders.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(orders.map((o) => o.id).sort((a, b) => a - b));
    const [lateJanuary] = await db().selectFrom("credit_reports").select("id").where("created_at", "=", "2026-01-31T23:30:00.000Z").execute();
    expect(chosen.orders.rows.map((r) => r.id)).not.toContain(lateJanuary.id);
    const december = (await page("/admin/credit-reports?month=2025-12")).chosen!;
    expect([december.count, december.organizations.map((o) => o.organizationId)]).toEqual([1, [w.orgC]]);
  });

  it("a value that is no month shows the newest month and says so; a month without orders is empty, never a 500", async () => {
    for (const bad of ["2026-13", "februar", "2026-2", "1970-01", ""]) {
      const response = await open(loader, `/admin/credit-reports?month=${encodeURIComponent(bad)}&page=x`, w.admin);
      expect(response.status).toBe(200);
      const data = (await response.json()) as PageData;
      expect([data.badMonth, data.chosen!.month, data.chosen!.orders.page]).toEqual([true, "2026-02", 1]);
    }
    const empty = (await page("/admin/credit-reports?month=2025-06")).chosen!;
    expect([empty.month, empty.count, empty.totalNok, empty.organizations, empty.orders.total, empty.orders.rows]).toEqual(["2025-06", 0, 0, [], 0, []]);
  });
});

describe("the CSV", () => {
  it("all orders: one row per order, its counts and sums per organisation and month equal the database's, formulas escaped", async () => {
    const { rows } = await csvRows("/admin/credit-reports.csv");
    const orders = await stored();
    expect(rows).toHaveLength(orders.length);
    for (const org of [w.orgA, w.orgB, w.orgC]) {
      for (const month of ["2025-12", "2026-01", "2026-02"]) {
        const mine = rows.filter((r) => r["Organization id"] === String(org) && r.Month === month);
        const db_ = orders.filter((o) => o.org === org && o.month === month);
        expect([mine.length, mine.reduce((s, r) => s + Number(r["Price (NOK)"]), 0)]).toEqual([db_.length, db_.reduce((s, o) => s + o.price, 0)]);
      }
    }
    expect(rows.find((r) => r.Company === "Grense Februar AS")).toMatchObject({ Date: "2026-02-01 00:30", Month: "2026-02", Organization: "Alfa Kunde AS" });
    expect(rows.find((r) => r.Company === "Nyttårsaften AS")).toMatchObject({ Date: "2025-12-31 23:59", Month: "2025-12" });
    expect(rows.find((r) => r.Company === "Nyttårsdag AS")).toMatchObject({ Date: "2026-01-01 00:00", Month: "2026-01" });
    expect(rows.find((r) => r.Company.includes("HYPERLINK"))!.Company).toBe('\'=HYPERLINK("x")');
    // Newest first.
    expect(rows.map((r) => r.Date)).toEqual(
      rows
        .map((r) => r.Date)
        .sort()
        .reverse(),
    );
  });

  it("?month=: exactly that month's orders, named by the month; a value that is no month is a 400", async () => {
    const { rows, response } = await csvRows("/admin/credit-reports.csv?month=2026-02");
    expect(response.headers.get("Content-Disposition")).toContain("credit-billing-2026-02.csv");
    const orders = (await stored()).filter((o) => o.month === "2026-02");
    expect(rows).toHaveLength(orders.length);
    expect(new Set(rows.map((r) => r.Month))).toEqual(new Set(["2026-02"]));
    for (const org of [w.orgA, w.orgB, w.orgC]) {
      expect(rows.filter((r) => r["Organization id"] === String(org)).length).toBe(orders.filter((o) => o.org === org).length);
    }
    expect(rows.map((r) => r.Company)).toContain("Grense Februar AS");
    const january = await csvRows("/admin/credit-reports.csv?month=2026-01");
    expect(january.rows.map((r) => r.Company).sort()).toEqual(
      ['=HYPERLINK("x")', "Kreditt AS", "Kreditt AS", "Nyttårsdag AS"].map((c) => (c.startsWith("=") ? `'${c}` : c)).sort(),
    );
    for (const bad of ["2026-13", "x", ""]) {
      expect((await open(csvLoader, `/admin/credit-reports.csv?month=${bad}`, w.admin)).status).toBe(400);
    }
  });
});
