import type { JobContext } from "@server/jobs/types";
import type { Schedule } from "@server/jobs/schedule";
import { sendDigests, sendImmediateMails, writeImmediateCursor, type MailRunResult } from "~/models/notifications/notification-mail.server";

/**
 * The notification mail jobs (docs/decisions/025-notification-mails.md).
 *
 * `notifications.digest` (daily at 07:00 Oslo time) and `notifications.immediate` (every five minutes). Each mail is
 * claimed in `notification_mails` before it is sent, so a job that runs twice, or again after a crash, never sends one
 * twice. A failed send releases its claim and fails the attempt, so the runner retries it (with backoff) and sends only
 * what is missing; from the third attempt on a run gives up on the failed mails and finishes, so that one address the
 * mail server keeps refusing cannot hold back everyone else's mails (nor, for the immediate mail, the cursor).
 */

export const GIVE_UP_AFTER_ATTEMPT = 3;

export class MailsFailed extends Error {
  constructor(kind: string, result: MailRunResult) {
    super(`${kind}: ${result.failed} mail(s) failed, ${result.sent} sent; retrying the failed ones`);
    this.name = "MailsFailed";
  }
}

export async function notificationDigest(ctx: JobContext): Promise<void> {
  const result = await sendDigests();
  if (result.failed > 0 && ctx.job.attempt < GIVE_UP_AFTER_ATTEMPT) throw new MailsFailed("notifications.digest", result);
  await ctx.finish(async () => result);
}

export async function notificationImmediate(ctx: JobContext): Promise<void> {
  const result = await sendImmediateMails();
  if (result.failed > 0 && ctx.job.attempt < GIVE_UP_AFTER_ATTEMPT) throw new MailsFailed("notifications.immediate", result);
  // The cursor moves with "done", in one transaction: a run that dies before this point is redone, and its claims
  // keep the mails it sent from going twice.
  await ctx.finish(async (trx) => {
    await writeImmediateCursor(trx, result.cursor);
    return result;
  });
}

export const notificationMailSchedules: Schedule[] = [
  { name: "notifications.digest", dailyAt: "07:00", type: "notifications.digest" },
  { name: "notifications.immediate", every: 5, type: "notifications.immediate" },
];
