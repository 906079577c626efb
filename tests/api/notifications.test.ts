import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { action as listAction, loader as list } from "~/routes/api.notifications._index";
import { loader as byOrg } from "~/routes/api.notifications.byOrg.search";
import { countNotifications, dismiss, listNotifications, lookbackStart, markRead, restore, unreadCount } from "~/models/notifications/notification-list.server";
import { company, follow, makeOrg, request, signedIn } from "../helpers/fixtures";
import { call, form } from "../helpers/requests";

/**
 * GET /api/notifications (shared/spec/01-shell-chat-lei.md §7, §9) and the list model behind the bell, the panel and /notifications:
 * only the organisation's followed suppliers, never another organisation's news hits, dismissed ones left out, the
 * spec's defaults, limit and offset, and a clear 400 for every bad parameter.
 */

const w = {} as {
  orgA: number;
  orgB: number;
  analystA: { token: string; id: number };
  analystA2: { token: string; id: number };
  analystB: string;
  viewerA: string;
  respondent: string;
  s1: number;
  s3: number;
  n: Record<string, number>;
};

const day = (daysAgo: number) => lookbackStart(daysAgo);

async function userId(email: string): Promise<number> {
  return (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
}

async function notification(
  companyId: number,
  key: string,
  values: { daysAgo: number; risk: number; type?: "announcement" | "search"; organizationId?: number },
) {
  const row = await db()
    .insertInto("risk_notifications")
    .values({
      company_id: companyId,
      type: values.type ?? "announcement",
      date: day(values.daysAgo),
      created_at: new Date().toISOString(),
      risk_score: values.risk,
      relevance_score: 80,
      title: `Title ${key}`,
      title_no: `Tittel ${key}`,
      source: "Test",
      url: `https://example.test/${key}`,
      description: `Description ${key}`,
      organization_id: values.organizationId ?? null,
      dedupe_key: `test:${key}`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  w.n[key] = row.id;
}

beforeAll(async () => {
  w.n = {};
  w.orgA = await makeOrg("Notif Customer A AS", "customer");
  w.orgB = await makeOrg("Notif Customer B AS", "customer");
  const supplier1 = await makeOrg("Followed One AS", "supplier", "960000001");
  const supplier2 = await makeOrg("Followed Two AS", "supplier", "960000002");
  const supplier3 = await makeOrg("Only B Follows AS", "supplier", "960000003");
  const unfollowed = await makeOrg("Unfollowed AS", "supplier", "960000004");
  w.s1 = await company("960000001", "Followed One AS");
  const c2 = await company("960000002", "Followed Two AS");
  w.s3 = await company("960000003", "Only B Follows AS");
  const c4 = await company("960000004", "Unfollowed AS");
  await follow(w.orgA, supplier1);
  await follow(w.orgA, supplier2);
  await follow(w.orgB, supplier1);
  await follow(w.orgB, supplier3);
  await follow(w.orgA, unfollowed, 1); // an ended connection

  w.analystA = { token: await signedIn("a1@notif.test", w.orgA, 2), id: await userId("a1@notif.test") };
  w.analystA2 = { token: await signedIn("a2@notif.test", w.orgA, 3), id: await userId("a2@notif.test") };
  w.analystB = await signedIn("b@notif.test", w.orgB, 2);
  w.viewerA = await signedIn("viewer@notif.test", w.orgA, 1);
  w.respondent = await signedIn("resp@notif.test", supplier1, 2);
  await db().updateTable("users").set({ language: "no" }).where("email", "=", "a2@notif.test").execute();

  // 30 recent, risky ones on supplier 1 (for paging), newest first by date.
  for (let i = 0; i < 30; i++) await notification(w.s1, `page${i}`, { daysAgo: i % 20, risk: 60 + (i % 40) });
  await notification(c2, "low", { daysAgo: 2, risk: 10 });
  await notification(c2, "old", { daysAgo: 45, risk: 90 });
  await notification(c2, "news", { daysAgo: 1, risk: 70, type: "search" });
  await notification(w.s1, "bNews", { daysAgo: 1, risk: 95, type: "search", organizationId: w.orgB });
  await notification(w.s1, "aNews", { daysAgo: 1, risk: 95, type: "search", organizationId: w.orgA });
  await notification(w.s3, "onlyB", { daysAgo: 1, risk: 95 });
  await notification(c4, "unfollowed", { daysAgo: 1, risk: 95 });
});

async function get(token: string, query = "") {
  const response = await request(list, `/api/notifications${query}`, {}, token);
  return { status: response.status, body: (await response.json()) as { data?: Array<{ id: number; [k: string]: unknown }>; message?: string } };
}

const ids = (body: { data?: Array<{ id: number }> }) => (body.data ?? []).map((n) => n.id);

describe("GET /api/notifications", () => {
  it("answers the spec's defaults: risk ≥ 50, 30 days, all types, 25 newest first, in the spec's shape", async () => {
    const { status, body } = await get(w.analystA.token);
    expect(status).toBe(200);
    expect(body.data).toHaveLength(25);
    const first = body.data![0];
    expect(Object.keys(first).sort()).toEqual(["content", "createdAt", "date", "id", "organization", "relevance_score", "risk_score", "type"]);
    expect(first.organization).toMatchObject({ id: expect.any(String), organization_name: expect.any(String) });
    expect(first.content).toMatchObject({ type: first.type, title: expect.stringMatching(/^Title /), risk: { description: expect.any(String) } });
    const dates = body.data!.map((n) => n.date as string);
    expect([...dates].sort().reverse()).toEqual(dates);
    for (const n of body.data!) expect(n.risk_score as number).toBeGreaterThanOrEqual(50);
  });

  it("pages with limit and offset: the next page continues where the first stopped, nothing twice", async () => {
    const all = ids((await get(w.analystA.token, "?limit=100")).body);
    expect(all).toHaveLength(32); // 30 paging ones + supplier 2's news + A's own news hit
    const first = ids((await get(w.analystA.token, "?limit=10")).body);
    const second = ids((await get(w.analystA.token, "?limit=10&offset=10")).body);
    expect([...first, ...second]).toEqual(all.slice(0, 20));
    expect(ids((await get(w.analystA.token, "?offset=32")).body)).toEqual([]);
  });

  it("caps a larger limit at 100 instead of refusing it", async () => {
    const { status, body } = await get(w.analystA.token, "?limit=1000&minRiskScore=0&lookbackDays=365");
    expect(status).toBe(200);
    expect(body.data!.length).toBeLessThanOrEqual(100);
    expect(body.data!.length).toBe(ids((await get(w.analystA.token, "?limit=100&minRiskScore=0&lookbackDays=365")).body).length);
  });

  it("filters by minimum risk score, lookback days and type", async () => {
    const low = ids((await get(w.analystA.token, "?minRiskScore=0&limit=100")).body);
    expect(low).toContain(w.n.low);
    expect(ids((await get(w.analystA.token, "?limit=100")).body)).not.toContain(w.n.low);
    expect(ids((await get(w.analystA.token, "?lookbackDays=60&limit=100")).body)).toContain(w.n.old);
    expect(ids((await get(w.analystA.token, "?limit=100")).body)).not.toContain(w.n.old);
    const news = (await get(w.analystA.token, "?type=search&limit=100")).body.data!;
    expect(news.map((n) => n.id).sort()).toEqual([w.n.news, w.n.aNews].sort());
    const registry = (await get(w.analystA.token, "?type=announcement&limit=100")).body.data!;
    expect(registry.every((n) => n.type === "announcement")).toBe(true);
    // Empty values are the defaults (a GET form sends them).
    expect((await get(w.analystA.token, "?minRiskScore=&lookbackDays=&type=&limit=&offset=")).body.data).toHaveLength(25);
  });

  it("never shows another organisation's news hits, its suppliers, unfollowed ones; each organisation sees its own", async () => {
    const a = ids((await get(w.analystA.token, "?limit=100&minRiskScore=0&lookbackDays=365")).body);
    expect(a).toContain(w.n.aNews);
    for (const key of ["bNews", "onlyB", "unfollowed"]) expect(a).not.toContain(w.n[key]);
    const b = ids((await get(w.analystB, "?limit=100")).body);
    expect(b).toEqual(expect.arrayContaining([w.n.bNews, w.n.onlyB]));
    expect(b).not.toContain(w.n.aNews);
    expect(b).not.toContain(w.n.news);
  });

  it("answers in the user's language", async () => {
    const response = await request(list, "/api/notifications?limit=1", {}, w.analystA2.token);
    const body = (await response.json()) as { data: Array<{ content: { title: string } }> };
    expect(body.data[0].content.title).toMatch(/^Tittel /);
  });

  it.each([
    ["minRiskScore=abc", "minRiskScore must be a whole number from 0 to 100"],
    ["minRiskScore=101", "minRiskScore must be a whole number from 0 to 100"],
    ["minRiskScore=-1", "minRiskScore must be a whole number from 0 to 100"],
    ["lookbackDays=1.5", "lookbackDays must be a whole number from 0 to 3650"],
    ["type=everything", "type must be all, announcement or search"],
    ["limit=0", "limit must be a whole number of at least 1"],
    ["limit=ten", "limit must be a whole number of at least 1"],
    ["offset=-5", "offset must be a whole number from 0 to 10000"],
    ["offset=99999999999999999999", "offset must be a whole number from 0 to 10000"],
  ])("400 for %s, naming the parameter", async (query, message) => {
    const { status, body } = await get(w.analystA.token, `?${query}`);
    expect(status).toBe(400);
    expect(body.message).toContain(message);
  });

  it("is for level 2 members of customer organisations: 401 for a visitor, 403 below level 2 and for a supplier respondent", async () => {
    expect((await request(list, "/api/notifications")).status).toBe(401);
    expect((await get(w.viewerA)).status).toBe(403);
    expect((await get(w.respondent)).status).toBe(403);
  });

  it("is GET only", async () => {
    const response = await call(listAction, { request: form("/api/notifications", {}), params: {}, context: {} });
    expect(response.status).toBe(405);
  });
});

describe("read, dismissed, counts", () => {
  const viewer = () => ({ userId: w.analystA.id, organizationId: w.orgA, language: "en" as const });
  const colleague = () => ({ userId: w.analystA2.id, organizationId: w.orgA, language: "en" as const });

  it("read is per user; the unread count follows; ids the organisation cannot see are ignored", async () => {
    const before = await unreadCount(viewer());
    expect(before).toBe(32);
    expect(await markRead(viewer(), [w.n.page0, w.n.page1, w.n.onlyB, w.n.bNews], true, new Date().toISOString())).toBe(2);
    expect(await unreadCount(viewer())).toBe(30);
    expect(await unreadCount(colleague())).toBe(32);
    const [page0] = (await listNotifications(viewer(), { read: "read" }, { limit: 100 })).filter((n) => n.id === w.n.page0);
    expect(page0.read).toBe(true);
    expect((await listNotifications(viewer(), { read: "unread" }, { limit: 100 })).map((n) => n.id)).not.toContain(w.n.page0);
    await markRead(viewer(), [w.n.page1], false, new Date().toISOString());
    expect(await unreadCount(viewer())).toBe(31);
  });

  it("dismissed is for the whole organisation, with its reason; it leaves the lists and the supplier's reputation, and can be restored", async () => {
    expect(await dismiss(viewer(), [w.n.page2, w.n.onlyB], "Not relevant: old news", new Date().toISOString())).toBe(1);
    expect(ids((await get(w.analystA2.token, "?limit=100")).body)).not.toContain(w.n.page2);
    const dismissed = await listNotifications(colleague(), { status: "dismissed" }, { limit: 100 });
    expect(dismissed.map((n) => [n.id, n.dismissed?.reason])).toEqual([[w.n.page2, "Not relevant: old news"]]);
    expect(await countNotifications(colleague(), { status: "dismissed" })).toBe(1);
    // Organisation B still sees it (it follows supplier 1 too).
    expect(ids((await get(w.analystB, "?limit=100")).body)).toContain(w.n.page2);
    // The per-company call follows the same rules.
    const reputation = await request(byOrg, "/api/notifications/byOrg/search?organizationId=960000001&minRiskScore=0", {}, w.analystA.token);
    const companyIds = ids((await reputation.json()) as { data: Array<{ id: number }> });
    expect(companyIds).not.toContain(w.n.page2);
    expect(companyIds).not.toContain(w.n.bNews);
    expect(companyIds).toContain(w.n.aNews);
    expect(await restore(viewer(), [w.n.page2])).toBe(1);
    expect(ids((await get(w.analystA.token, "?limit=100")).body)).toContain(w.n.page2);
  });

  it("filters by supplier and by tag", async () => {
    const onlyTwo = await listNotifications(viewer(), { supplier: "960000002", minRiskScore: 0, lookbackDays: 365 }, { limit: 100 });
    expect(onlyTwo.map((n) => n.organization.id)).toEqual(expect.arrayContaining(["960000002"]));
    expect(new Set(onlyTwo.map((n) => n.organization.id))).toEqual(new Set(["960000002"]));
    const tag = await db()
      .insertInto("organization_tags")
      .values({ organization_id: w.orgA, title: "Critical", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const connection = await db()
      .selectFrom("organization_connections")
      .innerJoin("organizations", "organizations.id", "organization_connections.child_organization_id")
      .select("organization_connections.id")
      .where("parent_organization_id", "=", w.orgA)
      .where("organizations.org_number", "=", "960000001")
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("organization_connection_tags")
      .values({ connection_id: connection.id, tag_id: tag.id, created_at: new Date().toISOString() })
      .execute();
    const tagged = await listNotifications(viewer(), { tagId: tag.id }, { limit: 100 });
    expect(tagged.length).toBeGreaterThan(0);
    expect(new Set(tagged.map((n) => n.organization.id))).toEqual(new Set(["960000001"]));
  });

  it("names the followed supplier organisation as the link's localId", async () => {
    const [first] = await listNotifications(viewer(), { supplier: "960000001" }, { limit: 1 });
    const supplier = await db().selectFrom("organizations").select("id").where("org_number", "=", "960000001").executeTakeFirstOrThrow();
    expect(first.organization.local_organization_id).toBe(supplier.id);
  });
});
