import { db, now, type Db } from "@server/db";
import { env } from "@server/env";
import type { JobContext, Schedule } from "@server/jobs/types";

/**
 * The security log (decision 039): who signed in or failed to, changed a password, a level, deactivated an
 * account, sent or revoked an invitation, or acted as the installation's administrator — who, when, from where. One
 * writer (`recordSecurityEvent`), called in the transaction of the change it records; kept SECURITY_LOG_DAYS days.
 */

export const SECURITY_EVENT_KINDS = [
  "sign_in",
  "sign_in_failed",
  "sign_out",
  "password_changed",
  "password_reset",
  "password_reset_requested",
  "sessions_ended",
  "level_changed",
  "user_deactivated",
  "user_reactivated",
  "invitation_sent",
  "invitation_revoked",
  "admin_action",
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** Where a request came from: the client's address (the server's `clientAddress`, proxy-aware) and its browser. */
export interface RequestSource {
  ip: string | null;
  userAgent: string | null;
}

export async function recordSecurityEvent(
  input: {
    kind: SecurityEventKind;
    /** The account concerned; null for a failed sign-in of an unknown address. */
    userId: number | null;
    email?: string | null;
    /** Who did it, when not the account itself (an administrator). */
    actorUserId?: number | null;
    organizationId?: number | null;
    source?: RequestSource | null;
    /** What changed (JSON): never a password, token or secret. */
    detail?: Record<string, unknown>;
  },
  database: Db = db(),
): Promise<void> {
  await database
    .insertInto("security_events")
    .values({
      at: now(),
      kind: input.kind,
      user_id: input.userId,
      email: input.email ?? null,
      actor_user_id: input.actorUserId ?? null,
      organization_id: input.organizationId ?? null,
      ip: input.source?.ip ?? null,
      user_agent: input.source?.userAgent ?? null,
      detail: input.detail ? JSON.stringify(input.detail) : null,
    })
    .execute();
}

export const SECURITY_LOG_PURGE_JOB = "security-log.purge";

/** Daily at 04:10 Oslo time: events older than SECURITY_LOG_DAYS go. */
export const securityLogPurgeSchedule: Schedule = { name: SECURITY_LOG_PURGE_JOB, dailyAt: "04:10", type: SECURITY_LOG_PURGE_JOB };

/** Deletes the events older than the configured period; returns how many. */
export async function purgeSecurityEvents(at: Date = new Date()): Promise<number> {
  const before = new Date(at.getTime() - env().SECURITY_LOG_DAYS * 86_400_000).toISOString();
  const result = await db().deleteFrom("security_events").where("at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function securityLogPurgeJob(ctx: JobContext<unknown>): Promise<void> {
  const deleted = await purgeSecurityEvents();
  await ctx.finish(async () => ({ deleted }));
}
