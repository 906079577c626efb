import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { createSession, userForToken } from "@server/auth/session";
import { action, loader } from "~/routes/_app.admin.organizations";
import { loader as inviteLoader } from "~/routes/invite-signup";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";

/**
 * /admin/organizations against a real SQLite file: only the installation's operator (403 for every level, 302 for a
 * visitor), the list (search, paging, members by level), create with a mailed level-3 invitation, data sharing,
 * deactivate (the members' sessions end) and reactivate — each recorded as an admin_action.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as { org: number; other: number; admin: string; adminId: number; members: Record<1 | 2 | 3, string>; respondent: string };

const run = (fn: Fn, request: Request) => call(fn, { request, params: {}, context: { clientAddress: "203.0.113.9" } });
const page = (token?: string, query = "") => run(loader, get(`/admin/organizations${query}`, token ? { Cookie: `token=${token}` } : {}));
function post(fields: Record<string, string>, token?: string, path = "/admin/organizations"): Request {
  return new Request(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...(token ? { Cookie: `token=${token}` } : {}) },
  });
}
const act = (fields: Record<string, string>, token = w.admin) => run(action, post(fields, token));
const adminEvents = () => db().selectFrom("security_events").selectAll().where("kind", "=", "admin_action").orderBy("id").execute();

beforeAll(async () => {
  const operatorOrg = await makeOrg("Operatør Drift AS", "customer");
  w.admin = await signedIn("operator@admin-orgs.test", operatorOrg, 1);
  w.adminId = (
    await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", "operator@admin-orgs.test").returning("id").executeTakeFirstOrThrow()
  ).id;
  w.org = await makeOrg("Adminkunde Ett AS", "customer", "923609016");
  w.other = await makeOrg("Leverandør Uten Brukere AS", "supplier", "987654325");
  w.members = {
    1: await signedIn("l1@admin-orgs.test", w.org, 1),
    2: await signedIn("l2@admin-orgs.test", w.org, 2),
    3: await signedIn("l3@admin-orgs.test", w.org, 3),
  };
  const supplierWithUsers = await makeOrg("Leverandør Med Brukere AS", "supplier");
  w.respondent = await signedIn("resp@admin-orgs.test", supplierWithUsers, 3);
});

describe("who may open /admin/organizations", () => {
  it("the operator; every level (and a respondent) gets 403 for the page and every action; a visitor goes to the start page", async () => {
    expect((await page(w.admin)).status).toBe(200);
    for (const token of [w.members[1], w.members[2], w.members[3], w.respondent]) {
      expect((await page(token)).status).toBe(403);
      for (const intent of ["create", "sharing-on", "sharing-off", "deactivate", "reactivate"])
        expect([intent, (await act({ intent, id: String(w.org), name: "X", email: "x@x.test" }, token)).status]).toEqual([intent, 403]);
    }
    const visitor = await page();
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
    const visitorPost = await run(action, post({ intent: "sharing-on", id: String(w.org) }));
    expect(visitorPost.status).toBe(302);
    const org = await db().selectFrom("organizations").select(["data_sharing_enabled", "deactivated_at"]).where("id", "=", w.org).executeTakeFirstOrThrow();
    expect(org).toEqual({ data_sharing_enabled: 0, deactivated_at: null });
  });
});

describe("the list", () => {
  it("shows customers and supplier organisations with users, members by level; searches by name and number", async () => {
    const all = (await (await page(w.admin, "?q=admin")).json()) as { list: { rows: { name: string; members: number; levels: Record<string, number> }[] } };
    const names = all.list.rows.map((r) => r.name);
    expect(names).toContain("Adminkunde Ett AS");
    const row = all.list.rows.find((r) => r.name === "Adminkunde Ett AS")!;
    expect([row.members, row.levels]).toEqual([3, { 1: 1, 2: 1, 3: 1 }]);
    const everything = (await (await page(w.admin, "?q=Leverand")).json()) as { list: { rows: { name: string }[] } };
    expect(everything.list.rows.map((r) => r.name)).toEqual(["Leverandør Med Brukere AS"]);
    const byNumber = (await (await page(w.admin, "?q=923%20609%20016")).json()) as { list: { rows: { name: string }[] } };
    expect(byNumber.list.rows.map((r) => r.name)).toEqual(["Adminkunde Ett AS"]);
    const wild = (await (await page(w.admin, "?q=%25")).json()) as { list: { total: number } };
    expect(wild.list.total).toBe(0);
  });

  it("pages by 25 and shows the last page for a page past the end", async () => {
    for (let i = 0; i < 30; i++) await makeOrg(`Sidekunde ${String(i).padStart(2, "0")}`, "customer");
    const first = (await (await page(w.admin, "?q=Sidekunde")).json()) as { list: { rows: unknown[]; total: number; pageCount: number } };
    expect([first.list.rows.length, first.list.total, first.list.pageCount]).toEqual([25, 30, 2]);
    const past = (await (await page(w.admin, "?q=Sidekunde&page=9")).json()) as { list: { rows: unknown[]; page: number } };
    expect([past.list.rows.length, past.list.page]).toEqual([5, 2]);
  });
});

describe("create a customer organisation", () => {
  it("creates it and mails its first administrator a level-3 invitation that opens the sign-up", async () => {
    const before = outbox().length;
    const response = await act({ intent: "create", name: "Nykunde Invitert AS", orgNumber: "", email: "Ny.Admin@Nykunde.test", language: "no" });
    expect(response.status).toBe(302);
    const org = await db().selectFrom("organizations").selectAll().where("name", "=", "Nykunde Invitert AS").executeTakeFirstOrThrow();
    expect([org.kind, org.org_number]).toEqual(["customer", null]);
    const invitation = await db().selectFrom("invitations").selectAll().where("organization_id", "=", org.id).executeTakeFirstOrThrow();
    expect([invitation.email, invitation.access_level, invitation.invited_by]).toEqual(["ny.admin@nykunde.test", 3, w.adminId]);
    const mails = outbox().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("To: ny.admin@nykunde.test");
    expect(mails[0]).toContain("Nykunde Invitert AS");
    const token = /invite-signup\?token=([^\s]+)/.exec(mails[0])![1];
    const invite = (await (await run(inviteLoader, get(`/invite-signup?token=${token}`))).json()) as { invitation: { organization: string; email: string } };
    expect(invite.invitation).toEqual({ organization: "Nykunde Invitert AS", email: "ny.admin@nykunde.test" });
    const event = (await adminEvents()).at(-1)!;
    expect([event.actor_user_id, event.organization_id, event.ip, JSON.parse(event.detail!).action]).toEqual([
      w.adminId,
      org.id,
      "203.0.113.9",
      "organization_created",
    ]);
    expect(event.detail).not.toContain(token);
  });

  it("refuses a missing name, a bad number, a bad email and a taken email with 400/409, nothing created", async () => {
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom("organizations")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const errors = async (fields: Record<string, string>) => {
      const response = await act({ intent: "create", language: "en", ...fields });
      return [response.status, Object.keys(((await response.json()) as { result: { error: Record<string, string[]> } }).result.error)];
    };
    expect(await errors({ name: " ", email: "a@b.test" })).toEqual([400, ["name"]]);
    expect(await errors({ name: "X", orgNumber: "123456789", email: "a@b.test" })).toEqual([400, ["orgNumber"]]);
    expect(await errors({ name: "X", email: "not-an-email" })).toEqual([400, ["email"]]);
    expect(await errors({ name: "X", email: "L3@admin-orgs.test" })).toEqual([409, ["email"]]);
    expect((await act({ intent: "explode" })).status).toBe(400);
    expect(await count()).toBe(before);
  });
});

describe("data sharing, deactivation", () => {
  it("turns data sharing on and off, recorded", async () => {
    expect((await act({ intent: "sharing-on", id: String(w.org) })).status).toBe(302);
    expect((await db().selectFrom("organizations").select("data_sharing_enabled").where("id", "=", w.org).executeTakeFirstOrThrow()).data_sharing_enabled).toBe(
      1,
    );
    expect((await act({ intent: "sharing-off", id: String(w.org) })).status).toBe(302);
    expect((await db().selectFrom("organizations").select("data_sharing_enabled").where("id", "=", w.org).executeTakeFirstOrThrow()).data_sharing_enabled).toBe(
      0,
    );
    expect((await adminEvents()).slice(-2).map((e) => JSON.parse(e.detail!).action)).toEqual(["data_sharing_on", "data_sharing_off"]);
    // With JavaScript the form posts through a fetcher to the searched list's own URL, without redirectTo: back there.
    const fetched = await run(action, post({ intent: "sharing-off", id: String(w.org) }, w.admin, "/admin/organizations?q=Adminkunde&page=1"));
    expect([fetched.status, fetched.headers.get("Location")]).toEqual([302, "/admin/organizations?q=Adminkunde&page=1"]);
    expect((await act({ intent: "sharing-on", id: "999999" })).status).toBe(404);
    expect((await act({ intent: "sharing-on", id: "0x10" })).status).toBe(400);
  });

  it("deactivation ends every member's session at once and reactivation lets them sign in again; never one's own organisation", async () => {
    const extra = await db().selectFrom("users").select("id").where("email", "=", "l2@admin-orgs.test").executeTakeFirstOrThrow();
    const second = (await createSession(extra.id, null)).token;
    const confirm = (await (await page(w.admin, `?deactivate=${w.org}`)).json()) as { confirm: { id: number; name: string } };
    expect(confirm.confirm).toEqual({ id: w.org, name: "Adminkunde Ett AS" });
    const response = await act({ intent: "deactivate", id: String(w.org), redirectTo: `/admin/organizations?q=x&deactivate=${w.org}` });
    expect([response.status, response.headers.get("Location")]).toEqual([302, "/admin/organizations?q=x"]);
    const sessions = await db()
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select("sessions.id")
      .where("users.organization_id", "=", w.org)
      .execute();
    expect(sessions).toEqual([]);
    expect(await userForToken(second)).toBeNull();
    expect((await page(w.members[3])).status).toBe(302);
    const event = (await adminEvents()).at(-1)!;
    expect(JSON.parse(event.detail!)).toMatchObject({ action: "organization_deactivated", sessionsEnded: 4 });
    expect((await act({ intent: "reactivate", id: String(w.org) })).status).toBe(302);
    expect((await db().selectFrom("organizations").select("deactivated_at").where("id", "=", w.org).executeTakeFirstOrThrow()).deactivated_at).toBeNull();
    const own = await db().selectFrom("users").select("organization_id").where("id", "=", w.adminId).executeTakeFirstOrThrow();
    const refused = await act({ intent: "deactivate", id: String(own.organization_id) });
    expect(refused.status).toBe(409);
    expect(
      (await db().selectFrom("organizations").select("deactivated_at").where("id", "=", own.organization_id!).executeTakeFirstOrThrow()).deactivated_at,
    ).toBeNull();
  });
});
