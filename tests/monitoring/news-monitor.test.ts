import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { enqueueJob } from "@server/jobs/queue";
import { startWorker } from "@server/jobs/worker";
import { checkFeed, runNewsMonitor } from "@server/monitoring/news/monitor";
import { monitorNews } from "~/models/notifications/monitor-news-job.server";
import { company, follow, makeOrg } from "../helpers/fixtures";
import { listenOnLoopback } from "../helpers/loopback";

/**
 * The news monitor job: two runs raise each notification once; a dismissed one is not raised again; only the feed's
 * organisation's followed suppliers are matched and only that organisation owns the notification; a run cut short
 * resumes without duplicates; a feed that fails is recorded and does not stop the others.
 */

const rss = (items: Array<{ guid: string; title: string; description?: string }>) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Monitor Fixture News</title>${items
    .map(
      (i) =>
        `<item><guid>${i.guid}</guid><title>${i.title}</title><link>https://news.example.test/${i.guid}</link><pubDate>Mon, 23 Nov 2026 08:00:00 GMT</pubDate><description>${i.description ?? ""}</description></item>`,
    )
    .join("")}</channel></rss>`;

const feeds: Record<string, string> = {
  "/a.xml": rss([
    { guid: "a1", title: "Monitorvik Eltera AS slått konkurs", description: "Bobestyrer oppnevnt." },
    { guid: "a2", title: "Fjordkraft Aneo charged with bribery", description: "Aneo is followed by another organization only." },
    { guid: "a3", title: "Neutral: the weather in Bergen", description: "Nothing about suppliers." },
  ]),
  "/b.xml": rss([{ guid: "b1", title: "Monitorvik Eltera opens a new office", description: "Good news." }]),
};
let etagHits = 0;
let gate: (() => void) | null = null;

const w = {} as {
  base: string;
  close: () => Promise<void>;
  orgA: number;
  orgB: number;
  eltera: number;
  aneo: number;
  feedA: number;
  feedA2: number;
  feedBad: number;
};

const notifications = () => db().selectFrom("risk_notifications").selectAll().where("kind", "=", "news").orderBy("id").execute();
const feedRow = (id: number) => db().selectFrom("news_feeds").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

async function addFeed(organizationId: number, url: string, enabled = 1): Promise<number> {
  const row = await db()
    .insertInto("news_feeds")
    .values({ organization_id: organizationId, url, is_enabled: enabled, created_at: "2026-11-01T00:00:00.000Z" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  const server = http.createServer(async (req, res) => {
    if (req.url === "/etag.xml") {
      etagHits++;
      if (req.headers["if-none-match"] === '"same"') return res.writeHead(304).end();
      return res.writeHead(200, { "Content-Type": "application/rss+xml", ETag: '"same"' }).end(feeds["/b.xml"]);
    }
    if (req.url === "/gate.xml" && gate) {
      // Holds the answer until the test lets it go (or never: a crash mid-run).
      await new Promise<void>((resolve) => (gate = resolve));
    }
    const body = feeds[req.url ?? ""];
    if (!body) return res.writeHead(404, { "Content-Type": "text/plain" }).end("gone");
    res.writeHead(200, { "Content-Type": "application/rss+xml" }).end(body);
  });
  const served = await listenOnLoopback(server);
  w.base = served.baseUrl;
  w.close = served.close;
  w.orgA = await makeOrg("Monitor Customer A", "customer");
  w.orgB = await makeOrg("Monitor Customer B", "customer");
  w.eltera = await company("998877661", "Monitorvik Eltera AS");
  w.aneo = await company("998877662", "Fjordkraft Aneo AS");
  const elteraSupplier = await makeOrg("Monitorvik Eltera AS", "supplier", "998877661");
  const aneoSupplier = await makeOrg("Fjordkraft Aneo AS", "supplier", "998877662");
  await follow(w.orgA, elteraSupplier);
  await follow(w.orgB, aneoSupplier);
  // A follows Aneo too, but that connection was removed: not followed.
  await follow(w.orgA, aneoSupplier, 1);
  w.feedA = await addFeed(w.orgA, `${w.base}/a.xml`);
  w.feedA2 = await addFeed(w.orgA, `${w.base}/b.xml`);
  w.feedBad = await addFeed(w.orgA, `${w.base}/missing.xml`);
  await addFeed(w.orgB, `${w.base}/disabled-b.xml`, 0);
});

afterAll(() => w.close());

describe("the news monitor", () => {
  it("raises notifications once over two runs, only for the feed's organisation's followed suppliers", async () => {
    const first = await runNewsMonitor(db());
    expect(first).toEqual({ feeds: 3, failed: 1, items: 4, raised: 2 });
    const second = await runNewsMonitor(db());
    expect(second).toEqual({ feeds: 3, failed: 1, items: 4, raised: 0 });
    const rows = await notifications();
    expect(rows.map((r) => [r.company_id, r.organization_id, r.type, r.title, r.title_no, r.source, r.date])).toEqual([
      [w.eltera, w.orgA, "search", "Monitorvik Eltera AS slått konkurs", null, "Monitor Fixture News", "2026-11-23"],
      [w.eltera, w.orgA, "search", "Monitorvik Eltera opens a new office", null, "Monitor Fixture News", "2026-11-23"],
    ]);
    // Bankruptcy news about the full legal name in the headline; neutral news scores low.
    expect(rows.map((r) => [r.risk_score, r.relevance_score])).toEqual([
      [90, 100],
      [10, 75],
    ]);
    expect(rows[0]!.dedupe_key).toMatch(new RegExp(`^news:${w.orgA}:${w.eltera}:[0-9a-f]{64}$`));
    expect(JSON.parse(rows[0]!.details!)).toMatchObject({ feedId: w.feedA, matchedBy: "legal_name", matchedIn: "title", topics: ["bankruptcy"] });
  });

  it("records each feed's status: ok with its title, or failed with the reason", async () => {
    expect(await feedRow(w.feedA)).toMatchObject({ last_status: "ok", last_error: null, title: "Monitor Fixture News" });
    expect(await feedRow(w.feedBad)).toMatchObject({ last_status: "failed", last_error: "http_status:404" });
    expect((await feedRow(w.feedBad)).last_read_at).not.toBeNull();
  });

  it("never raises a dismissed notification again", async () => {
    const [bankrupt] = await notifications();
    await db()
      .insertInto("notification_dismissals")
      .values({ organization_id: w.orgA, notification_id: bankrupt!.id, dismissed_by: null, reason: "Known", dismissed_at: "2026-11-23T10:00:00.000Z" })
      .execute();
    expect((await runNewsMonitor(db())).raised).toBe(0);
    expect(await notifications()).toHaveLength(2);
    expect(await db().selectFrom("notification_dismissals").select("notification_id").execute()).toEqual([{ notification_id: bankrupt!.id }]);
  });

  it("reads a feed conditionally: a 304 is recorded as not modified", async () => {
    const id = await addFeed(w.orgB, `${w.base}/etag.xml`);
    const feed = await feedRow(id);
    expect((await checkFeed(db(), feed)).status).toBe("ok");
    const again = await checkFeed(db(), await feedRow(id));
    expect(again).toMatchObject({ status: "not_modified", items: 0, raised: 0 });
    expect(await feedRow(id)).toMatchObject({ last_status: "not_modified", etag: '"same"' });
    // 'Check now' reads it in full, whatever the validators say.
    expect((await checkFeed(db(), await feedRow(id), { conditional: false })).status).toBe("ok");
    expect(etagHits).toBe(3);
    await db().deleteFrom("news_feeds").where("id", "=", id).execute();
  });

  it("a run cut short mid-way resumes without duplicates", async () => {
    feeds["/gate.xml"] = rss([{ guid: "g1", title: "Monitorvik Eltera AS i hvitvaskingssak" }]);
    feeds["/c.xml"] = rss([{ guid: "c1", title: "Monitorvik Eltera AS tiltalt for korrupsjon" }]);
    await db().deleteFrom("risk_notifications").where("kind", "=", "news").execute();
    await db().deleteFrom("news_feeds").execute();
    const first = await addFeed(w.orgA, `${w.base}/c.xml`);
    await addFeed(w.orgA, `${w.base}/gate.xml`);
    gate = () => {};
    const controller = new AbortController();
    const cut = runNewsMonitor(db(), { signal: controller.signal });
    // The first feed is written; the run then hangs on the second until it is stopped (a crash, a worker stopping).
    while ((await feedRow(first)).last_status !== "ok") await sleep(10);
    await sleep(50);
    controller.abort(new Error("worker stopping"));
    await expect(cut).rejects.toThrow("worker stopping");
    expect((await notifications()).map((r) => r.title)).toEqual(["Monitorvik Eltera AS tiltalt for korrupsjon"]);
    gate = null;
    expect(await runNewsMonitor(db())).toMatchObject({ feeds: 2, raised: 1 });
    expect((await notifications()).map((r) => r.title)).toEqual(["Monitorvik Eltera AS tiltalt for korrupsjon", "Monitorvik Eltera AS i hvitvaskingssak"]);
  });

  it("runs as the monitor.news job through the worker, twice, raising nothing the second time", async () => {
    await db().deleteFrom("risk_notifications").where("kind", "=", "news").execute();
    const worker = startWorker({ db: db(), handlers: { "monitor.news": monitorNews }, pollMs: 20, log: () => {} });
    try {
      const results: unknown[] = [];
      for (let run = 0; run < 2; run++) {
        const id = await enqueueJob(db(), { type: "monitor.news", organizationId: null, userId: null, payload: {} });
        for (;;) {
          const job = await db().selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
          if (job.status === "done" || job.status === "failed") {
            results.push([job.status, JSON.parse(job.result ?? "null")]);
            break;
          }
          await sleep(20);
        }
      }
      expect(results).toEqual([
        ["done", { feeds: 2, failed: 0, items: 2, raised: 2 }],
        ["done", { feeds: 2, failed: 0, items: 2, raised: 0 }],
      ]);
      expect(await notifications()).toHaveLength(2);
    } finally {
      await worker.stop();
    }
  });
});
