import { db, now, type Db } from "@server/db";
import { registryMonitorEnvSchema } from "@server/env";
import { PermanentJobError, type JobContext, type JobHandler } from "@server/jobs/types";
import { followedOrgNumbers } from "@server/monitoring/registry";
import { createBrregUpdatesClient, type BrregUpdatesClient } from "@server/providers/registry/brreg-updates";
import { createBrregProvider, liveRegistryProvider, RegistryError, type RegistryProvider } from "@server/providers/registry/index";
import { fetchCompany, writeFetchedCompany, type FetchedCompany } from "@server/providers/registry/sync";

/**
 * The "monitor.brreg-updates" job (every 15 minutes; docs/decisions/023-registry-monitoring.md): reads Brønnøysund's update
 * feed after the cursor kept in monitor_state, keeps the updates of followed companies, refreshes each of them through the live
 * adapter — whose write compares before and after and raises the notifications — and moves the cursor on in the same
 * transaction as that page's writes and notifications. A run stopped anywhere resumes from the last page written; a page written
 * twice (a lost cursor, two workers) raises nothing twice, by the notifications' dedupe keys.
 */

export const BRREG_UPDATES_JOB = "monitor.brreg-updates";
export const BRREG_UPDATES_CURSOR = "brreg-updates.cursor";
export const BRREG_UPDATES_EVERY_MINUTES = 15;

/** Where the feed was left: after an update id, or (before the first update was seen) from an instant. */
export type BrregUpdatesCursor = { afterId: number } | { since: string };

export interface BrregUpdatesMonitorDeps {
  client: BrregUpdatesClient;
  provider: RegistryProvider;
  pageSize?: number;
  /** Pages per run at most; the next run goes on from the cursor. */
  maxPages?: number;
  log?: (line: string) => void;
}

export interface BrregUpdatesResult {
  skipped?: "off";
  pages: number;
  updates: number;
  refreshed: number;
  notifications: number;
  cursor: BrregUpdatesCursor | null;
}

export async function readCursor(database: Db): Promise<BrregUpdatesCursor | null> {
  const row = await database.selectFrom("monitor_state").select("value").where("key", "=", BRREG_UPDATES_CURSOR).executeTakeFirst();
  if (!row) return null;
  try {
    const value = JSON.parse(row.value) as Partial<{ afterId: unknown; since: unknown }>;
    if (typeof value.afterId === "number" && Number.isInteger(value.afterId)) return { afterId: value.afterId };
    if (typeof value.since === "string" && !Number.isNaN(Date.parse(value.since))) return { since: value.since };
  } catch {
    // An unreadable cursor starts over from now, as a first run does.
  }
  return null;
}

async function writeCursor(trx: Db, cursor: BrregUpdatesCursor): Promise<void> {
  const value = JSON.stringify(cursor);
  const at = now();
  await trx
    .insertInto("monitor_state")
    .values({ key: BRREG_UPDATES_CURSOR, value, updated_at: at })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: at }))
    .execute();
}

/** The cursor moved under this run (another worker took the job over): stop, that one goes on. */
class CursorMoved extends Error {
  constructor() {
    super("The update feed's cursor moved during the run");
    this.name = "CursorMoved";
  }
}

const sameCursor = (a: BrregUpdatesCursor | null, b: BrregUpdatesCursor | null) => JSON.stringify(a) === JSON.stringify(b);

