import { assessRisk, createMatcher, newsDedupeKey, type NewsMatcher, type SupplierName } from "~/models/notifications/news-rules";
import { now, type Db } from "../../db";
import { raiseNotifications, type DetectedNotification } from "../notify";
import { FeedError, readFeed, type FeedItem, type ReadOptions } from "./feed";

/**
 * The news monitor (decision 024): reads an organisation's feeds, matches the items to the suppliers that
 * organisation follows, and raises `search` notifications that only it sees. Exactly once comes from the dedupe key
 * (`news:{orgId}:{companyId}:{sha256(item)}`) and `raiseNotifications`: an item already raised — dismissed or not —
 * is skipped, and a run cut short by a crash is simply run again. Each feed's notifications and its status are written
 * in one transaction.
 */

export interface NewsFeedRow {
  id: number;
  organization_id: number;
  url: string;
  title: string | null;
  etag: string | null;
  last_modified: string | null;
}

export interface FeedCheck {
  feedId: number;
  status: "ok" | "not_modified" | "failed";
  /** Items read and kept; items skipped as unusable. */
  items: number;
  skipped: number;
  /** (item, supplier) pairs found, and how many of those were new notifications. */
  matches: number;
  raised: number;
  error: { code: string; detail: string | null } | null;
}

/** The registry companies behind the suppliers an organisation follows (live connections with an organisation number). */
export async function followedSupplierNames(database: Db, organizationId: number): Promise<SupplierName[]> {
  const rows = await database
    .selectFrom("organization_connections as c")
    .innerJoin("organizations as o", "o.id", "c.child_organization_id")
    .innerJoin("companies as co", "co.org_number", "o.org_number")
    .select(["co.id as companyId", "co.legal_name as name"])
    .where("c.parent_organization_id", "=", organizationId)
    .where("c.is_deleted", "=", 0)
    .distinct()
    .orderBy("co.id")
    .execute();
  return rows;
}

/** The notifications one item raises for one organisation's followed suppliers. */
export async function notificationsForItem(
  item: FeedItem,
  feed: { id: number; organizationId: number; source: string },
  matcher: NewsMatcher,
  today: string,
): Promise<DetectedNotification[]> {
  const matches = matcher.match(item);
  if (matches.length === 0) return [];
  const risk = assessRisk(item);
  const out: DetectedNotification[] = [];
  for (const match of matches) {
    out.push({
      companyId: match.companyId,
      kind: "news",
      type: "search",
      date: (item.date ?? today).slice(0, 10),
      riskScore: risk.score,
      relevanceScore: match.relevance,
      // A headline is the article's own words, in its own language: it serves both languages.
      title: { en: item.title, no: null },
      description: { en: item.summary ? item.summary.slice(0, 600) : null, no: null },
      source: feed.source,
      url: item.link,
      details: { feedId: feed.id, matchedName: match.name, matchedBy: match.by, matchedIn: match.in, topics: risk.topics, guid: item.guid },
      organizationId: feed.organizationId,
      dedupeKey: await newsDedupeKey(feed.organizationId, match.companyId, item),
    });
  }
  return out;
}

function sourceOf(feed: NewsFeedRow, title: string | null): string {
  if (feed.title || title) return (feed.title || title)!;
  try {
    return new URL(feed.url).hostname;
  } catch {
    return feed.url;
  }
}

/**
 * Reads one feed now and records the outcome on it. `conditional: false` ignores the stored ETag/Last-Modified (the
 * screen's 'Check now' wants to count the items). Throws only when `signal` aborts (the job is stopping); every reading
 * problem is recorded as the feed's `failed` status.
 */
export async function checkFeed(
  database: Db,
  feed: NewsFeedRow,
  options: { conditional?: boolean; signal?: AbortSignal; read?: Omit<ReadOptions, "etag" | "lastModified" | "signal"> } = {},
): Promise<FeedCheck> {
  const conditional = options.conditional ?? true;
  const readAt = now();
  const base = { feedId: feed.id, items: 0, skipped: 0, matches: 0, raised: 0 };
  let read;
  try {
    read = await readFeed(feed.url, {
      ...options.read,
      etag: conditional ? feed.etag : null,
      lastModified: conditional ? feed.last_modified : null,
      signal: options.signal,
    });
  } catch (error) {
    if (!(error instanceof FeedError)) throw error;
    const stored = error.detail ? `${error.code}:${error.detail}`.slice(0, 300) : error.code;
    await database.updateTable("news_feeds").set({ last_status: "failed", last_error: stored, last_read_at: readAt }).where("id", "=", feed.id).execute();
    return { ...base, status: "failed", error: { code: error.code, detail: error.detail ?? null } };
  }
  if (read.status === "not_modified") {
    await database
      .updateTable("news_feeds")
      .set({ last_status: "not_modified", last_error: null, last_read_at: readAt, etag: read.etag, last_modified: read.lastModified })
      .where("id", "=", feed.id)
      .execute();
    return { ...base, status: "not_modified", error: null };
  }
  const matcher = createMatcher(await followedSupplierNames(database, feed.organization_id));
  const source = sourceOf(feed, read.title);
  const today = readAt.slice(0, 10);
  const detected: DetectedNotification[] = [];
  for (const item of read.items) {
    detected.push(...(await notificationsForItem(item, { id: feed.id, organizationId: feed.organization_id, source }, matcher, today)));
  }
  const raised = await database.transaction().execute(async (trx) => {
    const ids = await raiseNotifications(trx, detected);
    await trx
      .updateTable("news_feeds")
      .set({
        last_status: "ok",
        last_error: null,
        last_read_at: readAt,
        etag: read.etag,
        last_modified: read.lastModified,
        // The feed's own title names it in the list until the administrator gives one.
        ...(feed.title ? {} : { title: read.title ? read.title.slice(0, 200) : null }),
      })
      .where("id", "=", feed.id)
      .execute();
    return ids.length;
  });
  return { ...base, status: "ok", items: read.items.length, skipped: read.skipped.length, matches: detected.length, raised, error: null };
}

export interface MonitorRun {
  feeds: number;
  failed: number;
  items: number;
  raised: number;
}

/** Every enabled feed of every organisation, one after another (a failing feed does not stop the others). */
export async function runNewsMonitor(
  database: Db,
  options: { signal?: AbortSignal; progress?: (done: number, total: number) => Promise<void>; read?: ReadOptions } = {},
): Promise<MonitorRun> {
  const feeds = await database
    .selectFrom("news_feeds")
    .select(["id", "organization_id", "url", "title", "etag", "last_modified"])
    .where("is_enabled", "=", 1)
    .orderBy("id")
    .execute();
  const run: MonitorRun = { feeds: feeds.length, failed: 0, items: 0, raised: 0 };
  for (const [index, feed] of feeds.entries()) {
    options.signal?.throwIfAborted();
    const check = await checkFeed(database, feed, { signal: options.signal, read: options.read });
    if (check.status === "failed") run.failed++;
    run.items += check.items;
    run.raised += check.raised;
    await options.progress?.(index + 1, feeds.length);
  }
  return run;
}
