import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { BELL_COUNT_CAP, countNotifications, DENSE_FOLLOWING, listNotifications, unreadCount } from "~/models/notifications/notification-list.server";
import { makeOrg, signedIn } from "./helpers/fixtures";
import { createConnections, createOrganizations } from "./helpers/factory";

/**
 * An organisation that follows thousands of companies (10 000 connections): its lists walk the date index
 * instead of one index range per company (DENSE_FOLLOWING). The rows and their order must be exactly those of the other
 * plan — checked against a plain query — and the bell stops counting at BELL_COUNT_CAP.
 */

const AT = new Date().toISOString();
const today = AT.slice(0, 10);
const w = {} as { dense: number; sparse: number; denseUser: number; sparseUser: number; other: number };

beforeAll(async () => {
  w.dense = await makeOrg("Dense Follower AS", "customer");
  w.sparse = await makeOrg("Sparse Follower AS", "customer");
  w.other = await makeOrg("Other Feed AS", "customer");
  await signedIn("dense@example.test", w.dense, 2);
  await signedIn("sparse@example.test", w.sparse, 2);
  w.denseUser = (await db().selectFrom("users").select("id").where("email", "=", "dense@example.test").executeTakeFirstOrThrow()).id;
  w.sparseUser = (await db().selectFrom("users").select("id").where("email", "=", "sparse@example.test").executeTakeFirstOrThrow()).id;
  const companies = await db()
    .insertInto("companies")
    .values(
      Array.from({ length: DENSE_FOLLOWING + 50 }, (_, i) => ({
        org_number: String(940000000 + i),
        legal_name: `Dense Co ${i}`,
        country_code: "NO",
        source: "seed",
        updated_at: AT,
      })),
    )
    .returning(["id", "org_number"])
    .execute();
  const suppliers = await createOrganizations(
    companies.map((c) => ({ name: `Dense Co ${c.org_number}`, kind: "supplier" as const, orgNumber: c.org_number, createdAt: AT })),
  );
  // The dense organisation follows all but the last 50; the sparse one follows 20 of them and 10 of the last 50.
  await createConnections(suppliers.slice(0, DENSE_FOLLOWING).map((s) => ({ parent: w.dense, child: s, createdAt: AT })));
  await createConnections(
    [...suppliers.slice(0, 20), ...suppliers.slice(DENSE_FOLLOWING, DENSE_FOLLOWING + 10)].map((s) => ({ parent: w.sparse, child: s, createdAt: AT })),
  );
  // 3 notifications per company over 20 days, every risk; a tenth are another organisation's news (never visible).
  const rows = companies.flatMap((c, i) =>
    [0, 1, 2].map((k) => ({
      company_id: c.id,
      type: "announcement" as const,
      date: new Date(Date.parse(`${today}T00:00:00Z`) - ((i * 3 + k) % 20) * 86_400_000).toISOString().slice(0, 10),
      created_at: AT,
      risk_score: (i * 7 + k * 31) % 101,
      relevance_score: 50,
      title: `Dense event ${i}-${k}`,
      source: "Test",
      url: null,
      organization_id: (i + k) % 10 === 0 ? w.other : null,
    })),
  );
  for (let i = 0; i < rows.length; i += 300)
    await db()
      .insertInto("risk_notifications")
      .values(rows.slice(i, i + 300))
      .execute();
});

/** The expected rows by a plain query: visible to the organisation, risk ≥ 50, in 30 days, newest first. */
async function expected(organizationId: number, limit: number, offset: number): Promise<number[]> {
  const rows = await db()
    .selectFrom("risk_notifications as n")
    .innerJoin("companies as c", "c.id", "n.company_id")
    .innerJoin("organizations as s", "s.org_number", "c.org_number")
    .innerJoin("organization_connections as oc", "oc.child_organization_id", "s.id")
    .select("n.id")
    .where("oc.parent_organization_id", "=", organizationId)
    .where("oc.is_deleted", "=", 0)
    .where("n.risk_score", ">=", 50)
    .where((eb) => eb.or([eb("n.organization_id", "is", null), eb("n.organization_id", "=", organizationId)]))
    .orderBy("n.date", "desc")
    .orderBy("n.id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => r.id);
}

describe("notification lists of an organisation that follows thousands of companies", () => {
  it("gives exactly the rows and order of a plain query, first page and far down", async () => {
    const viewer = { userId: w.denseUser, organizationId: w.dense, language: "en" as const };
    for (const [limit, offset] of [
      [5, 0],
      [25, 0],
      [25, 400],
    ]) {
      const got = (await listNotifications(viewer, { minRiskScore: 50, lookbackDays: 30 }, { limit, offset })).map((n) => n.id);
      expect(got).toEqual(await expected(w.dense, limit, offset));
      expect(got.length).toBe(limit);
    }
  });

  it("gives a short list its own companies' rows only", async () => {
    const viewer = { userId: w.sparseUser, organizationId: w.sparse, language: "en" as const };
    const got = (await listNotifications(viewer, { minRiskScore: 50, lookbackDays: 30 }, { limit: 25 })).map((n) => n.id);
    expect(got).toEqual(await expected(w.sparse, 25, 0));
  });

  it("counts the bell up to its cap, and the list's total in full", async () => {
    const viewer = { userId: w.denseUser, organizationId: w.dense, language: "en" as const };
    const total = await countNotifications(viewer, { read: "unread" });
    expect(total).toBeGreaterThan(BELL_COUNT_CAP);
    expect(await unreadCount(viewer)).toBe(BELL_COUNT_CAP);
    const sparse = { userId: w.sparseUser, organizationId: w.sparse, language: "en" as const };
    const sparseTotal = await countNotifications(sparse, { read: "unread" });
    expect(sparseTotal).toBeLessThan(BELL_COUNT_CAP);
    expect(await unreadCount(sparse)).toBe(sparseTotal);
  });
});
