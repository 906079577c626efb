import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { loader } from "~/routes/_app.overview";
import { osloMonth } from "~/models/credit/credit";
import { osloDate } from "~/models/tasks/task-states";
import { company, makeOrg, signedIn, type Loader } from "../helpers/fixtures";
import { call, get } from "../helpers/requests";
import { createConnection } from "../helpers/factory";

/**
 * /overview against a real SQLite file (decision 037): a customer at level 2 sees its own organisation's
 * portfolio only — counts by band, the highest risks, notifications, tasks, due diligence, the team's activity and this
 * month's credit reports; a level 1 member and a supplier respondent see only what their own organisation must answer;
 * a visitor is sent to sign in.
 */

const now = new Date();
const today = osloDate(now);
const day = (offset: number) => new Date(Date.parse(`${today}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
const iso = now.toISOString();

const w = {} as {
  orgA: number;
  orgB: number;
  supplierOrg: number;
  aSuppliers: Array<{ org: number; company: number; name: string }>;
  bOnly: { org: number; company: number };
  analystA: string;
  viewerA: string;
  analystB: string;
  respondent: string;
  otherRespondent: string;
  userA: number;
  userB: number;
};

const open = (token: string | undefined) =>
  call(loader as Loader, { request: get("/overview", token ? { Cookie: `token=${token}` } : {}), params: {}, context: {} });

async function connectionId(parent: number, child: number): Promise<number> {
  return (
    await db()
      .selectFrom("organization_connections")
      .select("id")
      .where("parent_organization_id", "=", parent)
      .where("child_organization_id", "=", child)
      .executeTakeFirstOrThrow()
  ).id;
}

async function followWithRisk(parent: number, child: number, risk: number | null, dd = 0): Promise<void> {
  const band = risk === null ? null : risk <= 33 ? "green" : risk <= 66 ? "yellow" : "red";
  await createConnection({
    parent,
    child,
    dueDiligence: dd,
    createdAt: iso,
    overallRisk: risk,
    overallRiskBand: band,
    overallRiskReasons: risk === null ? null : JSON.stringify([{ kind: "line", key: "reputation", value: risk }]),
    overallRiskAt: iso,
  });
}

async function task(input: { customer: number; supplier: number; title: string; due: string | null; status?: "sent" | "opened" | "draft" | "submitted" }) {
  const ct = await db()
    .insertInto("compliance_tasks")
    .values({
      organization_id: input.customer,
      supplier_organization_id: input.supplier,
      template_id: null,
      title: input.title,
      due_date: input.due,
      created_at: iso,
      updated_at: iso,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db()
    .insertInto("supplier_tasks")
    .values({
      organization_id: input.customer,
      supplier_organization_id: input.supplier,
      kind: "task",
      compliance_task_id: ct.id,
      survey_response_id: null,
      title: input.title,
      recipient_email: null,
      message: null,
      due_date: input.due,
      status: input.status ?? "sent",
      sent_at: iso,
      updated_at: iso,
      submitted_at: input.status === "submitted" ? iso : null,
    })
    .execute();
}

async function notification(companyId: number, risk: number, title: string, date = today) {
  await db()
    .insertInto("risk_notifications")
    .values({ company_id: companyId, type: "announcement", date, created_at: iso, risk_score: risk, relevance_score: 80, title, source: "Test", url: null })
    .execute();
}

async function userId(email: string): Promise<number> {
  return (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
}

beforeAll(async () => {
  w.orgA = await makeOrg("Overview Customer A", "customer", "911000001");
  w.orgB = await makeOrg("Overview Customer B", "customer", "911000002");
  w.supplierOrg = await makeOrg("Overview Respondent Supplier AS", "supplier", "911000003");
  const otherSupplier = await makeOrg("Overview Other Supplier AS", "supplier", "911000004");
  w.analystA = await signedIn("overview-analyst-a@example.test", w.orgA, 2);
  w.viewerA = await signedIn("overview-viewer-a@example.test", w.orgA, 1);
  w.analystB = await signedIn("overview-analyst-b@example.test", w.orgB, 2);
  w.respondent = await signedIn("overview-respondent@example.test", w.supplierOrg, 1);
  w.otherRespondent = await signedIn("overview-other-respondent@example.test", otherSupplier, 1);

  // A follows 14 suppliers: 12 with a stored risk (3 red, 4 yellow, 5 green), 2 not assessed; two under due diligence.
  const risks = [99, 80, 70, 60, 50, 45, 34, 33, 20, 10, 5, 0, null, null];
  w.aSuppliers = [];
  for (const [i, risk] of risks.entries()) {
    const orgNumber = String(912000000 + i);
    const name = `A Supplier ${String(i).padStart(2, "0")}`;
    const companyId = await company(orgNumber, name);
    const org = await makeOrg(name, "supplier", orgNumber);
    await followWithRisk(w.orgA, org, risk, i === 1 || i === 8 ? 1 : 0);
    w.aSuppliers.push({ org, company: companyId, name });
  }
  // B follows one supplier of its own with the highest risk of all, and one of A's with a different stored value.
  const bCompany = await company("913000001", "B Only Supplier AS");
  const bOrg = await makeOrg("B Only Supplier AS", "supplier", "913000001");
  w.bOnly = { org: bOrg, company: bCompany };
  await followWithRisk(w.orgB, bOrg, 100, 1);
  await followWithRisk(w.orgB, w.aSuppliers[11].org, 90);
  // A unfollowed supplier of A's: never counted.
  const gone = await makeOrg("A Unfollowed AS", "supplier", "913000009");
  await followWithRisk(w.orgA, gone, 98);
  await db().updateTable("organization_connections").set({ is_deleted: 1 }).where("child_organization_id", "=", gone).execute();

  // Notifications: A's supplier (risk 85 today, risk 40 today, risk 90 two months ago), B's own supplier (risk 95).
  await notification(w.aSuppliers[0].company, 85, "A supplier sued");
  await notification(w.aSuppliers[0].company, 40, "A supplier minor news");
  await notification(w.aSuppliers[0].company, 90, "A supplier old news", day(-60));
  await notification(bCompany, 95, "B only supplier bankrupt");

  // Tasks A sent: overdue, due in 5 days, due in 30 days (not soon), submitted though past due (done), no due date.
  await task({ customer: w.orgA, supplier: w.aSuppliers[2].org, title: "A overdue task", due: day(-3) });
  await task({ customer: w.orgA, supplier: w.aSuppliers[3].org, title: "A due soon task", due: day(5), status: "draft" });
  await task({ customer: w.orgA, supplier: w.aSuppliers[3].org, title: "A later task", due: day(30) });
  await task({ customer: w.orgA, supplier: w.aSuppliers[4].org, title: "A submitted task", due: day(-10), status: "submitted" });
  await task({ customer: w.orgA, supplier: w.aSuppliers[4].org, title: "A undated task", due: null });
  // B's task to its supplier, overdue: never A's.
  await task({ customer: w.orgB, supplier: bOrg, title: "B overdue task", due: day(-1) });
  // What A itself must answer (B asked), and what the respondent's organisation must answer (A asked), and another's.
  await task({ customer: w.orgB, supplier: w.orgA, title: "Asked of A by B", due: day(2) });
  await task({ customer: w.orgA, supplier: w.supplierOrg, title: "Asked of the respondent", due: day(-2) });
  await task({ customer: w.orgA, supplier: w.supplierOrg, title: "Answered by the respondent", due: day(-20), status: "submitted" });
  await task({ customer: w.orgB, supplier: otherSupplier, title: "Asked of the other supplier", due: day(4) });

  // Activity: A's analyst tagged one of A's suppliers; B's analyst commented on B's supplier.
  w.userA = await userId("overview-analyst-a@example.test");
  w.userB = await userId("overview-analyst-b@example.test");
  await db()
    .insertInto("connection_events")
    .values([
      {
        connection_id: await connectionId(w.orgA, w.aSuppliers[5].org),
        organization_id: w.orgA,
        user_id: w.userA,
        action: "tag_added",
        detail: JSON.stringify({ tagId: 1, title: "Logistics" }),
        created_at: iso,
      },
      {
        connection_id: await connectionId(w.orgA, w.aSuppliers[6].org),
        organization_id: w.orgA,
        user_id: w.userA,
        action: "is_due_diligence",
        detail: JSON.stringify({ to: true }),
        created_at: new Date(now.getTime() - 60_000).toISOString(),
      },
      {
        connection_id: await connectionId(w.orgB, bOrg),
        organization_id: w.orgB,
        user_id: w.userB,
        action: "comment_added",
        detail: JSON.stringify({ commentId: 1 }),
        created_at: iso,
      },
    ])
    .execute();

  // Credit reports: two of A's this month, one of A's two months ago, one of B's this month.
  const report = (organizationId: number, createdAt: string, name: string) => ({
    organization_id: organizationId,
    user_id: null,
    company_name: name,
    reg_no: "912000000",
    country_code: "NO",
    language: "EN" as const,
    provider: "local" as const,
    provider_id: "912000000",
    file_name: "r.pdf",
    storage_key: `k-${name}-${createdAt}`,
    file_size: 1,
    price_nok: 80,
    idempotency_key: `i-${name}-${createdAt}`,
    created_at: createdAt,
  });
  await db()
    .insertInto("credit_reports")
    .values([
      report(w.orgA, iso, "A1"),
      report(w.orgA, new Date(now.getTime() - 1000).toISOString(), "A2"),
      report(w.orgA, new Date(now.getTime() - 62 * 86_400_000).toISOString(), "A old"),
      report(w.orgB, iso, "B1"),
    ])
    .execute();
});

type Supplier = { supplier: { name: string }; risk: { score: number; band: string } | null; reasons: unknown[] };
type CustomerData = {
  kind: "customer";
  total: number;
  bands: Record<string, number>;
  highestRisk: Supplier[];
  notifications: Array<{ content: { title: string } }>;
  tasks: { overdue: number; dueSoon: number; items: Array<{ title: string; shownStatus: string }> };
  dueDiligence: { total: number; items: Supplier[] };
  activity: Array<{ action: string; who: string | null; supplier: { name: string }; detail: { title?: string; to?: boolean } }>;
  creditReports: { month: string; count: number; costNok: number };
  ownWork: Array<{ title: string }>;
};

describe("/overview for a customer at level 2", () => {
  it("counts the organisation's followed suppliers by band, equal to the database's counts", async () => {
    const res = await open(w.analystA);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: CustomerData };
    expect(data.kind).toBe("customer");
    const rows = await db()
      .selectFrom("organization_connections")
      .select(["overall_risk_band"])
      .where("parent_organization_id", "=", w.orgA)
      .where("is_deleted", "=", 0)
      .execute();
    const count = (band: string | null) => rows.filter((r) => r.overall_risk_band === band).length;
    expect(data.total).toBe(rows.length);
    expect(data.bands).toEqual({ red: count("red"), yellow: count("yellow"), green: count("green"), unknown: count(null) });
    expect(data.bands).toEqual({ red: 3, yellow: 4, green: 5, unknown: 2 });
  });

  it("lists the ten highest risks with their reasons, only its own suppliers", async () => {
    const { data } = (await (await open(w.analystA)).json()) as { data: CustomerData };
    expect(data.highestRisk.map((s) => s.risk?.score)).toEqual([99, 80, 70, 60, 50, 45, 34, 33, 20, 10]);
    expect(data.highestRisk[0]).toMatchObject({ supplier: { name: "A Supplier 00" }, reasons: [{ kind: "line", key: "reputation", value: 99 }] });
    const names = data.highestRisk.map((s) => s.supplier.name);
    expect(names).not.toContain("B Only Supplier AS");
    expect(names).not.toContain("A Unfollowed AS");
  });

  it("shows the latest notifications of risk 50 or more of the last 30 days about its own suppliers", async () => {
    const { data } = (await (await open(w.analystA)).json()) as { data: CustomerData };
    expect(data.notifications.map((n) => n.content.title)).toEqual(["A supplier sued"]);
  });

  it("counts and lists the overdue and soon-due tasks it sent, overdue first", async () => {
    const { data } = (await (await open(w.analystA)).json()) as { data: CustomerData };
    expect(data.tasks.overdue).toBe(2); // its overdue task and the respondent's
    expect(data.tasks.dueSoon).toBe(1);
    expect(data.tasks.items.map((t) => [t.title, t.shownStatus])).toEqual([
      ["A overdue task", "overdue"],
      ["Asked of the respondent", "overdue"],
      ["A due soon task", "draft"],
    ]);
  });

  it("shows its suppliers under due diligence, highest risk first", async () => {
    const { data } = (await (await open(w.analystA)).json()) as { data: CustomerData };
    expect(data.dueDiligence.total).toBe(2);
    expect(data.dueDiligence.items.map((s) => s.supplier.name)).toEqual(["A Supplier 01", "A Supplier 08"]);
  });

  it("shows its own team's activity, newest first, and never another organisation's", async () => {
    const { data } = (await (await open(w.analystA)).json()) as { data: CustomerData };
    expect(data.activity.map((a) => [a.action, a.who, a.supplier.name])).toEqual([
      ["tag_added", "overview-analyst-a@example.test", "A Supplier 05"],
      ["is_due_diligence", "overview-analyst-a@example.test", "A Supplier 06"],
    ]);
    expect(data.activity[0].detail.title).toBe("Logistics");
    expect(data.activity[1].detail.to).toBe(true);
  });

  it("counts this month's credit reports and their cost", async () => {
    const { data } = (await (await open(w.analystA)).json()) as { data: CustomerData };
    expect(data.creditReports).toEqual({ month: osloMonth(now), count: 2, costNok: 160 });
  });

  it("shows what the organisation itself must answer, from other customers", async () => {
    const { data } = (await (await open(w.analystA)).json()) as { data: CustomerData };
    expect(data.ownWork.map((i) => i.title)).toEqual(["Asked of A by B"]);
  });

  it("gives the other customer only its own figures", async () => {
    const { data } = (await (await open(w.analystB)).json()) as { data: CustomerData };
    expect(data.total).toBe(2);
    expect(data.bands).toEqual({ red: 2, yellow: 0, green: 0, unknown: 0 });
    expect(data.highestRisk.map((s) => [s.supplier.name, s.risk?.score])).toEqual([
      ["B Only Supplier AS", 100],
      ["A Supplier 11", 90],
    ]);
    expect(data.notifications.map((n) => n.content.title)).toEqual(["B only supplier bankrupt"]);
    expect(data.tasks.items.map((t) => t.title)).toEqual(["B overdue task", "Asked of A by B", "Asked of the other supplier"]);
    expect(data.activity.map((a) => a.action)).toEqual(["comment_added"]);
    expect(data.creditReports.count).toBe(1);
    expect(data.ownWork).toEqual([]);
  });
});

describe("/overview for a level 1 member and a supplier respondent", () => {
  it("shows a level 1 member only what the organisation must answer, none of the portfolio", async () => {
    const res = await open(w.viewerA);
    expect(res.status).toBe(200);
    const body = await res.text();
    const { data } = JSON.parse(body) as { data: { kind: string; ownWork: Array<{ title: string; customerName: string }>; open: number; overdue: number } };
    expect(data.kind).toBe("respondent");
    expect(data.ownWork.map((i) => [i.title, i.customerName])).toEqual([["Asked of A by B", "Overview Customer B"]]);
    expect([data.open, data.overdue]).toEqual([1, 0]);
    // Nothing of the portfolio a level 1 member may not read.
    for (const secret of ["A Supplier 00", "A supplier sued", "A overdue task", "Logistics"]) expect(body).not.toContain(secret);
  });

  it("shows a respondent only its own organisation's open items, overdue counted", async () => {
    const res = await open(w.respondent);
    const body = await res.text();
    const { data, organization } = JSON.parse(body) as {
      data: { kind: string; ownWork: Array<{ title: string; href: string }>; open: number; overdue: number };
      organization: string;
    };
    expect(data.kind).toBe("respondent");
    expect(organization).toBe("Overview Respondent Supplier AS");
    expect(data.ownWork.map((i) => i.title)).toEqual(["Asked of the respondent"]);
    expect(data.ownWork[0].href).toMatch(/^\/tasks\/\d+$/);
    expect([data.open, data.overdue]).toEqual([1, 1]);
    for (const secret of ["Asked of the other supplier", "Asked of A by B", "A Supplier", "A supplier sued"]) expect(body).not.toContain(secret);
  });

  it("shows the other supplier's respondent only its item", async () => {
    const { data } = (await (await open(w.otherRespondent)).json()) as { data: { ownWork: Array<{ title: string }> } };
    expect(data.ownWork.map((i) => i.title)).toEqual(["Asked of the other supplier"]);
  });

  it("sends a visitor to sign in", async () => {
    const res = await open(undefined);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
  });
});
