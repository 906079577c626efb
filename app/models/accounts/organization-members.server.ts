import { sql } from "kysely";
import { db, now, type Db } from "@server/db";
import { hashToken, newToken } from "@server/auth/tokens";
import { likePattern, pageWindow, type PageWindow } from "~/models/admin/admin";
import { recordSecurityEvent, type RequestSource } from "~/models/accounts/security-events.server";
import { refuse } from "~/models/shared/refusal";
import { createInvitation, findUserByEmail, INVITATION_DAYS, normalizeEmail } from "~/models/accounts/users.server";

/**
 * An organisation's members and open invitations (decision 041): what its administrator (level 3) manages
 * on /my-organization/users. Every function takes the session's organisation and touches only its rows; every change
 * records its security event (decision 039) in the same transaction. The organisation never loses its last active
 * level-3 member. A refused change throws a `Refusal` (`MEMBER_REFUSALS`).
 */

/**
 * Why a change of members is refused: an address that already has an account or an open invitation (conflict, on the
 * `email` field), a user or an open invitation that is not the organisation's (not-found), the last active
 * administrator (conflict).
 */
export const MEMBER_REFUSALS = ["already-member", "already-invited", "member-not-found", "invitation-not-found", "last-admin", "operator-account"] as const;
export type MemberRefusal = (typeof MEMBER_REFUSALS)[number];

export const ACCESS_LEVELS = [1, 2, 3] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export interface Member {
  id: number;
  email: string;
  accessLevel: number;
  deactivatedAt: string | null;
  /** An administrator of the installation (is_admin): changed only by another one (see `operatorGuard`). */
  isOperator: boolean;
  /** The latest successful sign-in in the security log. */
  lastSignInAt: string | null;
}

/** A page of members: how many there are in all and this page's window (the house paging, `pageWindow`). */
export interface MemberPage extends PageWindow {
  rows: Member[];
  total: number;
}

/** Members on a page of the list and open invitations shown at most (the newest; a search finds the others). */
export const MEMBERS_PAGE_SIZE = 50;
export const INVITATIONS_SHOWN = 50;

