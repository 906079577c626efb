import { db, now } from "@server/db";
import { enqueueJob, type JobHandler } from "@server/jobs";
import { sendMail } from "@server/mail";
import { pageWindow, type PageWindow } from "~/models/admin/admin";
import { ANNOUNCEMENT_SHOWN_DAYS } from "~/models/notifications/announcements";

import type { AdminActor } from "~/models/admin/admin.server";
import { recordSecurityEvent } from "~/models/accounts/security-events.server";

/**
 * Announcements (decision 045): the installation's administrator writes to every user (organization_id
 * null) or to one organisation's users; users see the latest ones on /overview; a mailed one goes to each active
 * user of the audience, one mail at a time through sendMail (which logs failures). Each change is an `admin_action`.
 */

export const ANNOUNCEMENTS_PAGE_SIZE = 25;
const ACTIVE_LIMIT = 3;

export interface ActiveAnnouncement {
  id: number;
  title: string;
  body: string;
  createdAt: string;
}

export interface AdminAnnouncementRow extends ActiveAnnouncement {
  organizationId: number | null;
  organizationName: string | null;
  author: string | null;
  mailQueuedAt: string | null;
  mailedAt: string | null;
  mailedCount: number;
  mailFailedCount: number;
  withdrawnAt: string | null;
}

/** The latest non-withdrawn announcements of the last 30 days for everyone or the user's organisation. */
export async function activeAnnouncements(input: { organizationId: number | null; now?: Date }): Promise<ActiveAnnouncement[]> {
  const since = new Date((input.now ?? new Date()).getTime() - ANNOUNCEMENT_SHOWN_DAYS * 86_400_000).toISOString();
  const rows = await db()
    .selectFrom("admin_announcements")
    .select(["id", "title", "body", "created_at"])
    .where("withdrawn_at", "is", null)
    .where("created_at", ">=", since)
    .where((eb) =>
      input.organizationId == null
        ? eb("organization_id", "is", null)
        : eb.or([eb("organization_id", "is", null), eb("organization_id", "=", input.organizationId)]),
    )
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(ACTIVE_LIMIT)
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, body: r.body, createdAt: r.created_at }));
}

export async function listAnnouncements(input: { page: number | null }): Promise<PageWindow & { rows: AdminAnnouncementRow[]; total: number }> {
  const { n } = await db()
    .selectFrom("admin_announcements")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(n);
  const window = pageWindow(total, input.page, ANNOUNCEMENTS_PAGE_SIZE);
  const rows = await db()
    .selectFrom("admin_announcements as a")
    .leftJoin("organizations as o", "o.id", "a.organization_id")
    .leftJoin("users as u", "u.id", "a.created_by")
    .select([
      "a.id",
      "a.title",
      "a.body",
      "a.created_at",
      "a.organization_id",
      "o.name",
      "u.email",
      "a.mail_queued_at",
      "a.mailed_at",
      "a.mailed_count",
      "a.mail_failed_count",
      "a.withdrawn_at",
    ])
    .orderBy("a.created_at", "desc")
    .orderBy("a.id", "desc")
    .limit(window.pageSize)
    .offset(window.offset)
    .execute();
  return {
    ...window,
    total,
    rows: rows.map((r) => ({
      id: r.id,
      title: r.title,
      body: r.body,
      createdAt: r.created_at,
      organizationId: r.organization_id,
      organizationName: r.name ?? null,
      author: r.email ?? null,
      mailQueuedAt: r.mail_queued_at,
      mailedAt: r.mailed_at,
      mailedCount: r.mailed_count,
      mailFailedCount: r.mail_failed_count,
      withdrawnAt: r.withdrawn_at,
    })),
  };
}

/** Organisations an announcement may address: not deactivated and with at least one active user (users read it). */
function audienceOrganizations() {
  return db()
    .selectFrom("organizations as o")
    .where("o.deactivated_at", "is", null)
    .where((eb) => eb.exists(eb.selectFrom("users as u").select("u.id").whereRef("u.organization_id", "=", "o.id").where("u.deactivated_at", "is", null)));
}

/** The organisations the form offers, by name (supplier organisations without accounts are not among them). */
export async function announcementAudiences(): Promise<{ id: number; name: string; kind: "customer" | "supplier" }[]> {
  return audienceOrganizations().select(["o.id", "o.name", "o.kind"]).orderBy("o.name").orderBy("o.id").execute();
}

/** The job that mails an announcement to its audience's active users (decision 045). */
export const ANNOUNCEMENT_MAIL_JOB = "announcements.mail";
const MAIL_BATCH = 200;

