import type { Kysely } from "kysely";
import { env } from "../env";
import { now } from "../db";
import type { DB } from "../db-types";
import { DEMO_FEEDS } from "../monitoring/news/demo";

/**
 * The demo customer's news feeds (decision 024): the recorded demo feeds the app itself serves at
 * /demo-feeds/{name}.xml, at the app's address (APP_URL, else http://localhost:{PORT}). Re-runnable: a feed already
 * there is left as it is (its status, and whether the administrator disabled it).
 */
export async function seedDemoNews(database: Kysely<DB>, input: { organizationId: number; log?: (line: string) => void }): Promise<void> {
  const { APP_URL, PORT } = env();
  const base = (APP_URL ?? `http://localhost:${PORT}`).replace(/\/+$/, "");
  for (const feed of DEMO_FEEDS) {
    await database
      .insertInto("news_feeds")
      .values({ organization_id: input.organizationId, url: `${base}/demo-feeds/${feed.file}`, title: feed.title, created_at: now() })
      .onConflict((oc) => oc.columns(["organization_id", "url"]).doNothing())
      .execute();
  }
  input.log?.(`${DEMO_FEEDS.length} recorded news feeds for the demo customer (served at ${base}/demo-feeds/)`);
}