/** The setting of MONITOR_BRREG_UPDATES and REGISTRY_PROVIDER, read at each run: the client and provider to use, or null (off). */
export function brregUpdatesFromEnv(environment: Record<string, string | undefined> = process.env): BrregUpdatesMonitorDeps | null {
  const parsed = registryMonitorEnvSchema.safeParse({ MONITOR_BRREG_UPDATES: environment.MONITOR_BRREG_UPDATES || undefined });
  if (!parsed.success) throw new Error(`Invalid environment: MONITOR_BRREG_UPDATES: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  const setting = parsed.data.MONITOR_BRREG_UPDATES;
  if (setting === "off") return null;
  const live = liveRegistryProvider(environment);
  if (setting === "auto" && !live) return null;
  const baseUrl = environment.BRREG_BASE_URL || undefined;
  return { client: createBrregUpdatesClient({ baseUrl }), provider: live ?? createBrregProvider({ baseUrl }) };
}

export function createBrregUpdatesMonitor(deps: () => BrregUpdatesMonitorDeps | null, database: () => Db = db): JobHandler {
  return async (ctx: JobContext) => {
    const d = deps();
    if (!d) {
      await ctx.finish(async () => ({ skipped: "off", pages: 0, updates: 0, refreshed: 0, notifications: 0, cursor: null }) satisfies BrregUpdatesResult);
      return;
    }
    const log = d.log ?? ((line: string) => console.log(line));
    const pageSize = d.pageSize ?? 100;
    const maxPages = d.maxPages ?? 50;
    const store = database();
    const result: BrregUpdatesResult = { pages: 0, updates: 0, refreshed: 0, notifications: 0, cursor: null };

    let cursor = await readCursor(store);
    // A first run reads from the interval before it: earlier history is the bulk import's business.
    const start: BrregUpdatesCursor = cursor ?? { since: new Date(Date.now() - BRREG_UPDATES_EVERY_MINUTES * 60_000).toISOString() };

    for (let page = 0; page < maxPages; page++) {
      await ctx.progress(page, null);
      const position = cursor ?? start;
      let answer;
      try {
        answer = await d.client.page({
          afterId: "afterId" in position ? position.afterId : null,
          since: "since" in position ? position.since : null,
          size: pageSize,
        });
      } catch (error) {
        if (error instanceof RegistryError && error.kind === "invalid_response") {
          // Retrying the same answer would fail the same way: fail this run, log it; the schedule tries again later.
          log(`${BRREG_UPDATES_JOB}: the update feed could not be read: ${error.message}`);
          throw new PermanentJobError("common:errors.serverError");
        }
        throw error; // timeouts, 5xx, network: the job is retried with backoff
      }
      if (answer.updates.length === 0) break;

      const lastId = answer.updates[answer.updates.length - 1].id;
      const followed = new Set(
        await followedOrgNumbers(
          store,
          answer.updates.map((u) => u.orgNumber),
        ),
      );
      const fetched: FetchedCompany[] = [];
      for (const orgNumber of [...new Set(answer.updates.map((u) => u.orgNumber))]) {
        if (!followed.has(orgNumber)) continue;
        ctx.signal.throwIfAborted();
        // A unit removed from the open data (Fjernet) is no longer served: there is nothing to compare.
        const company = await fetchCompany(d.provider, orgNumber);
        if (company) fetched.push(company);
      }

      const expected = cursor;
      const written = await store.transaction().execute(async (trx) => {
        if (!sameCursor(await readCursor(trx), expected)) throw new CursorMoved();
        const ids: number[] = [];
        for (const company of fetched) ids.push(...(await writeFetchedCompany(trx, company)));
        await writeCursor(trx, { afterId: lastId });
        return ids.length;
      });
      cursor = { afterId: lastId };
      result.pages += 1;
      result.updates += answer.updates.length;
      result.refreshed += fetched.length;
      result.notifications += written;
      if (!answer.hasMore) break;
    }

    await ctx.finish(async (trx) => {
      // Nothing seen yet: remember where this run started reading, so the next one leaves no gap.
      if (!cursor && !(await readCursor(trx))) await writeCursor(trx, start);
      result.cursor = cursor ?? start;
      return result;
    });
  };
}

export const monitorBrregUpdates = createBrregUpdatesMonitor(() => brregUpdatesFromEnv());

/** The schedule, exported for app/entry.server.tsx's jobSchedules. */
export const brregUpdatesSchedule = { name: BRREG_UPDATES_JOB, every: BRREG_UPDATES_EVERY_MINUTES, type: BRREG_UPDATES_JOB };
