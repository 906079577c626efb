import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { userForToken } from "@server/auth/session";
import { readNotice } from "~/http/notice.server";
import { action, loader } from "~/routes/_app.my-organization.users";
import { loader as inviteLoader } from "~/routes/invite-signup";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";

/**
 * /my-organization/users against a real SQLite file: who may read and change (level 1 and 2 read without the
 * sign-ins, another organisation's ids are 404 and change nothing, a visitor is sent away), inviting with the level,
 * resending (the old link dies) and revoking, level changes, deactivation (sessions end at once) and the rule that the
 * organisation keeps an active administrator. Every change lands in the security log.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const PATH = "/my-organization/users";
const w = {} as {
  orgA: number;
  orgB: number;
  admin: string;
  adminId: number;
  analyst: string;
  analystId: number;
  viewer: string;
  adminB: string;
  memberBId: number;
  respondent: string;
};

function post(fields: Record<string, string>, token?: string, path = PATH): Request {
  return new Request(BASE + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, "User-Agent": "route-test", ...(token ? { Cookie: `token=${token}` } : {}) },
  });
}
const run = (fn: Fn, request: Request) => call(fn, { request, params: {}, context: { clientAddress: "192.0.2.7" } });
const page = (token?: string, query = "") => run(loader, get(`${PATH}${query}`, token ? { Cookie: `token=${token}` } : {}));
const idOf = async (email: string) => (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
const userRow = (id: number) => db().selectFrom("users").select(["access_level", "deactivated_at"]).where("id", "=", id).executeTakeFirstOrThrow();
const events = (kind: string) => db().selectFrom("security_events").selectAll().where("kind", "=", kind).orderBy("id").execute();
const formErrors = async (res: Response) => ((await res.json()) as { result: { error: Record<string, string[]> } }).result.error;
const linkIn = (mail: string) => mail.match(/\/invite-signup\?token=([A-Za-z0-9_%-]+)/)?.[1] ?? null;
const mailsTo = (email: string) => outbox().filter((m) => m.includes(`To: ${email}`));
async function noticeOf(res: Response): Promise<string | null> {
  const cookie = res.headers.get("Set-Cookie")?.split(";")[0] ?? "";
  return (await readNotice(new Request(BASE, { headers: { Cookie: cookie } }))).notice;
}
const invitationOpen = async (token: string) => {
  const res = await run(inviteLoader, get(`/invite-signup?token=${token}`));
  return ((await res.json()) as { invitation: unknown }).invitation !== null;
};

beforeAll(async () => {
  w.orgA = await makeOrg("Members Customer A", "customer");
  w.orgB = await makeOrg("Members Customer B", "customer");
  w.admin = await signedIn("admin@members.test", w.orgA, 3);
  w.adminId = await idOf("admin@members.test");
  w.analyst = await signedIn("analyst@members.test", w.orgA, 2);
  w.analystId = await idOf("analyst@members.test");
  w.viewer = await signedIn("viewer@members.test", w.orgA, 1);
  w.adminB = await signedIn("admin-b@members.test", w.orgB, 3);
  w.memberBId = await idOf("admin-b@members.test");
  const supplier = await makeOrg("Members Supplier AS", "supplier", "912345670");
  w.respondent = await signedIn("respondent@members.test", supplier, 3);
});

describe("who may see the members", () => {
  it("every member reads the list; only the administrator sees sign-ins and invitations", async () => {
    const asAdmin = (await (await page(w.admin)).json()) as { manage: boolean; members: { email: string }[] };
    expect(asAdmin.manage).toBe(true);
    expect(asAdmin.members.map((m) => m.email)).toEqual(["admin@members.test", "analyst@members.test", "viewer@members.test"]);
    for (const token of [w.viewer, w.analyst]) {
      const res = await page(token);
      expect(res.status).toBe(200);
      const data = (await res.json()) as { manage: boolean; members: { email: string; lastSignInAt: string | null }[]; invitations: unknown[] };
      expect([data.manage, data.invitations, data.members.map((m) => m.lastSignInAt)]).toEqual([false, [], [null, null, null]]);
    }
    const visitor = await page();
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
  });

  it("a supplier organisation's administrator manages their own organisation's users", async () => {
    const data = (await (await page(w.respondent)).json()) as { manage: boolean; members: { email: string }[] };
    expect([data.manage, data.members.map((m) => m.email)]).toEqual([true, ["respondent@members.test"]]);
  });

  it("shows the last sign-in from the security log", async () => {
    await db()
      .insertInto("security_events")
      .values({ at: "2026-03-01T10:00:00.000Z", kind: "sign_in", user_id: w.analystId, email: "analyst@members.test", organization_id: w.orgA })
      .execute();
    const data = (await (await page(w.admin)).json()) as { members: { id: number; lastSignInAt: string | null }[] };
    expect(data.members.find((m) => m.id === w.analystId)?.lastSignInAt).toBe("2026-03-01T10:00:00.000Z");
  });
});

describe("changes from the wrong side", () => {
  it("refuses every change to level 1 and 2 and to a visitor, and changes nothing", async () => {
    const before = await db().selectFrom("users").selectAll().orderBy("id").execute();
    const changes: Record<string, string>[] = [
      { intent: "invite", email: "x@members.test", accessLevel: "2" },
      { intent: "level", id: String(w.analystId), accessLevel: "3" },
      { intent: "deactivate", id: String(w.adminId) },
    ];
    for (const fields of changes) {
      for (const token of [w.viewer, w.analyst]) expect((await run(action, post(fields, token))).status).toBe(403);
      expect((await run(action, post(fields))).status).toBe(302);
    }
    expect(await db().selectFrom("users").selectAll().orderBy("id").execute()).toEqual(before);
    expect(await db().selectFrom("invitations").selectAll().execute()).toEqual([]);
  });

  it("answers 404 for another organisation's user and changes nothing", async () => {
    for (const intent of ["level", "deactivate", "reactivate"]) {
      const res = await run(action, post({ intent, id: String(w.memberBId), accessLevel: "1" }, w.admin));
      expect([intent, res.status]).toEqual([intent, 404]);
    }
    expect(await userRow(w.memberBId)).toEqual({ access_level: 3, deactivated_at: null });
    expect(await userForToken(w.adminB)).not.toBeNull();
  });

  it.each([
    [{ intent: "level", id: "abc", accessLevel: "2" }],
    [{ intent: "level", id: "1", accessLevel: "4" }],
    [{ intent: "deactivate", id: "-1" }],
    [{ intent: "invite", email: "not an email", accessLevel: "1" }],
    [{ intent: "invite", email: "ok@members.test", accessLevel: "0" }],
    [{ intent: "unknown", id: "1" }],
    [{}],
  ])("answers 400 to %j", async (fields) => {
    expect((await run(action, post(fields, w.admin))).status).toBe(400);
  });
});

describe("invitations", () => {
  it("invites with the chosen level, mails the link, and the link signs up into the organisation", async () => {
    const res = await run(action, post({ intent: "invite", email: " New.Colleague@Members.test ", accessLevel: "2", redirectTo: PATH }, w.admin));
    expect([res.status, res.headers.get("Location")]).toEqual([302, PATH]);
    const [invitation] = await db().selectFrom("invitations").selectAll().where("organization_id", "=", w.orgA).execute();
    expect(invitation).toMatchObject({ email: "new.colleague@members.test", access_level: 2, invited_by: w.adminId, accepted_at: null });
    const mails = mailsTo("new.colleague@members.test");
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("Subject: You are invited to Members Customer A");
    const token = linkIn(mails[0])!;
    expect(await invitationOpen(token)).toBe(true);
    expect((await events("invitation_sent")).at(-1)).toMatchObject({
      email: "new.colleague@members.test",
      actor_user_id: w.adminId,
      organization_id: w.orgA,
      ip: "192.0.2.7",
      user_agent: "route-test",
    });
    const data = (await (await page(w.admin)).json()) as { invitations: { email: string; accessLevel: number }[] };
    expect(data.invitations).toMatchObject([{ email: "new.colleague@members.test", accessLevel: 2 }]);
  });

  it("refuses an address with an account or an open invitation (409) and sends nothing", async () => {
    const mailCount = outbox().length;
    const member = await run(action, post({ intent: "invite", email: "viewer@members.test", accessLevel: "1" }, w.admin));
    expect(member.status).toBe(409);
    expect((await formErrors(member)).email).toEqual(["This address already has an account. A user can belong to one organization only."]);
    const twice = await run(action, post({ intent: "invite", email: "new.colleague@members.test", accessLevel: "1" }, w.admin));
    expect(twice.status).toBe(409);
    expect(outbox().length).toBe(mailCount);
  });

  it("resending mails a new link and voids the old one; another organisation cannot resend or revoke it", async () => {
    const [invitation] = await db().selectFrom("invitations").selectAll().where("email", "=", "new.colleague@members.test").execute();
    const oldToken = linkIn(mailsTo("new.colleague@members.test")[0])!;
    for (const intent of ["resend", "revoke"]) expect((await run(action, post({ intent, id: String(invitation.id) }, w.adminB))).status).toBe(404);
    expect(mailsTo("new.colleague@members.test")).toHaveLength(1);
    const res = await run(action, post({ intent: "resend", id: String(invitation.id) }, w.admin));
    // With JavaScript (no redirectTo) the answer is the same redirect with its notice, which the fetcher follows.
    expect([res.status, res.headers.get("Location"), await noticeOf(res)]).toEqual([302, PATH, "organization:users.notices.resent"]);
    const mails = mailsTo("new.colleague@members.test");
    expect(mails).toHaveLength(2);
    const newToken = linkIn(mails[1])!;
    expect(newToken).not.toBe(oldToken);
    expect(await invitationOpen(oldToken)).toBe(false);
    expect(await invitationOpen(newToken)).toBe(true);
    expect(JSON.parse((await events("invitation_sent")).at(-1)!.detail!)).toEqual({ accessLevel: 2, resent: true });
  });

  it("revoking voids the link and logs it", async () => {
    const [invitation] = await db().selectFrom("invitations").selectAll().where("email", "=", "new.colleague@members.test").execute();
    const token = linkIn(mailsTo("new.colleague@members.test")[1])!;
    const res = await run(action, post({ intent: "revoke", id: String(invitation.id), redirectTo: PATH }, w.admin));
    expect([res.status, res.headers.get("Location")]).toEqual([302, PATH]);
    expect(await invitationOpen(token)).toBe(false);
    expect((await events("invitation_revoked")).at(-1)).toMatchObject({ email: "new.colleague@members.test", actor_user_id: w.adminId });
    expect((await run(action, post({ intent: "revoke", id: String(invitation.id) }, w.admin))).status).toBe(404);
  });
});

describe("levels, deactivation and the last administrator", () => {
  it("changes a member's level and logs from and to", async () => {
    const res = await run(action, post({ intent: "level", id: String(w.analystId), accessLevel: "3", redirectTo: PATH }, w.admin));
    expect([res.status, res.headers.get("Location")]).toEqual([302, PATH]);
    expect((await userRow(w.analystId)).access_level).toBe(3);
    expect(JSON.parse((await events("level_changed")).at(-1)!.detail!)).toEqual({ from: 2, to: 3 });
  });

  it("deactivation ends the member's sessions at once; reactivation lets them in again", async () => {
    const viewerId = await idOf("viewer@members.test");
    expect(await userForToken(w.viewer)).not.toBeNull();
    const res = await run(action, post({ intent: "deactivate", id: String(viewerId), redirectTo: PATH }, w.admin, `${PATH}?deactivate=${viewerId}`));
    expect([res.status, res.headers.get("Location")]).toEqual([302, PATH]);
    expect((await userRow(viewerId)).deactivated_at).not.toBeNull();
    expect(await db().selectFrom("sessions").select("id").where("user_id", "=", viewerId).execute()).toEqual([]);
    expect(await userForToken(w.viewer)).toBeNull();
    expect((await page(w.viewer)).status).toBe(302);
    expect((await events("user_deactivated")).at(-1)).toMatchObject({ user_id: viewerId, actor_user_id: w.adminId });
    expect((await run(action, post({ intent: "reactivate", id: String(viewerId) }, w.admin))).status).toBe(302);
    expect((await userRow(viewerId)).deactivated_at).toBeNull();
    expect((await events("user_reactivated")).at(-1)).toMatchObject({ user_id: viewerId });
  });

  it("never leaves the organisation without an active administrator, the administrator themself included", async () => {
    // Two administrators now (the analyst was promoted): one may go, the last one may not.
    expect((await run(action, post({ intent: "deactivate", id: String(w.analystId) }, w.admin))).status).toBe(302);
    const refused: Record<string, string>[] = [
      { intent: "level", id: String(w.adminId), accessLevel: "2" },
      { intent: "deactivate", id: String(w.adminId) },
    ];
    for (const fields of refused) {
      const res = await run(action, post(fields, w.admin));
      expect(res.status).toBe(409);
      expect((await formErrors(res))[""]).toEqual([
        "The organization must keep at least one active administrator. Make another member an administrator first.",
      ]);
    }
    expect(await userRow(w.adminId)).toEqual({ access_level: 3, deactivated_at: null });
    expect(await userForToken(w.admin)).not.toBeNull();
    // A deactivated administrator does not count; reactivated, they do, and the first may step down.
    expect((await run(action, post({ intent: "reactivate", id: String(w.analystId) }, w.admin))).status).toBe(302);
    expect((await run(action, post({ intent: "level", id: String(w.adminId), accessLevel: "2" }, w.admin))).status).toBe(302);
    expect((await userRow(w.adminId)).access_level).toBe(2);
  });
});