/** Creates an announcement; null when the organisation is not one to address (see above). A mail to the audience is queued when asked. */
export async function createAnnouncement(
  actor: AdminActor,
  input: { organizationId: number | null; title: string; body: string; mail: boolean },
): Promise<{ id: number; mailQueued: boolean } | null> {
  if (input.organizationId != null) {
    const org = await audienceOrganizations().select("o.id").where("o.id", "=", input.organizationId).executeTakeFirst();
    if (!org) return null;
  }
  const id = await db()
    .transaction()
    .execute(async (trx) => {
      const at = now();
      const row = await trx
        .insertInto("admin_announcements")
        .values({
          organization_id: input.organizationId,
          title: input.title,
          body: input.body,
          created_by: actor.id,
          created_at: at,
          mail_queued_at: input.mail ? at : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (input.mail) {
        await enqueueJob(trx, { type: ANNOUNCEMENT_MAIL_JOB, organizationId: input.organizationId, userId: actor.id, payload: { announcementId: row.id } });
      }
      await recordSecurityEvent(
        {
          kind: "admin_action",
          userId: null,
          actorUserId: actor.id,
          organizationId: input.organizationId,
          source: actor.source,
          detail: { action: "announcement_created", announcementId: row.id, organizationId: input.organizationId, mail: input.mail },
        },
        trx,
      );
      return row.id;
    });
  return { id, mailQueued: input.mail };
}

/** The audience's users a mail goes to: not deactivated, in an organisation that is not deactivated. */
function audienceUsers(organizationId: number | null) {
  let query = db()
    .selectFrom("users as u")
    .innerJoin("organizations as o", "o.id", "u.organization_id")
    .where("u.deactivated_at", "is", null)
    .where("o.deactivated_at", "is", null);
  if (organizationId != null) query = query.where("u.organization_id", "=", organizationId);
  return query;
}

/**
 * Mails an announcement to each active user of its audience, one after another through sendMail (one SMTP connection
 * at a time; a failure is logged in the mail log and the job goes on). The cursor is written after every user, so a
 * job that is run again (a worker that stopped) starts after the last user it handled and nobody gets it twice.
 * A withdrawn announcement stops being mailed.
 */
export const announcementMailJob: JobHandler<{ announcementId: number }> = async (ctx) => {
  const id = ctx.job.payload.announcementId;
  const first = await db().selectFrom("admin_announcements").selectAll().where("id", "=", id).executeTakeFirst();
  if (!first || first.mailed_at) return;
  const { n } = await audienceUsers(first.organization_id)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(n);
  let cursor = first.mail_cursor ?? 0;
  let done = first.mailed_count + first.mail_failed_count;
  for (;;) {
    const current = await db().selectFrom("admin_announcements").select(["withdrawn_at"]).where("id", "=", id).executeTakeFirst();
    if (!current || current.withdrawn_at) break;
    const users = await audienceUsers(first.organization_id).select(["u.id", "u.email"]).where("u.id", ">", cursor).orderBy("u.id").limit(MAIL_BATCH).execute();
    if (users.length === 0) break;
    for (const user of users) {
      let sent = true;
      try {
        await sendMail({ to: user.email, subject: first.title, text: first.body, kind: "announcement" });
      } catch {
        sent = false; // Logged by sendMail in the mail log; it can be sent again from /admin/send-old.
      }
      cursor = user.id;
      done += 1;
      await db()
        .updateTable("admin_announcements")
        .set((eb) => ({
          mail_cursor: cursor,
          mailed_count: sent ? eb("mailed_count", "+", 1) : eb.ref("mailed_count"),
          mail_failed_count: sent ? eb.ref("mail_failed_count") : eb("mail_failed_count", "+", 1),
        }))
        .where("id", "=", id)
        .execute();
      await ctx.progress(done, total);
    }
  }
  await ctx.finish(async (trx) => {
    await trx.updateTable("admin_announcements").set({ mailed_at: now() }).where("id", "=", id).where("mailed_at", "is", null).execute();
  });
};

/** Withdraws an announcement (hidden from /overview); false when there is none to withdraw. */
export async function withdrawAnnouncement(actor: AdminActor, id: number): Promise<boolean> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const result = await trx
        .updateTable("admin_announcements")
        .set({ withdrawn_at: now() })
        .where("id", "=", id)
        .where("withdrawn_at", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await recordSecurityEvent(
        { kind: "admin_action", userId: null, actorUserId: actor.id, source: actor.source, detail: { action: "announcement_withdrawn", announcementId: id } },
        trx,
      );
      return true;
    });
}
