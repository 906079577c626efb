import { db } from "@server/db";
import type { JobContext, Schedule } from "@server/jobs/types";
import { runNewsMonitor, type MonitorRun } from "@server/monitoring/news/monitor";

/**
 * The "monitor.news" job (decision 024): reads every enabled news feed of every organisation and raises
 * `search` notifications for the suppliers that organisation follows. Re-runnable by construction: each notification
 * is written once under its dedupe key, so a run interrupted by a crash is run again without duplicates, and the
 * summary of the run is its result.
 */
export async function monitorNews(ctx: JobContext): Promise<void> {
  const run = await runNewsMonitor(db(), { signal: ctx.signal, progress: (done, total) => ctx.progress(done, total) });
  await ctx.finish(async (): Promise<MonitorRun> => run);
}

/** Every hour: news feeds change through the day, and a feed read more often than that gains little. */
export const monitorNewsSchedule: Schedule = { name: "monitor.news", every: 60, type: "monitor.news" };
