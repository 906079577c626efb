import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { userForToken } from "@server/auth/session";
import { readNotice } from "~/http/notice.server";
import { action, loader } from "~/routes/_app.my-organization.users/route";
import { loader as inviteLoader } from "~/routes/invite-signup";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";
import { createUsers } from "../helpers/factory";

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
    const asAdmin = (await (await page(w.admin)).json()) as { manage: boolean; members: { rows: { email: string }[] } };
    expect(asAdmin.manage).toBe(true);
    expect(asAdmin.members.rows.map((m) => m.email)).toEqual(["admin@members.test", "analyst@members.test", "viewer@members.test"]);
    for (const token of [w.viewer, w.analyst]) {
      const res = await page(token);
      expect(res.status).toBe(200);
      const data = (await res.json()) as {
        manage: boolean;
        members: { rows: { email: string; lastSignInAt: string | null }[] };
        invitations: { rows: unknown[]; total: number };
      };
      expect([data.manage, data.invitations, data.members.rows.map((m) => m.lastSignInAt)]).toEqual([false, { rows: [], total: 0 }, [null, null, null]]);
    }
    const visitor = await page();
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
  });

  it("a supplier organisation's administrator manages their own organisation's users", async () => {
    const data = (await (await page(w.respondent)).json()) as { manage: boolean; members: { rows: { email: string }[] } };
    expect([data.manage, data.members.rows.map((m) => m.email)]).toEqual([true, ["respondent@members.test"]]);
  });

  it("shows the last sign-in from the security log", async () => {
    await db()
      .insertInto("security_events")
      .values({ at: "2026-03-01T10:00:00.000Z", kind: "sign_in", user_id: w.analystId, email: "analyst@members.test", organization_id: w.orgA })
      .execute();
    const data = (await (await page(w.admin)).json()) as { members: { rows: { id: number; lastSignInAt: string | null }[] } };
    expect(data.members.rows.find((m) => m.id === w.analystId)?.lastSignInAt).toBe("2026-03-01T10:00:00.000Z");
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
    // The mail says who invited.
    expect(mails[0]).toContain("admin@members.test has invited you to join Members Customer A");
    const token = linkIn(mails[0])!;
    expect(await invitationOpen(token)).toBe(true);
    expect((await events("invitation_sent")).at(-1)).toMatchObject({
      email: "new.colleague@members.test",
      actor_user_id: w.adminId,
      organization_id: w.orgA,
      ip: "192.0.2.7",
      user_agent: "route-test",
    });
    const data = (await (await page(w.admin)).json()) as { invitations: { rows: { email: string; accessLevel: number }[] } };
    expect(data.invitations.rows).toMatchObject([{ email: "new.colleague@members.test", accessLevel: 2 }]);
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

describe("the installation's administrator in an organisation", () => {
  it("the organisation's level-3 member can neither lower nor deactivate an is_admin account, and the list offers neither", async () => {
    const org = await makeOrg("Members Operator Org", "customer");
    const operator = await signedIn("operator@members.test", org, 3);
    const operatorId = await idOf("operator@members.test");
    await db().updateTable("users").set({ is_admin: 1 }).where("id", "=", operatorId).execute();
    const orgAdmin = await signedIn("org-admin@members.test", org, 3);
    const orgAdminId = await idOf("org-admin@members.test");
    const refused: Record<string, string>[] = [
      { intent: "level", id: String(operatorId), accessLevel: "1" },
      { intent: "deactivate", id: String(operatorId) },
    ];
    for (const fields of refused) {
      const res = await run(action, post(fields, orgAdmin));
      expect(res.status, fields.intent).toBe(403);
      expect((await formErrors(res))[""]).toEqual([
        "This account administers the whole installation: only an administrator of the installation can change its level or deactivate it (Administration → Users).",
      ]);
    }
    expect(await userRow(operatorId)).toEqual({ access_level: 3, deactivated_at: null });
    expect(await userForToken(operator)).not.toBeNull();
    const asOrgAdmin = (await (await page(orgAdmin)).json()) as { operator: boolean; members: { rows: { id: number; isOperator: boolean }[] } };
    expect(asOrgAdmin.operator).toBe(false);
    expect(asOrgAdmin.members.rows.find((m) => m.id === operatorId)?.isOperator).toBe(true);
    // The installation's administrator changes the organisation's members as any level-3 member does.
    expect((await run(action, post({ intent: "level", id: String(orgAdminId), accessLevel: "2" }, operator))).status).toBe(302);
    expect((await userRow(orgAdminId)).access_level).toBe(2);
  });
});

describe("an organisation with many members: search and paging", () => {
  const BIG = "/my-organization/users";
  const p = {} as { org: number; other: number; admin: string; viewer: string };
  const emails = Array.from({ length: 120 }, (_, i) => `m${String(i + 1).padStart(3, "0")}@paged.test`);
  type Listed = {
    q: string | null;
    members: { rows: { id: number; email: string }[]; page: number; pageCount: number; total: number };
    invitations: { rows: { email: string }[]; total: number };
    confirm: { id: number } | null;
  };
  const listed = async (token: string, query: string) => (await (await page(token, query)).json()) as Listed;

  beforeAll(async () => {
    p.org = await makeOrg("Paged Customer", "customer");
    p.other = await makeOrg("Paged Other", "customer");
    p.admin = await signedIn("boss@paged-admin.test", p.org, 3);
    p.viewer = await signedIn("viewer@paged-admin.test", p.org, 1);
    const row = (email: string, organizationId: number) => ({ email, organizationId, accessLevel: 1, createdAt: "2026-01-01T00:00:00.000Z" });
    await createUsers(emails.map((e) => row(e, p.org)));
    // Another organisation's members match the same searches: they must never show.
    await createUsers([row("m001@paged-other.test", p.other), row("m050@paged-other.test", p.other)]);
    const inviter = await idOf("boss@paged-admin.test");
    const invitation = (i: number, organizationId: number) => ({
      token_hash: `paged-${organizationId}-${i}`,
      email: `invitee${String(i).padStart(2, "0")}@paged.test`,
      organization_id: organizationId,
      access_level: 1,
      invited_by: inviter,
      created_at: new Date(Date.now() - (60 - i) * 60_000).toISOString(),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      accepted_at: null,
    });
    await db()
      .insertInto("invitations")
      .values(Array.from({ length: 60 }, (_, i) => invitation(i + 1, p.org)))
      .execute();
    await db().insertInto("invitations").values(invitation(7, p.other)).execute();
  });

  it("pages the members by email, 50 a page, and a page past the end shows the last", async () => {
    const all = [...emails, "boss@paged-admin.test", "viewer@paged-admin.test"].sort();
    const first = await listed(p.admin, "");
    expect([first.members.total, first.members.page, first.members.pageCount]).toEqual([122, 1, 3]);
    expect(first.members.rows.map((m) => m.email)).toEqual(all.slice(0, 50));
    const third = await listed(p.admin, "?page=3");
    expect(third.members.rows.map((m) => m.email)).toEqual(all.slice(100));
    expect((await listed(p.admin, "?page=99")).members.rows.map((m) => m.email)).toEqual(all.slice(100));
    expect((await listed(p.admin, "?page=abc")).members.page).toBe(1);
  });

  it("searches by email within the organisation only, case and LIKE characters taken literally", async () => {
    const found = await listed(p.admin, "?q=M05");
    expect(found.q).toBe("M05");
    expect(found.members.rows.map((m) => m.email)).toEqual(Array.from({ length: 10 }, (_, i) => `m05${i}@paged.test`));
    expect(found.members.total).toBe(10);
    expect((await listed(p.admin, "?q=paged-other")).members.total).toBe(0);
    expect((await listed(p.admin, "?q=m0_1")).members.total).toBe(0);
    expect((await listed(p.admin, "?q=%25")).members.total).toBe(0);
    // A level-1 member searches too; the other organisation's administrator never sees these members.
    expect((await listed(p.viewer, "?q=m05")).members.total).toBe(10);
    const other = await listed(w.adminB, "?q=paged");
    expect(other.members.rows.map((m) => m.email)).toEqual([]);
  });

  it("shows the newest 50 open invitations with their count; the search finds the older ones", async () => {
    const data = await listed(p.admin, "");
    expect(data.invitations.total).toBe(60);
    expect(data.invitations.rows.map((i) => i.email)).toEqual(Array.from({ length: 50 }, (_, i) => `invitee${String(60 - i).padStart(2, "0")}@paged.test`));
    const older = await listed(p.admin, "?q=invitee07");
    expect(older.invitations).toEqual({ total: 1, rows: [expect.objectContaining({ email: "invitee07@paged.test" })] });
    expect((await listed(p.viewer, "?q=invitee07")).invitations).toEqual({ rows: [], total: 0 });
  });

  it("every change comes back to the searched page: a plain post's redirectTo, a fetcher's posted URL", async () => {
    const target = await idOf("m052@paged.test");
    const searched = `${BIG}?q=m05&page=1`;
    const plain = await run(action, post({ intent: "level", id: String(target), accessLevel: "2", redirectTo: searched }, p.admin));
    expect([plain.status, plain.headers.get("Location")]).toEqual([302, searched]);
    // With JavaScript the post carries no redirectTo and goes to the page's own URL (here with the deactivation step).
    const step = await listed(p.admin, `?q=m05&deactivate=${target}`);
    expect(step.confirm?.id).toBe(target);
    const viaFetcher = await run(action, post({ intent: "deactivate", id: String(target) }, p.admin, `${BIG}?q=m05&page=2&deactivate=${target}`));
    expect([viaFetcher.status, viaFetcher.headers.get("Location"), await noticeOf(viaFetcher)]).toEqual([
      302,
      `${BIG}?q=m05&page=2`,
      "organization:users.notices.deactivated",
    ]);
    const back = await run(action, post({ intent: "reactivate", id: String(target) }, p.admin, `${BIG}?page=2`));
    expect(back.headers.get("Location")).toBe(`${BIG}?page=2`);
    const [invitation] = await db()
      .selectFrom("invitations")
      .select("id")
      .where("email", "=", "invitee07@paged.test")
      .where("organization_id", "=", p.org)
      .execute();
    const resent = await run(action, post({ intent: "resend", id: String(invitation.id) }, p.admin, `${BIG}?q=invitee07`));
    expect(resent.headers.get("Location")).toBe(`${BIG}?q=invitee07`);
    const revoked = await run(action, post({ intent: "revoke", id: String(invitation.id), redirectTo: `${BIG}?q=invitee07` }, p.admin));
    expect(revoked.headers.get("Location")).toBe(`${BIG}?q=invitee07`);
    // Only this list's own pages: anything else falls back to the list.
    const away = await run(action, post({ intent: "level", id: String(target), accessLevel: "1", redirectTo: "//evil.test/x" }, p.admin));
    expect(away.headers.get("Location")).toBe(BIG);
    expect(await userRow(target)).toEqual({ access_level: 1, deactivated_at: null });
  });

  it("another organisation's member or invitation is 404 from a searched page, nothing changed", async () => {
    const stranger = await idOf("m001@paged-other.test");
    const res = await run(action, post({ intent: "deactivate", id: String(stranger) }, p.admin, `${BIG}?q=m001`));
    expect(res.status).toBe(404);
    expect((await userRow(stranger)).deactivated_at).toBeNull();
    const [foreign] = await db().selectFrom("invitations").select("id").where("organization_id", "=", p.other).execute();
    expect((await run(action, post({ intent: "revoke", id: String(foreign.id) }, p.admin, `${BIG}?q=invitee07`))).status).toBe(404);
    expect(await db().selectFrom("invitations").select("id").where("id", "=", foreign.id).execute()).toHaveLength(1);
  });
});
