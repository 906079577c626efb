import { db } from "@server/db";
import { env } from "@server/env";
import { enqueueJob, type JobHandler } from "@server/jobs";
import { sendPasswordReset } from "~/models/accounts/auth-mail.server";
import { recordSecurityEvent, type RequestSource } from "~/models/accounts/security-events.server";
import { createPasswordReset, findUserByEmail } from "~/models/accounts/users.server";

/**
 * "Forgot your password?" (decision 050). The page answers the same whether or not the address has an account, and
 * at once: the mail is a job, so neither its content nor a slow mail server's time tells who has an account. Every
 * request is in the security log (`password_reset_requested`), which is what the limits count:
 * - one network address asks at most RESET_REQUESTS_PER_ADDRESS times in LOGIN_WINDOW_MINUTES (then 429, nothing queued);
 * - one account gets at most RESET_MAILS_PER_ACCOUNT mails an hour (later requests answer as usual and mail nothing).
 * The job creates the one-time link itself: its token never sits in the queue.
 */

export const PASSWORD_RESET_MAIL_JOB = "accounts.password-reset-mail";
export const RESET_REQUESTS_PER_ADDRESS = 10;
export const RESET_MAILS_PER_ACCOUNT = 3;
const HOUR_MS = 3_600_000;

export interface ResetMailPayload {
  email: string;
  origin: string;
}

/** Queued, or refused for the address: it may ask again after `minutes` (the sign-in window). */
export type ResetRequestOutcome = { limited: false } | { limited: true; minutes: number };

const since = (ms: number) => new Date(Date.now() - ms).toISOString();

export async function requestPasswordReset(input: { email: string; origin: string; source: RequestSource | null }): Promise<ResetRequestOutcome> {
  const ip = input.source?.ip ?? null;
  const minutes = env().LOGIN_WINDOW_MINUTES;
  if (ip) {
    const asked = await db()
      .selectFrom("security_events")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("kind", "=", "password_reset_requested")
      .where("ip", "=", ip)
      .where("at", ">", since(minutes * 60_000))
      .executeTakeFirstOrThrow();
    if (Number(asked.n) >= RESET_REQUESTS_PER_ADDRESS) return { limited: true, minutes };
  }
  const user = await findUserByEmail(input.email);
  await db()
    .transaction()
    .execute(async (trx) => {
      await recordSecurityEvent({ kind: "password_reset_requested", userId: user?.id ?? null, email: input.email, source: input.source }, trx);
      const payload: ResetMailPayload = { email: input.email, origin: input.origin };
      await enqueueJob(trx, { type: PASSWORD_RESET_MAIL_JOB, organizationId: null, userId: null, payload, maxAttempts: 3 });
    });
  return { limited: false };
}

/** The job: a fresh link and its mail, in the account's language, unless the account had its mails this hour. */
export const passwordResetMailJob: JobHandler<ResetMailPayload> = async (ctx) => {
  const { email, origin } = ctx.job.payload;
  const user = await findUserByEmail(email);
  if (!user) return;
  const recent = await db()
    .selectFrom("password_resets")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", user.id)
    .where("created_at", ">", since(HOUR_MS))
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= RESET_MAILS_PER_ACCOUNT) return;
  const reset = await createPasswordReset(email);
  if (!reset) return;
  await sendPasswordReset(origin, { email, language: reset.language, token: reset.token });
};
