import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import type { JobContext } from "@server/jobs/types";
import { RISK_RECOMPUTE_JOB, riskRecomputeJob } from "~/models/suppliers/overall-risk.server";
import { snapshotRisk } from "~/models/overview/risk-snapshots.server";
import { company, follow, makeOrg } from "./helpers/fixtures";

/** The daily risk snapshots (decision 038): per organisation, idempotent, with per-tag rows, written by the recompute job. */

const AT = "2025-01-01T00:00:00.000Z";
const DAY1 = new Date("2026-03-01T10:00:00Z");
const DAY2 = new Date("2026-03-02T10:00:00Z");
const w = {} as { a: number; b: number; suppliers: number[]; tagA: number; tagB: number };

async function rows(organizationId: number, day?: string) {
  let q = db()
    .selectFrom("risk_snapshots")
    .select(["day", "tag_id", "band", "is_priority", "is_due_diligence", "count"])
    .where("organization_id", "=", organizationId);
  if (day) q = q.where("day", "=", day);
  return q.orderBy("day").orderBy("tag_id").orderBy("band").orderBy("is_priority").orderBy("is_due_diligence").execute();
}

async function connection(parent: number, child: number) {
  return db()
    .selectFrom("organization_connections")
    .select("id")
    .where("parent_organization_id", "=", parent)
    .where("child_organization_id", "=", child)
    .where("is_deleted", "=", 0)
    .executeTakeFirstOrThrow();
}

async function setRisk(parent: number, child: number, band: "green" | "yellow" | "red" | null, flags: { priority?: number; dd?: number } = {}) {
  await db()
    .updateTable("organization_connections")
    .set({
      overall_risk: band === "green" ? 10 : band === "yellow" ? 50 : band === "red" ? 90 : null,
      overall_risk_band: band,
      is_priority: flags.priority ?? 0,
      is_due_diligence: flags.dd ?? 0,
    })
    .where("parent_organization_id", "=", parent)
    .where("child_organization_id", "=", child)
    .execute();
}

beforeAll(async () => {
  w.a = await makeOrg("Snapshot Customer A AS", "customer");
  w.b = await makeOrg("Snapshot Customer B AS", "customer");
  w.suppliers = [];
  for (let i = 0; i < 4; i++) w.suppliers.push(await makeOrg(`Snapshot Supplier ${i} AS`, "supplier", `98760000${i}`));
  for (const s of w.suppliers) await follow(w.a, s);
  await follow(w.b, w.suppliers[0]);
  // A deleted connection is never counted.
  const gone = await makeOrg("Snapshot Gone AS", "supplier");
  await follow(w.a, gone, 1);
  await setRisk(w.a, w.suppliers[0], "red", { priority: 1 });
  await setRisk(w.a, w.suppliers[1], "red", { priority: 1 });
  await setRisk(w.a, w.suppliers[2], "green", { dd: 1 });
  await setRisk(w.a, w.suppliers[3], null);
  await setRisk(w.b, w.suppliers[0], "yellow");
  w.tagA = (
    await db().insertInto("organization_tags").values({ organization_id: w.a, title: "Critical", created_at: AT }).returning("id").executeTakeFirstOrThrow()
  ).id;
  w.tagB = (
    await db().insertInto("organization_tags").values({ organization_id: w.b, title: "B's tag", created_at: AT }).returning("id").executeTakeFirstOrThrow()
  ).id;
  const c0 = await connection(w.a, w.suppliers[0]);
  const c2 = await connection(w.a, w.suppliers[2]);
  await db()
    .insertInto("organization_connection_tags")
    .values([
      { connection_id: c0.id, tag_id: w.tagA, created_at: AT },
      { connection_id: c2.id, tag_id: w.tagA, created_at: AT },
      // Another organisation's tag on A's connection (never made by the app): not counted under either organisation.
      { connection_id: c2.id, tag_id: w.tagB, created_at: AT },
    ])
    .execute();
});

