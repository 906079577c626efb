import { sql } from "kysely";
import { db, now } from "@server/db";
import { readDemoFeedFile } from "@server/monitoring/news/demo";
import { checkFeed, type FeedCheck } from "@server/monitoring/news/monitor";
import { checkFeedUrl, checkFeedUrlForm, ownDemoFeedUrl, type FeedUrlProblem } from "@server/monitoring/news/url";
import { refuse } from "~/models/shared/refusal";

/**
 * An organisation's news feeds (decision 024): what its administrator manages on /notifications/feeds. Every
 * function takes the organisation id from the session and filters by it: another organisation's feed is "not found"
 * (a `Refusal` with the code "feed-not-found" when a change names it).
 */

/** More than enough for a monitor read every hour; a bound so that one organisation cannot make the job endless. */
export const MAX_FEEDS_PER_ORGANIZATION = 50;

export interface NewsFeedListItem {
  id: number;
  url: string;
  title: string | null;
  isEnabled: boolean;
  lastReadAt: string | null;
  lastStatus: "ok" | "not_modified" | "failed" | null;
  /** The reason code of the last failure ('http_status', 'timeout', …) and its detail (an HTTP status). */
  lastError: { code: string; detail: string | null } | null;
  createdAt: string;
}

function parseError(stored: string | null): NewsFeedListItem["lastError"] {
  if (!stored) return null;
  const at = stored.indexOf(":");
  return at < 0 ? { code: stored, detail: null } : { code: stored.slice(0, at), detail: stored.slice(at + 1) };
}

const columns = ["id", "url", "title", "is_enabled", "last_read_at", "last_status", "last_error", "created_at"] as const;

function toItem(row: {
  id: number;
  url: string;
  title: string | null;
  is_enabled: number;
  last_read_at: string | null;
  last_status: NewsFeedListItem["lastStatus"];
  last_error: string | null;
  created_at: string;
}): NewsFeedListItem {
  return {
    id: row.id,
    url: row.url,
    title: row.title,
    isEnabled: row.is_enabled === 1,
    lastReadAt: row.last_read_at,
    lastStatus: row.last_status,
    lastError: parseError(row.last_error),
    createdAt: row.created_at,
  };
}

export async function listNewsFeeds({ organizationId }: { organizationId: number }): Promise<NewsFeedListItem[]> {
  const rows = await db().selectFrom("news_feeds").select(columns).where("organization_id", "=", organizationId).orderBy("id").execute();
  return rows.map(toItem);
}

export async function getNewsFeed({ organizationId, id }: { organizationId: number; id: number }): Promise<NewsFeedListItem | undefined> {
  const row = await db().selectFrom("news_feeds").select(columns).where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
  return row ? toItem(row) : undefined;
}

/** Why a feed was not added: its URL's problem, the organisation has it already, or has as many as it may. */
export type AddFeedProblem = FeedUrlProblem | "duplicate" | "limit";

/**
 * Adds a feed after checking its URL (form, scheme, no credentials, no private address in production — decision 024).
 * It is read by the next monitor run, or at once with 'Check now'. Refuses (on the field "url", the problem as its
 * code) a URL it may not read ("invalid"), a feed the organisation has already ("conflict") and one past the limit.
 */
export async function addNewsFeed(input: { organizationId: number; userId: number; url: string; title: string | null }): Promise<{ id: number }> {
  let checked = ownDemoFeedUrl(input.url) ? { url: new URL(input.url), problem: null } : await checkFeedUrl(input.url);
  // A name that does not resolve now may be a passing DNS failure: the feed is kept and its reads say "unresolvable"
  // until it does. Every read checks the addresses again, so nothing private is reached through it.
  if (checked.problem === "unresolvable") checked = checkFeedUrlForm(input.url);
  if (!checked.url) throw refuseFeed(checked.problem);
  const url = checked.url.toString();
  return db()
    .transaction()
    .execute(async (trx) => {
      const count = await trx
        .selectFrom("news_feeds")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("organization_id", "=", input.organizationId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_FEEDS_PER_ORGANIZATION) throw refuseFeed("limit");
      const row = await trx
        .insertInto("news_feeds")
        .values({ organization_id: input.organizationId, url, title: input.title, created_by: input.userId, created_at: now() })
        .onConflict((oc) => oc.columns(["organization_id", "url"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!row) throw refuseFeed("duplicate");
      return { id: row.id };
    });
}

function refuseFeed(problem: AddFeedProblem) {
  return refuse(problem === "duplicate" ? "conflict" : "invalid", problem, { field: "url" });
}

function feedNotFound() {
  return refuse("not-found", "feed-not-found");
}

/** Enables or disables a feed (refused when the organisation has no such feed). */
export async function setNewsFeedEnabled(input: { organizationId: number; id: number; enabled: boolean }): Promise<void> {
  const result = await db()
    .updateTable("news_feeds")
    .set({ is_enabled: input.enabled ? 1 : 0 })
    .where("organization_id", "=", input.organizationId)
    .where("id", "=", input.id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw feedNotFound();
}

/** Removes a feed; the notifications it raised stay (they are about the suppliers, not the feed). */
export async function removeNewsFeed(input: { organizationId: number; id: number }): Promise<void> {
  const result = await db().deleteFrom("news_feeds").where("organization_id", "=", input.organizationId).where("id", "=", input.id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw feedNotFound();
}

/** 'Check now': reads the feed at once, in full (not conditionally), raising what it finds; refused when not the organisation's. */
export async function checkNewsFeedNow(input: { organizationId: number; id: number }): Promise<FeedCheck> {
  const feed = await db()
    .selectFrom("news_feeds")
    .select(["id", "organization_id", "url", "title", "etag", "last_modified"])
    .where("organization_id", "=", input.organizationId)
    .where("id", "=", input.id)
    .executeTakeFirst();
  if (!feed) throw feedNotFound();
  return checkFeed(db(), feed, { conditional: false });
}

/** A recorded demo feed's bytes, only while a seeded feed names it (the route is public and serves nothing else). */
export async function seededDemoFeed(file: string): Promise<Buffer | null> {
  const named = await db()
    .selectFrom("news_feeds")
    .select("id")
    .where(sql<string>`substr(url, -length(${`/demo-feeds/${file}`}))`, "=", `/demo-feeds/${file}`)
    .executeTakeFirst();
  return named ? readDemoFeedFile(file) : null;
}
