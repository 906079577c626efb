/* eslint-disable @typescript-eslint/no-explicit-any -- a handler of any payload */
import { db } from "@server/db";
import { startWorker, type JobHandler } from "@server/jobs";

/**
 * Runs the queued jobs of the given types with a real worker until none of them is queued or running (or `timeoutMs`
 * passes), then stops it: what the server's worker would have done by then.
 */
export async function runQueuedJobs(handlers: Record<string, JobHandler<any>>, timeoutMs = 10_000): Promise<void> {
  const types = Object.keys(handlers);
  const worker = startWorker({ db: db(), handlers, pollMs: 10, log: () => {} });
  try {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const open = await db().selectFrom("jobs").select("id").where("type", "in", types).where("status", "in", ["queued", "running"]).executeTakeFirst();
      if (!open) return;
      if (Date.now() > until) throw new Error(`jobs of ${types.join(", ")} still open after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await worker.stop();
  }
}