describe("snapshotRisk", () => {
  it("counts each organisation's active connections by band and flags, over all (tag 0) and per tag, on the Oslo day", async () => {
    await snapshotRisk({ organizationIds: [w.a], now: DAY1 });
    expect(await rows(w.a)).toEqual([
      { day: "2026-03-01", tag_id: 0, band: "green", is_priority: 0, is_due_diligence: 1, count: 1 },
      { day: "2026-03-01", tag_id: 0, band: "red", is_priority: 1, is_due_diligence: 0, count: 2 },
      { day: "2026-03-01", tag_id: 0, band: "unknown", is_priority: 0, is_due_diligence: 0, count: 1 },
      { day: "2026-03-01", tag_id: w.tagA, band: "green", is_priority: 0, is_due_diligence: 1, count: 1 },
      { day: "2026-03-01", tag_id: w.tagA, band: "red", is_priority: 1, is_due_diligence: 0, count: 1 },
    ]);
    // Scoped to A: B has no rows yet.
    expect(await rows(w.b)).toEqual([]);
  });

  it("is idempotent: a second run the same day replaces the day's rows with the current counts", async () => {
    const before = await rows(w.a, "2026-03-01");
    await snapshotRisk({ organizationIds: [w.a], now: DAY1 });
    expect(await rows(w.a, "2026-03-01")).toEqual(before);
    await setRisk(w.a, w.suppliers[3], "yellow");
    await snapshotRisk({ organizationIds: [w.a], now: new Date("2026-03-01T22:30:00Z") }); // 23:30 in Oslo: still 1 March
    const after = await rows(w.a, "2026-03-01");
    expect(after.find((r) => r.tag_id === 0 && r.band === "unknown")).toBeUndefined();
    expect(after.find((r) => r.tag_id === 0 && r.band === "yellow")?.count).toBe(1);
    expect(after.filter((r) => r.tag_id === 0).reduce((n, r) => n + r.count, 0)).toBe(4);
  });

  it("keeps earlier days, and a run for every organisation leaves no organisation out", async () => {
    await snapshotRisk({ now: DAY2 });
    expect((await rows(w.a, "2026-03-01")).length).toBeGreaterThan(0);
    expect((await rows(w.a, "2026-03-02")).filter((r) => r.tag_id === 0).reduce((n, r) => n + r.count, 0)).toBe(4);
    expect(await rows(w.b, "2026-03-02")).toEqual([{ day: "2026-03-02", tag_id: 0, band: "yellow", is_priority: 0, is_due_diligence: 0, count: 1 }]);
    // Scoped to B on day 2: A's day-2 rows stay.
    const aDay2 = await rows(w.a, "2026-03-02");
    await snapshotRisk({ organizationIds: [w.b], now: DAY2 });
    expect(await rows(w.a, "2026-03-02")).toEqual(aDay2);
  });

  it("does nothing for an empty list of organisations", async () => {
    expect(await snapshotRisk({ organizationIds: [], now: DAY1 })).toBe(0);
  });
});

describe("the risk.recompute job", () => {
  it("writes today's snapshot of the organisations following the companies it recomputed, and only theirs", async () => {
    const customer = await makeOrg("Snapshot Job Customer AS", "customer");
    const bystander = await makeOrg("Snapshot Job Bystander AS", "customer");
    const companyId = await company("987600099", "Snapshot Job Supplier AS");
    const supplier = await makeOrg("Snapshot Job Supplier AS", "supplier", "987600099");
    const unrelated = await makeOrg("Snapshot Job Unrelated AS", "supplier");
    await follow(customer, supplier);
    await follow(bystander, unrelated);
    await db()
      .insertInto("financial_statements")
      .values({ company_id: companyId, financial_year: 2024, financial_risk_score: JSON.stringify({ finalScore: 80 }), updated_at: AT })
      .execute();
    const ctx = {
      job: { id: 1, type: RISK_RECOMPUTE_JOB, organizationId: null, userId: null, payload: { companyIds: [companyId] }, attempt: 1 },
      progress: async () => {},
      signal: new AbortController().signal,
      finish: async <R>(write: (trx: never) => Promise<R>) => write(undefined as never),
    } as unknown as JobContext<unknown>;
    await riskRecomputeJob(ctx);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Oslo" }).format(new Date());
    expect(await rows(customer)).toEqual([{ day: today, tag_id: 0, band: "red", is_priority: 0, is_due_diligence: 0, count: 1 }]);
    expect(await rows(bystander)).toEqual([]);
  });
});
