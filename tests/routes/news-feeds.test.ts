import http from "node:http";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { action, loader } from "~/routes/_app.notifications_.feeds/route";
import { loader as demoFeedLoader } from "~/routes/demo-feeds.$file";
import { company, follow, makeOrg, signedIn } from "../helpers/fixtures";
import { listenOnLoopback } from "../helpers/loopback";
import { BASE, call, get } from "../helpers/requests";

/**
 * /notifications/feeds against a real SQLite file: the permission from the wrong side (level 2, another organisation,
 * a supplier respondent, a visitor), 400s for bad URLs with the message, add, disable/enable, remove, 'Check now'; and
 * the public demo-feeds route, which serves only seeded demo feeds.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as { orgA: number; orgB: number; admin: string; analyst: string; adminB: string; respondent: string; base: string; close: () => Promise<void> };

function post(fields: Record<string, string>, token?: string, path = "/notifications/feeds"): Request {
  return new Request(BASE + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...(token ? { Cookie: `token=${token}` } : {}) },
  });
}
const run = (fn: Fn, request: Request, params: Record<string, string> = {}) => call(fn, { request, params, context: {} });
const page = (token?: string, query = "") => run(loader, get(`/notifications/feeds${query}`, token ? { Cookie: `token=${token}` } : {}));
const feedsOf = (organizationId: number) => db().selectFrom("news_feeds").selectAll().where("organization_id", "=", organizationId).orderBy("id").execute();
const errorsOf = async (res: Response) => ((await res.json()) as { result: { error: Record<string, string[]> } }).result.error;

beforeAll(async () => {
  w.orgA = await makeOrg("Feeds Customer A", "customer");
  w.orgB = await makeOrg("Feeds Customer B", "customer");
  const supplier = await makeOrg("Feedvik Eltera AS", "supplier", "977665544");
  await company("977665544", "Feedvik Eltera AS");
  await follow(w.orgA, supplier);
  w.admin = await signedIn("admin@feeds.test", w.orgA, 3);
  w.analyst = await signedIn("analyst@feeds.test", w.orgA, 2);
  w.adminB = await signedIn("admin-b@feeds.test", w.orgB, 3);
  w.respondent = await signedIn("respondent@feeds.test", supplier, 3);
  const server = http.createServer((req, res) => {
    if (req.url === "/feed.xml")
      return res
        .writeHead(200, { "Content-Type": "application/rss+xml" })
        .end(
          `<rss version="2.0"><channel><title>Route Fixture</title><item><guid>r1</guid><title>Feedvik Eltera AS under etterforskning for korrupsjon</title></item><item><guid>r2</guid><title>Weather</title></item><item>x</item></channel></rss>`,
        );
    res.writeHead(404).end();
  });
  ({ baseUrl: w.base, close: w.close } = await listenOnLoopback(server));
});

afterAll(() => w.close());

describe("who may manage news feeds", () => {
  it("the organisation's administrator sees the page; level 2, a respondent and another organisation's data do not", async () => {
    expect((await page(w.admin)).status).toBe(200);
    expect((await page(w.analyst)).status).toBe(403);
    expect((await page(w.respondent)).status).toBe(403);
    const visitor = await page();
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
  });

  it("refuses every change from level 2, a respondent and a visitor, and changes nothing", async () => {
    const before = await db().selectFrom("news_feeds").selectAll().execute();
    for (const token of [w.analyst, w.respondent])
      expect((await run(action, post({ intent: "add", url: "https://news.example.com/rss" }, token))).status).toBe(403);
    expect((await run(action, post({ intent: "add", url: "https://news.example.com/rss" }))).status).toBe(302);
    expect(await db().selectFrom("news_feeds").selectAll().execute()).toEqual(before);
  });
});

describe("adding a feed", () => {
  it.each([
    ["", "Enter the feed's address."],
    ["not a url", "This is not a web address. Enter the full address of the feed, for example https://www.example.com/rss.xml."],
    ["ftp://news.example.com/rss", "Enter an address that starts with http:// or https://."],
    ["javascript:alert(1)", "Enter an address that starts with http:// or https://."],
    ["https://user:secret@news.example.com/rss", "Remove the user name and password from the address: feeds that need a sign-in cannot be read."],
  ])("refuses %j with a 400 and the message", async (url, message) => {
    const res = await run(action, post({ intent: "add", url }, w.admin));
    expect(res.status).toBe(400);
    expect((await errorsOf(res)).url).toEqual([message]);
    expect(await feedsOf(w.orgA)).toEqual([]);
  });

  it("refuses a loopback or private address in production", async () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      for (const url of ["http://127.0.0.1:8080/feed.xml", "http://localhost/feed", "http://169.254.169.254/latest", "http://[::1]/x"]) {
        const res = await run(action, post({ intent: "add", url }, w.admin));
        expect(res.status).toBe(400);
        expect((await errorsOf(res)).url).toEqual([
          "This address points to a local or private network, which the monitor may not read. Enter the feed's public address.",
        ]);
      }
    } finally {
      process.env.NODE_ENV = previous;
    }
    expect(await feedsOf(w.orgA)).toEqual([]);
  });

  it("adds a feed for the user's own organisation, once", async () => {
    const res = await run(action, post({ intent: "add", url: `${w.base}/feed.xml`, title: "" }, w.admin));
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/notifications/feeds"]);
    const [feed] = await feedsOf(w.orgA);
    expect(feed).toMatchObject({ url: `${w.base}/feed.xml`, title: null, is_enabled: 1, last_status: null });
    const again = await run(action, post({ intent: "add", url: `${w.base}/feed.xml` }, w.admin));
    expect(again.status).toBe(409);
    expect((await errorsOf(again)).url).toEqual(["Your organization already has this feed."]);
    // Another organisation may follow the same feed; it does not see A's.
    expect((await run(action, post({ intent: "add", url: `${w.base}/feed.xml`, title: "B's copy" }, w.adminB))).status).toBe(302);
    const pageB = (await (await page(w.adminB)).json()) as { feeds: Array<{ title: string }> };
    expect(pageB.feeds.map((f) => f.title)).toEqual(["B's copy"]);
  });
});

describe("changing a feed", () => {
  it("disables and enables it", async () => {
    const [feed] = await feedsOf(w.orgA);
    expect((await run(action, post({ intent: "disable", id: String(feed!.id) }, w.admin))).status).toBe(302);
    expect((await feedsOf(w.orgA))[0]!.is_enabled).toBe(0);
    expect((await run(action, post({ intent: "enable", id: String(feed!.id) }, w.admin))).status).toBe(302);
    expect((await feedsOf(w.orgA))[0]!.is_enabled).toBe(1);
  });

  it("'Check now' reads it at once and says how many items and matches", async () => {
    const [feed] = await feedsOf(w.orgA);
    const res = await run(action, post({ intent: "check", id: String(feed!.id) }, w.admin));
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location).toBe(`/notifications/feeds?checked=${feed!.id}&status=ok&items=2&skipped=1&matches=1&raised=1`);
    const data = (await (await page(w.admin, location.slice(location.indexOf("?")))).json()) as {
      checked: unknown;
      feeds: Array<{ title: string; lastStatus: string }>;
    };
    expect(data.checked).toEqual({ feed: "Route Fixture", failed: false, error: null, items: 2, skipped: 1, matches: 1, raised: 1 });
    expect(data.feeds[0]).toMatchObject({ title: "Route Fixture", lastStatus: "ok" });
    const raised = await db().selectFrom("risk_notifications").select(["organization_id", "type", "title"]).where("kind", "=", "news").execute();
    expect(raised).toEqual([{ organization_id: w.orgA, type: "search", title: "Feedvik Eltera AS under etterforskning for korrupsjon" }]);
  });

  it("another organisation's feed: 404 for every change, nothing changed, and no confirmation step", async () => {
    const [feed] = await feedsOf(w.orgA);
    const before = await feedsOf(w.orgA);
    for (const intent of ["disable", "remove", "check"]) {
      const res = await run(action, post({ intent, id: String(feed!.id) }, w.adminB));
      expect(res.status).toBe(404);
      expect((await errorsOf(res))[""]).toEqual(["This feed no longer exists. Reload the page."]);
    }
    expect(await feedsOf(w.orgA)).toEqual(before);
    const data = (await (await page(w.adminB, `?remove=${feed!.id}`)).json()) as { confirm: unknown };
    expect(data.confirm).toBeNull();
  });

  it("refuses an unknown intent and a malformed id with a 400", async () => {
    expect((await run(action, post({ intent: "explode", id: "1" }, w.admin))).status).toBe(400);
    expect((await run(action, post({ intent: "remove", id: "1e3" }, w.admin))).status).toBe(400);
  });

  it("removes it after the confirmation step", async () => {
    const [feed] = await feedsOf(w.orgA);
    const step = (await (await page(w.admin, `?remove=${feed!.id}`)).json()) as { confirm: { id: number } };
    expect(step.confirm.id).toBe(feed!.id);
    const res = await run(
      action,
      post({ intent: "remove", id: String(feed!.id), redirectTo: "/notifications/feeds" }, w.admin, `/notifications/feeds?remove=${feed!.id}`),
    );
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/notifications/feeds"]);
    expect(await feedsOf(w.orgA)).toEqual([]);
    // The notifications it raised are kept.
    expect(await db().selectFrom("risk_notifications").select("id").where("kind", "=", "news").execute()).toHaveLength(1);
  });
});

describe("the demo feeds route", () => {
  const demo = (file: string) => run(demoFeedLoader, get(`/demo-feeds/${file}`), { file });

  it("serves a recorded demo feed only while a seeded feed names it", async () => {
    expect((await demo("naeringsliv.xml")).status).toBe(404);
    await db()
      .insertInto("news_feeds")
      .values({ organization_id: w.orgA, url: "http://localhost:3000/demo-feeds/naeringsliv.xml", created_at: "2026-11-01T00:00:00.000Z" })
      .execute();
    const res = await demo("naeringsliv.xml");
    expect([res.status, res.headers.get("Content-Type")]).toEqual([200, "application/rss+xml"]);
    expect(await res.text()).toContain("Demo Næringslivsnytt (fictional)");
  });

  it.each(["../package.json", "naeringsliv.XML", "unknown.xml", "%2e%2e%2fsecret.xml"])("refuses %s", async (file) => {
    expect((await demo(file)).status).toBe(404);
  });
});