/** Where `search` (an email or part of one, as `searchTerm` made it) narrows a list: lower-case, matched literally. */
const emailLike = (column: "users.email" | "invitations.email", search: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${likePattern(search.toLowerCase())} escape '\\'`;

/**
 * One page of the organisation's members by email (as before paging), searched by email; counted and sliced in SQL,
 * always within the session's organisation. A page past the end shows the last one.
 */
export async function listMembers({
  organizationId,
  search = null,
  page = null,
}: {
  organizationId: number;
  search?: string | null;
  page?: number | null;
}): Promise<MemberPage> {
  let base = db().selectFrom("users").where("users.organization_id", "=", organizationId);
  if (search) base = base.where(emailLike("users.email", search));
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow()).total);
  const window = pageWindow(total, page, MEMBERS_PAGE_SIZE);
  const rows = await base
    .select((eb) => [
      "users.id",
      "users.email",
      "users.access_level",
      "users.deactivated_at",
      "users.is_admin",
      eb
        .selectFrom("security_events")
        .select((e) => e.fn.max("security_events.at").as("at"))
        .whereRef("security_events.user_id", "=", "users.id")
        .where("security_events.kind", "=", "sign_in")
        .as("last_sign_in_at"),
    ])
    .orderBy("users.email")
    .orderBy("users.id")
    .limit(window.pageSize)
    .offset(window.offset)
    .execute();
  return {
    ...window,
    total,
    rows: rows.map((r) => ({
      id: r.id,
      email: r.email,
      accessLevel: r.access_level,
      deactivatedAt: r.deactivated_at,
      isOperator: r.is_admin === 1,
      lastSignInAt: (r.last_sign_in_at as string | null) ?? null,
    })),
  };
}

export interface OpenInvitation {
  id: number;
  email: string;
  accessLevel: number;
  sentAt: string;
  expiresAt: string;
}

/**
 * The organisation's open invitations, newest first, at most INVITATIONS_SHOWN (`total` counts them all), searched by
 * email as the members are: an older one is found by its address.
 */
export async function listOpenInvitations({
  organizationId,
  search = null,
}: {
  organizationId: number;
  search?: string | null;
}): Promise<{ rows: OpenInvitation[]; total: number }> {
  let base = db().selectFrom("invitations").where("organization_id", "=", organizationId).where("accepted_at", "is", null).where("expires_at", ">", now());
  if (search) base = base.where(emailLike("invitations.email", search));
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow()).total);
  const rows = await base
    .select(["id", "email", "access_level", "created_at", "expires_at"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(INVITATIONS_SHOWN)
    .execute();
  return { total, rows: rows.map((r) => ({ id: r.id, email: r.email, accessLevel: r.access_level, sentAt: r.created_at, expiresAt: r.expires_at })) };
}

interface Actor {
  organizationId: number;
  actorUserId: number;
  /** The acting member is an administrator of the installation (is_admin). */
  actorIsOperator: boolean;
  source: RequestSource | null;
}

/**
 * Invites an address to the organisation at a level, through the existing invitation flow (/invite-signup): the new
 * link's token and the address as stored.
 */
export async function inviteMember(input: Actor & { email: string; accessLevel: AccessLevel }): Promise<{ token: string; email: string }> {
  const email = normalizeEmail(input.email);
  if (await findUserByEmail(email)) throw refuse("conflict", "already-member", { field: "email" });
  const open = await db()
    .selectFrom("invitations")
    .select("id")
    .where("organization_id", "=", input.organizationId)
    .where("email", "=", email)
    .where("accepted_at", "is", null)
    .where("expires_at", ">", now())
    .executeTakeFirst();
  if (open) throw refuse("conflict", "already-invited", { field: "email" });
  const token = await createInvitation({ email, organizationId: input.organizationId, accessLevel: input.accessLevel, invitedBy: input.actorUserId });
  await recordSecurityEvent({
    kind: "invitation_sent",
    userId: null,
    email,
    actorUserId: input.actorUserId,
    organizationId: input.organizationId,
    source: input.source,
    detail: { accessLevel: input.accessLevel },
  });
  return { token, email };
}

/** A new link for an open invitation: the old one stops working, the invitation runs INVITATION_DAYS again. */
export async function resendInvitation(input: Actor & { id: number }): Promise<{ token: string; email: string }> {
  const token = newToken();
  return db()
    .transaction()
    .execute(async (trx) => {
      const invitation = await openInvitation(trx, input.organizationId, input.id);
      if (!invitation) throw refuse("not-found", "invitation-not-found");
      await trx
        .updateTable("invitations")
        .set({ token_hash: hashToken(token), created_at: now(), expires_at: new Date(Date.now() + INVITATION_DAYS * 86_400_000).toISOString() })
        .where("id", "=", invitation.id)
        .execute();
      await recordSecurityEvent(
        {
          kind: "invitation_sent",
          userId: null,
          email: invitation.email,
          actorUserId: input.actorUserId,
          organizationId: input.organizationId,
          source: input.source,
          detail: { accessLevel: invitation.access_level, resent: true },
        },
        trx,
      );
      return { token, email: invitation.email };
    });
}

export async function revokeInvitation(input: Actor & { id: number }): Promise<void> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const invitation = await openInvitation(trx, input.organizationId, input.id);
      if (!invitation) throw refuse("not-found", "invitation-not-found");
      await trx.deleteFrom("invitations").where("id", "=", invitation.id).execute();
      await recordSecurityEvent(
        {
          kind: "invitation_revoked",
          userId: null,
          email: invitation.email,
          actorUserId: input.actorUserId,
          organizationId: input.organizationId,
          source: input.source,
        },
        trx,
      );
    });
}

function openInvitation(trx: Db, organizationId: number, id: number) {
  return trx
    .selectFrom("invitations")
    .select(["id", "email", "access_level"])
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .where("accepted_at", "is", null)
    .where("expires_at", ">", now())
    .executeTakeFirst();
}

/** A member change that was asked for and already holds is no change and no refusal. */
export type MemberChange = "done" | "unchanged";

function memberRow(trx: Db, organizationId: number, id: number) {
  return trx
    .selectFrom("users")
    .select(["id", "email", "access_level", "deactivated_at", "is_admin"])
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
}

/**
 * An administrator of the installation (is_admin) belongs to an organisation like anyone, but the organisation's own
 * administrators (level 3) may not lower or deactivate that account: it would lock the operator out of the
 * installation. Only another administrator of the installation changes it (here or under Administration → Users).
 */
function operatorGuard(member: { is_admin: number }, actor: Actor): void {
  if (member.is_admin === 1 && !actor.actorIsOperator) throw refuse("forbidden", "operator-account");
}

/** Whether someone other than `id` is an active level-3 member of the organisation. */
async function anotherActiveAdmin(trx: Db, organizationId: number, id: number): Promise<boolean> {
  const row = await trx
    .selectFrom("users")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("access_level", ">=", 3)
    .where("deactivated_at", "is", null)
    .where("id", "!=", id)
    .executeTakeFirst();
  return Boolean(row);
}

export async function changeMemberLevel(input: Actor & { id: number; accessLevel: AccessLevel }): Promise<MemberChange> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const member = await memberRow(trx, input.organizationId, input.id);
      if (!member) throw refuse("not-found", "member-not-found");
      if (member.access_level === input.accessLevel) return "unchanged";
      operatorGuard(member, input);
      if (
        member.access_level >= 3 &&
        input.accessLevel < 3 &&
        member.deactivated_at == null &&
        !(await anotherActiveAdmin(trx, input.organizationId, member.id))
      )
        throw refuse("conflict", "last-admin");
      await trx.updateTable("users").set({ access_level: input.accessLevel }).where("id", "=", member.id).execute();
      await recordSecurityEvent(
        {
          kind: "level_changed",
          userId: member.id,
          email: member.email,
          actorUserId: input.actorUserId,
          organizationId: input.organizationId,
          source: input.source,
          detail: { from: member.access_level, to: input.accessLevel },
        },
        trx,
      );
      return "done";
    });
}

/** Deactivates a member: their sessions end at once (decision 039) and they cannot sign in until reactivated. */
export async function deactivateMember(input: Actor & { id: number }): Promise<MemberChange> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const member = await memberRow(trx, input.organizationId, input.id);
      if (!member) throw refuse("not-found", "member-not-found");
      if (member.deactivated_at != null) return "unchanged";
      operatorGuard(member, input);
      if (member.access_level >= 3 && !(await anotherActiveAdmin(trx, input.organizationId, member.id))) throw refuse("conflict", "last-admin");
      await trx.updateTable("users").set({ deactivated_at: now() }).where("id", "=", member.id).execute();
      await trx.deleteFrom("sessions").where("user_id", "=", member.id).execute();
      await recordSecurityEvent(
        {
          kind: "user_deactivated",
          userId: member.id,
          email: member.email,
          actorUserId: input.actorUserId,
          organizationId: input.organizationId,
          source: input.source,
        },
        trx,
      );
      return "done";
    });
}

export async function reactivateMember(input: Actor & { id: number }): Promise<MemberChange> {
  return db()
    .transaction()
    .execute(async (trx) => {
      const member = await memberRow(trx, input.organizationId, input.id);
      if (!member) throw refuse("not-found", "member-not-found");
      if (member.deactivated_at == null) return "unchanged";
      await trx.updateTable("users").set({ deactivated_at: null }).where("id", "=", member.id).execute();
      await recordSecurityEvent(
        {
          kind: "user_reactivated",
          userId: member.id,
          email: member.email,
          actorUserId: input.actorUserId,
          organizationId: input.organizationId,
          source: input.source,
        },
        trx,
      );
      return "done";
    });
}
