import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { lookbackStart } from "~/models/notifications/notification-list.server";
import { action, loader } from "~/routes/_app.notifications/route";
import { loader as csvLoader } from "~/routes/notifications[.]csv";
import { loader as appLoader } from "~/routes/_app";
import type { NotificationsPanelData } from "~/models/notifications/notifications-panel.server";
import { company, follow, makeOrg, request, signedIn } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";

/**
 * /notifications: the list with its filters, read/unread, mark all read, dismiss with a reason, restore,
 * the CSV export, and the notifications panel as the layout renders it from the URL (without JavaScript) — each tried
 * from the wrong side too (a viewer, a respondent, another organisation's ids).
 */

const w = {} as {
  org: number;
  other: number;
  analyst: string;
  analystId: number;
  viewer: string;
  otherAnalyst: string;
  respondent: string;
  ids: number[];
  otherId: number;
  formulaId: number;
};

function post(fields: Record<string, string>, token: string, path = "/notifications"): Request {
  return new Request(BASE + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, Cookie: `token=${token}` },
  });
}

async function runAction(fields: Record<string, string>, token: string) {
  const response = await call(action, { request: post(fields, token), params: {}, context: {} });
  const body = response.headers.get("Content-Type")?.includes("json") ? await response.json() : null;
  return { status: response.status, location: response.headers.get("Location"), body };
}

async function page(query: string, token = w.analyst) {
  const response = await call(loader, { request: get(`/notifications${query}`, { Cookie: `token=${token}` }), params: {}, context: {} });
  return { status: response.status, body: response.status < 300 ? await response.json() : null };
}

