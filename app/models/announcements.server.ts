import { db, now } from "@server/db";
import { sendMail } from "@server/mail";
import { pageWindow, type PageWindow } from "./admin";
import type { AdminActor } from "./admin.server";
import { recordSecurityEvent } from "./security-events.server";

/**
 * Announcements (issue 16; decision 045): the installation's administrator writes to every user (organization_id
 * null) or to one organisation's users; users see the latest ones on /overview; a mailed one goes to each active
 * user of the audience, one mail at a time through sendMail (which logs failures). Each change is an `admin_action`.
 */

export const ANNOUNCEMENT_TITLE_MAX = 200;
export const ANNOUNCEMENT_BODY_MAX = 2000;
export const ANNOUNCEMENTS_PAGE_SIZE = 25;
const ACTIVE_DAYS = 30;
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
  mailedAt: string | null;
  withdrawnAt: string | null;
}

/** The latest non-withdrawn announcements of the last 30 days for everyone or the user's organisation. */
export async function activeAnnouncements(input: { organizationId: number | null; now?: Date }): Promise<ActiveAnnouncement[]> {
  const since = new Date((input.now ?? new Date()).getTime() - ACTIVE_DAYS * 86_400_000).toISOString();
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
    .select(["a.id", "a.title", "a.body", "a.created_at", "a.organization_id", "o.name", "u.email", "a.mailed_at", "a.withdrawn_at"])
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
      mailedAt: r.mailed_at,
      withdrawnAt: r.withdrawn_at,
    })),
  };
}

/** Organisations an announcement may address (not deactivated), by name. */
export async function announcementAudiences(): Promise<{ id: number; name: string }[]> {
  return db().selectFrom("organizations").select(["id", "name"]).where("deactivated_at", "is", null).orderBy("name").execute();
}

/** Creates an announcement; null when the organisation does not exist. Mails each active user of the audience when asked. */
export async function createAnnouncement(
  actor: AdminActor,
  input: { organizationId: number | null; title: string; body: string; mail: boolean },
): Promise<{ id: number; mailed: number } | null> {
  if (input.organizationId != null) {
    const org = await db().selectFrom("organizations").select("id").where("id", "=", input.organizationId).executeTakeFirst();
    if (!org) return null;
  }
  const id = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .insertInto("admin_announcements")
        .values({ organization_id: input.organizationId, title: input.title, body: input.body, created_by: actor.id, created_at: now() })
        .returning("id")
        .executeTakeFirstOrThrow();
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
  let mailed = 0;
  if (input.mail) {
    let query = db().selectFrom("users").select("email").where("deactivated_at", "is", null).orderBy("id");
    if (input.organizationId != null) query = query.where("organization_id", "=", input.organizationId);
    for (const user of await query.execute()) {
      // Sequential on purpose: one SMTP connection at a time; sendMail logs a failure and the loop goes on.
      try {
        await sendMail({ to: user.email, subject: input.title, text: input.body, kind: "announcement" });
        mailed += 1;
      } catch {
        // Logged by sendMail in the mail log (resend from /admin/send-old).
      }
    }
    await db().updateTable("admin_announcements").set({ mailed_at: now() }).where("id", "=", id).execute();
  }
  return { id, mailed };
}

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
