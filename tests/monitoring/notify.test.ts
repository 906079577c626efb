import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { raiseNotifications, type DetectedNotification } from "@server/monitoring/notify";
import { company, makeOrg } from "../helpers/fixtures";

function detected(companyId: number, overrides: Partial<DetectedNotification> = {}): DetectedNotification {
  return {
    companyId,
    kind: "bankruptcy",
    type: "announcement",
    date: "2026-11-20",
    riskScore: 95,
    relevanceScore: 100,
    title: { en: "Bankruptcy opened", no: "Konkurs åpnet" },
    description: { en: null, no: null },
    source: "Brønnøysundregistrene",
    url: null,
    dedupeKey: `registry:${companyId}:bankruptcy:1`,
    ...overrides,
  };
}

describe("raiseNotifications", () => {
  it("writes a notification once per dedupe key, whatever the number of runs", async () => {
    const id = await company("912345670", "Konkurs Test AS");
    const first = await raiseNotifications(db(), [detected(id), detected(id, { dedupeKey: "registry:x:ceo_change:2", kind: "ceo_change" })]);
    expect(first).toHaveLength(2);
    expect(await raiseNotifications(db(), [detected(id)])).toEqual([]);
    const rows = await db().selectFrom("risk_notifications").selectAll().where("company_id", "=", id).orderBy("id").execute();
    expect(rows.map((r) => [r.kind, r.title, r.title_no, r.dedupe_key])).toEqual([
      ["bankruptcy", "Bankruptcy opened", "Konkurs åpnet", `registry:${id}:bankruptcy:1`],
      ["ceo_change", "Bankruptcy opened", "Konkurs åpnet", "registry:x:ceo_change:2"],
    ]);
  });

  it("keeps scores within 0–100 and stores the details and the owning organisation", async () => {
    const id = await company("912345689", "Score Test AS");
    const org = await makeOrg("Feed Owner AS", "customer");
    const [written] = await raiseNotifications(db(), [
      detected(id, { riskScore: 140, relevanceScore: -3, details: { from: "A", to: "B" }, organizationId: org, dedupeKey: "news:1" }),
    ]);
    const row = await db().selectFrom("risk_notifications").selectAll().where("id", "=", written).executeTakeFirstOrThrow();
    expect([row.risk_score, row.relevance_score, JSON.parse(row.details!), row.organization_id]).toEqual([100, 0, { from: "A", to: "B" }, org]);
  });
});