beforeAll(async () => {
  w.org = await makeOrg("Page Customer AS", "customer");
  w.other = await makeOrg("Page Other AS", "customer");
  const supplier = await makeOrg("Page Supplier AS", "supplier", "970000001");
  const otherSupplier = await makeOrg("Other Supplier AS", "supplier", "970000002");
  const c1 = await company("970000001", "Page Supplier AS");
  const c2 = await company("970000002", "Other Supplier AS");
  await follow(w.org, supplier);
  await follow(w.other, otherSupplier);
  w.analyst = await signedIn("analyst@page.test", w.org, 2);
  w.analystId = (await db().selectFrom("users").select("id").where("email", "=", "analyst@page.test").executeTakeFirstOrThrow()).id;
  w.viewer = await signedIn("viewer@page.test", w.org, 1);
  w.otherAnalyst = await signedIn("analyst@other-page.test", w.other, 2);
  w.respondent = await signedIn("resp@page.test", supplier, 2);
  w.ids = [];
  const insert = async (companyId: number, i: number, title = `Event ${i}`) =>
    (
      await db()
        .insertInto("risk_notifications")
        .values({
          company_id: companyId,
          type: i % 2 ? "search" : "announcement",
          date: lookbackStart(i % 25),
          created_at: new Date().toISOString(),
          risk_score: 50 + (i % 50),
          relevance_score: 70,
          title,
          source: "Test",
          url: "https://example.test/a",
          dedupe_key: `page:${companyId}:${i}`,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  for (let i = 0; i < 30; i++) w.ids.push(await insert(c1, i));
  w.formulaId = await insert(c1, 99, '=HYPERLINK("http://evil.test")');
  w.otherId = await insert(c2, 100);
});

describe("the list", () => {
  it("pages 25 at a time with the count, newest first; another organisation's notifications never show", async () => {
    const first = await page("");
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(31);
    expect(first.body.items).toHaveLength(25);
    expect(first.body.pageCount).toBe(2);
    const second = await page("?page=2");
    expect(second.body.items).toHaveLength(6);
    const all = [...first.body.items, ...second.body.items].map((n: { id: number }) => n.id);
    expect(new Set(all).size).toBe(31);
    expect(all).not.toContain(w.otherId);
  });

  it("a bad filter is a 400 that names the field and keeps what was typed; a bad page is page 1", async () => {
    const bad = await call(loader, { request: get("/notifications?minRiskScore=lots&type=search", { Cookie: `token=${w.analyst}` }), params: {}, context: {} });
    expect(bad.status).toBe(400);
    const body = await bad.json();
    expect(body.error).toBe("minRiskScore");
    expect(body.raw).toMatchObject({ minRiskScore: "lots", type: "search" });
    expect((await page("?page=abc")).body.page).toBe(1);
    expect((await page("?page=999")).body.page).toBe(2);
  });

  it("is for level 2 members of customer organisations", async () => {
    expect((await page("", w.viewer)).status).toBe(403);
    expect((await page("", w.respondent)).status).toBe(403);
  });
});

describe("changes", () => {
  it("marks one read and unread (per user), and all the filtered ones read", async () => {
    const id = w.ids[0];
    const read = await runAction({ intent: "read", id: String(id), read: "1", redirectTo: "/notifications?read=unread" }, w.analyst);
    expect([read.status, read.location]).toEqual([302, "/notifications?read=unread"]);
    expect((await page("?read=read")).body.items.map((n: { id: number }) => n.id)).toEqual([id]);
    expect((await runAction({ intent: "read", id: String(id), read: "0" }, w.analyst)).body.result.status).toBe("success");
    expect((await page("?read=read")).body.total).toBe(0);
    const all = await runAction(
      { intent: "read-all", minRiskScore: "90", lookbackDays: "", type: "", supplier: "", tag: "", read: "", status: "", redirectTo: "/notifications" },
      w.analyst,
    );
    expect(all.status).toBe(302);
    const readNow = (await page("?read=read")).body.items as Array<{ risk_score: number }>;
    expect(readNow.length).toBeGreaterThan(0);
    expect(readNow.every((n) => n.risk_score >= 90)).toBe(true);
  });

  it("dismisses with a reason (required, at most 500 characters), shows it among the dismissed, and restores", async () => {
    const id = w.ids[1];
    const blank = await runAction({ intent: "dismiss", id: String(id), reason: "   " }, w.analyst);
    expect(blank.status).toBe(400);
    expect(blank.body.result.error.reason).toEqual(["Write a reason for dismissing this notification."]);
    const long = await runAction({ intent: "dismiss", id: String(id), reason: "x".repeat(501) }, w.analyst);
    expect(long.body.result.error.reason).toEqual(["Keep the reason under 500 characters."]);
    const done = await runAction({ intent: "dismiss", id: String(id), reason: "Already handled", redirectTo: "/notifications" }, w.analyst);
    expect(done.status).toBe(302);
    expect((await page("")).body.items.map((n: { id: number }) => n.id)).not.toContain(id);
    const dismissed = (await page("?status=dismissed")).body.items;
    expect(dismissed.map((n: { id: number; dismissed: { reason: string } }) => [n.id, n.dismissed.reason])).toEqual([[id, "Already handled"]]);
    expect((await runAction({ intent: "restore", id: String(id) }, w.analyst)).status).toBe(200);
    expect((await page("?status=dismissed")).body.total).toBe(0);
  });

  it("refuses another organisation's notification (404, nothing changed), a viewer (403), a bad intent (400)", async () => {
    const other = await runAction({ intent: "dismiss", id: String(w.otherId), reason: "Not ours" }, w.analyst);
    expect(other.status).toBe(404);
    expect(await db().selectFrom("notification_dismissals").selectAll().where("notification_id", "=", w.otherId).execute()).toEqual([]);
    expect((await runAction({ intent: "read", id: String(w.otherId), read: "1" }, w.analyst)).status).toBe(404);
    expect((await runAction({ intent: "read", id: String(w.ids[2]), read: "1" }, w.viewer)).status).toBe(403);
    expect((await runAction({ intent: "dismiss", id: String(w.ids[2]), reason: "x" }, w.respondent)).status).toBe(403);
    expect((await runAction({ intent: "explode" }, w.analyst)).status).toBe(400);
    expect((await runAction({ intent: "read", id: "abc", read: "1" }, w.analyst)).status).toBe(400);
  });
});

describe("GET /notifications.csv", () => {
  it("exports the filtered list in the user's language with a BOM, formulas escaped", async () => {
    const response = await request(csvLoader, "/notifications.csv?minRiskScore=50&lookbackDays=30", {}, w.analyst);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/attachment; filename="?notifications-\d{4}-\d{2}-\d{2}\.csv/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.startsWith("Date,Supplier,Organization number,Type")).toBe(true);
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(1 + 31);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(text).not.toContain("970000002");
  });

  it("400 for a bad filter, 403 below level 2", async () => {
    expect((await request(csvLoader, "/notifications.csv?type=gossip", {}, w.analyst)).status).toBe(400);
    expect((await request(csvLoader, "/notifications.csv", {}, w.viewer)).status).toBe(403);
  });
});

describe("the panel from the URL (without JavaScript)", () => {
  async function panel(query: string, token = w.analyst) {
    const response = await request(appLoader, `/suppliers?${query}`, {}, token);
    const body = (await response.json()) as { notifications: { unread: number | null; panel: NotificationsPanelData | null } };
    return body.notifications;
  }

  it("opens with the spec's defaults and the first 25; Show more renders the longer list, the offset advancing by what came", async () => {
    const first = (await panel("panel=notifications")).panel!;
    expect(first.items).toHaveLength(25);
    expect([first.offset, first.showMore]).toEqual([25, true]);
    const more = (await panel("panel=notifications&nOffset=25")).panel!;
    expect(more.items).toHaveLength(31);
    expect([more.offset, more.showMore]).toEqual([31, true]);
    const end = (await panel("panel=notifications&nOffset=31")).panel!;
    expect([end.items.length, end.offset]).toEqual([31, 31]);
  });

  it("applies its filters, says which one is wrong, and ignores a hand-made offset", async () => {
    const news = (await panel("panel=notifications&nType=search&nMin=90")).panel!;
    expect(news.items.every((n) => n.type === "search" && n.risk_score >= 90)).toBe(true);
    expect((await panel("panel=notifications&nMin=abc")).panel!.error?.field).toBe("minRiskScore");
    expect((await panel("panel=notifications&nOffset=-3")).panel!.items).toHaveLength(25);
  });

  it("counts the unread for the bell; a viewer gets no count and a panel that says why", async () => {
    expect((await panel("")).unread).toBeGreaterThan(0);
    const viewer = await panel("panel=notifications", w.viewer);
    expect(viewer.unread).toBeNull();
    expect(viewer.panel).toMatchObject({ allowed: false, items: [] });
  });
});
