import type { ServerBuild } from "@remix-run/node";
import { validateSchedule } from "./schedule";
import type { JobHandler, Schedule } from "./types";

export interface BuildJobs {
  handlers: Record<string, JobHandler<any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  schedules: Schedule[];
  /** The build exports no `jobHandlers`: the worker has nothing to run (worth a warning). */
  missing: boolean;
}

/**
 * The job handlers (and schedules) of the app reach the worker through the Remix server build: `app/entry.server.tsx` exports
 * `jobHandlers` (and may export `jobSchedules`), so server/ never imports app/.
 */
export function jobsOfBuild(build: ServerBuild): BuildJobs {
  const entry = build.entry.module as unknown as { jobHandlers?: unknown; jobSchedules?: unknown };
  const handlers = entry.jobHandlers;
  if (handlers !== undefined && (typeof handlers !== "object" || handlers === null || Object.values(handlers).some((h) => typeof h !== "function"))) {
    throw new Error("entry.server's jobHandlers must be an object of functions (job type → handler)");
  }
  const schedules = entry.jobSchedules ?? [];
  if (!Array.isArray(schedules)) throw new Error("entry.server's jobSchedules must be an array of schedules");
  (schedules as Schedule[]).forEach(validateSchedule);
  return { handlers: (handlers ?? {}) as BuildJobs["handlers"], schedules: schedules as Schedule[], missing: handlers === undefined };
}
