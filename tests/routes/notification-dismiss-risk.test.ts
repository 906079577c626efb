import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { lookbackStart } from "~/models/notifications/notification-list.server";
import { recomputeOverallRisk } from "~/models/suppliers/overall-risk.server";
import { action } from "~/routes/_app.notifications/route";
import { company, follow, makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call } from "../helpers/requests";

/**
 * Dismissing a notification on /notifications takes it out of the organisation's reputation line, so the stored overall
 * risk (decision 036) of the organisation's connection to that company is recomputed at once; restoring it counts it
 * again. Another organisation following the same company keeps its own value.
 */

const w = {} as { org: number; other: number; supplier: number; companyId: number; analyst: string; otherAnalyst: string; notification: number };

function post(fields: Record<string, string>, token: string): Request {
  return new Request(BASE + "/notifications", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, Cookie: `token=${token}` },
  });
}

async function runAction(fields: Record<string, string>, token: string) {
  const response = await call(action, { request: post(fields, token), params: {}, context: {} });
  return { status: response.status, location: response.headers.get("Location") };
}

async function stored(parent: number) {
  return db()
    .selectFrom("organization_connections")
    .select(["overall_risk", "overall_risk_band", "overall_risk_reasons", "overall_risk_at"])
    .where("parent_organization_id", "=", parent)
    .where("child_organization_id", "=", w.supplier)
    .where("is_deleted", "=", 0)
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  w.org = await makeOrg("Dismiss Customer AS", "customer");
  w.other = await makeOrg("Dismiss Other AS", "customer");
  w.companyId = await company("970009401", "Dismiss Supplier AS");
  w.supplier = await makeOrg("Dismiss Supplier AS", "supplier", "970009401");
  await follow(w.org, w.supplier);
  await follow(w.other, w.supplier);
  w.analyst = await signedIn("analyst@dismiss-risk.test", w.org, 2);
  w.otherAnalyst = await signedIn("analyst@dismiss-risk-other.test", w.other, 2);
  // A moderate credit line: without the news the overall risk is 40.
  await db()
    .insertInto("financial_statements")
    .values({ company_id: w.companyId, financial_year: 2024, financial_risk_score: JSON.stringify({ finalScore: 40 }), updated_at: new Date().toISOString() })
    .execute();
  await recomputeOverallRisk({ companyIds: [w.companyId] });
});

describe("dismissing a notification recomputes the organisation's stored overall risk", () => {
  it("starts at the credit line for both organisations", async () => {
    expect((await stored(w.org)).overall_risk).toBe(40);
    expect((await stored(w.other)).overall_risk).toBe(40);
  });

  it("a risk-94 notification raises both organisations' stored risk", async () => {
    w.notification = (
      await db()
        .insertInto("risk_notifications")
        .values({
          company_id: w.companyId,
          type: "announcement",
          date: lookbackStart(1),
          created_at: new Date().toISOString(),
          risk_score: 94,
          relevance_score: 100,
          title: "Serious news",
          source: "Test",
          url: "https://example.test/n",
          dedupe_key: "dismiss-risk:94",
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    // What the monitors' queued job does for the companies of new notifications.
    await recomputeOverallRisk({ companyIds: [w.companyId] });
    for (const org of [w.org, w.other]) {
      const row = await stored(org);
      expect([row.overall_risk, row.overall_risk_band]).toEqual([94, "red"]);
      expect(JSON.parse(row.overall_risk_reasons!)).toEqual([{ kind: "line", key: "reputation", value: 94 }]);
    }
  });

  it("dismissing it lowers the organisation's stored risk at once; the other organisation's stays", async () => {
    const otherBefore = await stored(w.other);
    const done = await runAction({ intent: "dismiss", id: String(w.notification), reason: "Not relevant to us", redirectTo: "/notifications" }, w.analyst);
    expect(done.status).toBe(302);
    const row = await stored(w.org);
    expect([row.overall_risk, row.overall_risk_band]).toEqual([40, "yellow"]);
    expect(JSON.parse(row.overall_risk_reasons!)).toEqual([{ kind: "line", key: "credit", value: 40 }]);
    expect(await stored(w.other)).toEqual(otherBefore);
  });

  it("restoring it counts it again", async () => {
    const otherBefore = await stored(w.other);
    const done = await runAction({ intent: "restore", id: String(w.notification), redirectTo: "/notifications" }, w.analyst);
    expect(done.status).toBe(302);
    expect((await stored(w.org)).overall_risk).toBe(94);
    expect(await stored(w.other)).toEqual(otherBefore);
  });

  it("the other organisation's own dismissal changes only its value", async () => {
    const before = await stored(w.org);
    expect((await runAction({ intent: "dismiss", id: String(w.notification), reason: "Handled" }, w.otherAnalyst)).status).toBe(200);
    expect((await stored(w.other)).overall_risk).toBe(40);
    expect(await stored(w.org)).toEqual(before);
  });

  it("an id the organisation cannot see is 404 and changes no stored risk", async () => {
    const before = [await stored(w.org), await stored(w.other)];
    expect((await runAction({ intent: "dismiss", id: "999999", reason: "x" }, w.analyst)).status).toBe(404);
    expect([await stored(w.org), await stored(w.other)]).toEqual(before);
  });
});
