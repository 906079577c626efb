import { db } from "@server/db";
import type { JobContext, Schedule } from "@server/jobs/types";
import { purgeMailLog, resendLoggedMail } from "@server/mail";

/**
 * The mail log (decision 044): the failed mails an administrator sees and sends again at /admin/send-old, and
 * the daily purge of logged mails older than MAIL_LOG_DAYS (their bodies hold one-time links).
 */

export const MAIL_LOG_PURGE_JOB = "mail-log.purge";

/** Daily at 04:20 Oslo time. */
export const mailLogPurgeSchedule: Schedule = { name: MAIL_LOG_PURGE_JOB, dailyAt: "04:20", type: MAIL_LOG_PURGE_JOB };

export async function mailLogPurgeJob(ctx: JobContext<unknown>): Promise<void> {
  const deleted = await purgeMailLog();
  await ctx.finish(async () => ({ deleted }));
}

export const FAILED_MAILS_PAGE_SIZE = 25;

/** One page of the failed mails, newest attempt first, and how many there are in all. */
export async function failedMails(page: number) {
  const total = Number(
    (
      await db()
        .selectFrom("mail_log")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("status", "=", "failed")
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rows = await db()
    .selectFrom("mail_log")
    .select(["id", "to_address", "subject", "kind", "error", "attempts", "created_at", "last_attempt_at"])
    .where("status", "=", "failed")
    .orderBy("last_attempt_at", "desc")
    .orderBy("id", "desc")
    .limit(FAILED_MAILS_PAGE_SIZE)
    .offset((page - 1) * FAILED_MAILS_PAGE_SIZE)
    .execute();
  return { total, rows };
}

/** Sends one failed mail again; null when it is no longer a failed mail of the log. */
export function resendFailedMail(id: number) {
  return resendLoggedMail(id);
}

/** Sends every failed mail again (oldest first); counts of sent and still failing. */
export async function resendAllFailedMails(): Promise<{ sent: number; failed: number }> {
  const ids = await db().selectFrom("mail_log").select("id").where("status", "=", "failed").orderBy("id").execute();
  let sent = 0;
  let failed = 0;
  for (const { id } of ids) {
    const result = await resendLoggedMail(id);
    if (result === "sent") sent += 1;
    else if (result === "failed") failed += 1;
  }
  return { sent, failed };
}
