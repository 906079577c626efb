import type { LoaderFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { createSession, userForToken } from "@server/auth/session";
import { recordSecurityEvent } from "~/models/accounts/security-events.server";
import { action, loader } from "~/routes/_app.admin.users";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";

/**
 * /admin/users and its security log (?view=audit) against a real SQLite file: only the operator (403 for every level,
 * 302 for a visitor), search and paging, level, admin flag with the last-administrator rule, deactivate (sessions end)
 * and reactivate, a password-reset mail; every change an admin_action event; the log's filters and order.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as { org: number; admin: string; adminId: number; members: Record<1 | 2 | 3, string>; memberIds: Record<1 | 2 | 3, number> };

const run = (fn: Fn, request: Request) => call(fn, { request, params: {}, context: { clientAddress: "198.51.100.7" } });
const page = (token?: string, query = "") => run(loader, get(`/admin/users${query}`, token ? { Cookie: `token=${token}` } : {}));
function post(fields: Record<string, string>, token?: string, path = "/admin/users"): Request {
  return new Request(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...(token ? { Cookie: `token=${token}` } : {}) },
  });
}
const act = (fields: Record<string, string>, token = w.admin) => run(action, post(fields, token));
const userRow = (id: number) => db().selectFrom("users").select(["is_admin", "access_level", "deactivated_at"]).where("id", "=", id).executeTakeFirstOrThrow();
const lastAdminAction = async () => {
  const row = await db().selectFrom("security_events").selectAll().where("kind", "=", "admin_action").orderBy("id", "desc").executeTakeFirstOrThrow();
  return { ...row, detail: JSON.parse(row.detail!) as Record<string, unknown> };
};
const idOf = async (email: string) => (await db().selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  // The only admins of this test database are the ones made here.
  await db().updateTable("users").set({ is_admin: 0 }).execute();
  const operatorOrg = await makeOrg("Brukerdrift AS", "customer");
  w.admin = await signedIn("operator@admin-users.test", operatorOrg, 1);
  w.adminId = await idOf("operator@admin-users.test");
  await db().updateTable("users").set({ is_admin: 1 }).where("id", "=", w.adminId).execute();
  w.org = await makeOrg("Brukerkunde AS", "customer");
  w.members = {
    1: await signedIn("l1@admin-users.test", w.org, 1),
    2: await signedIn("l2@admin-users.test", w.org, 2),
    3: await signedIn("l3@admin-users.test", w.org, 3),
  };
  w.memberIds = { 1: await idOf("l1@admin-users.test"), 2: await idOf("l2@admin-users.test"), 3: await idOf("l3@admin-users.test") };
});

describe("who may open /admin/users", () => {
  it("the operator; every level gets 403 for both views and every action; a visitor goes to the start page", async () => {
    expect((await page(w.admin)).status).toBe(200);
    expect((await page(w.admin, "?view=audit")).status).toBe(200);
    for (const token of Object.values(w.members)) {
      expect((await page(token)).status).toBe(403);
      expect((await page(token, "?view=audit")).status).toBe(403);
      for (const intent of ["level", "grant-admin", "revoke-admin", "deactivate", "reactivate", "send-reset"])
        expect([intent, (await act({ intent, id: String(w.memberIds[1]), accessLevel: "3" }, token)).status]).toEqual([intent, 403]);
    }
    expect(await userRow(w.memberIds[1])).toEqual({ is_admin: 0, access_level: 1, deactivated_at: null });
    const visitor = await page();
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
    expect((await run(action, post({ intent: "grant-admin", id: String(w.memberIds[1]) }))).status).toBe(302);
    expect((await userRow(w.memberIds[1])).is_admin).toBe(0);
  });
});

describe("the list", () => {
  it("searches by email (wildcards literal) and pages", async () => {
    const found = (await (await page(w.admin, "?q=ADMIN-USERS.test")).json()) as {
      users: { rows: { email: string; organizationName: string | null }[]; total: number };
    };
    expect(found.users.rows.map((r) => r.email)).toEqual(["l1@admin-users.test", "l2@admin-users.test", "l3@admin-users.test", "operator@admin-users.test"]);
    expect(found.users.rows[0].organizationName).toBe("Brukerkunde AS");
    expect(((await (await page(w.admin, "?q=_")).json()) as { users: { total: number } }).users.total).toBe(0);
    for (let i = 0; i < 27; i++) await signedIn(`pageuser${String(i).padStart(2, "0")}@admin-paging.test`, null, 1);
    const second = (await (await page(w.admin, "?q=admin-paging&page=2")).json()) as { users: { rows: unknown[]; total: number; page: number } };
    expect([second.users.rows.length, second.users.total, second.users.page]).toEqual([2, 27, 2]);
  });
});

describe("changes", () => {
  it("sets the access level, recorded as level_changed and admin_action", async () => {
    expect((await act({ intent: "level", id: String(w.memberIds[1]), accessLevel: "2" })).status).toBe(302);
    expect((await userRow(w.memberIds[1])).access_level).toBe(2);
    const event = await lastAdminAction();
    expect([event.actor_user_id, event.user_id, event.ip, event.detail]).toEqual([
      w.adminId,
      w.memberIds[1],
      "198.51.100.7",
      { action: "level_changed", userId: w.memberIds[1], from: 1, to: 2 },
    ]);
    const level = await db()
      .selectFrom("security_events")
      .select("detail")
      .where("kind", "=", "level_changed")
      .where("user_id", "=", w.memberIds[1])
      .executeTakeFirstOrThrow();
    expect(JSON.parse(level.detail!)).toEqual({ from: 1, to: 2 });
    expect((await act({ intent: "level", id: String(w.memberIds[1]), accessLevel: "7" })).status).toBe(400);
    expect((await act({ intent: "level", id: "999999", accessLevel: "1" })).status).toBe(404);
    expect((await act({ intent: "nonsense", id: "1" })).status).toBe(400);
    expect((await userRow(w.memberIds[1])).access_level).toBe(2);
  });

  it("the last active administrator keeps the flag; with a second one, an administrator may hand theirs over", async () => {
    const alone = await act({ intent: "revoke-admin", id: String(w.adminId) });
    expect(alone.status).toBe(409);
    expect((await userRow(w.adminId)).is_admin).toBe(1);
    expect((await act({ intent: "deactivate", id: String(w.adminId) })).status).toBe(409);
    expect((await act({ intent: "grant-admin", id: String(w.memberIds[3]) })).status).toBe(302);
    expect((await userRow(w.memberIds[3])).is_admin).toBe(1);
    expect((await lastAdminAction()).detail).toEqual({ action: "admin_granted", userId: w.memberIds[3] });
    // The second administrator is deactivated: it does not count, so the operator is the last active one again.
    expect((await act({ intent: "deactivate", id: String(w.memberIds[3]) })).status).toBe(302);
    expect((await act({ intent: "revoke-admin", id: String(w.adminId) })).status).toBe(409);
    expect((await act({ intent: "reactivate", id: String(w.memberIds[3]) })).status).toBe(302);
    // A handover: the operator gives up their own flag while another active administrator remains.
    const handover = await act({ intent: "revoke-admin", id: String(w.adminId) });
    expect(handover.status).toBe(302);
    expect((await userRow(w.adminId)).is_admin).toBe(0);
    expect((await page(w.admin)).status).toBe(403);
    // The other administrator gives it back; the last one then cannot drop theirs.
    const l3 = (await createSession(w.memberIds[3], null)).token;
    expect((await act({ intent: "grant-admin", id: String(w.adminId) }, l3)).status).toBe(302);
    expect((await act({ intent: "revoke-admin", id: String(w.memberIds[3]) })).status).toBe(302);
    expect((await act({ intent: "revoke-admin", id: String(w.adminId) })).status).toBe(409);
  });

  it("deactivation ends the user's sessions at once; reactivation clears it; never oneself", async () => {
    const extra = (await createSession(w.memberIds[2], null)).token;
    expect(await userForToken(w.members[2])).not.toBeNull();
    const confirm = (await (await page(w.admin, `?q=l2%40admin-users&deactivate=${w.memberIds[2]}`)).json()) as { confirm: unknown };
    expect(confirm.confirm).toEqual({ id: w.memberIds[2], email: "l2@admin-users.test" });
    const response = await act({ intent: "deactivate", id: String(w.memberIds[2]), redirectTo: `/admin/users?q=l2&deactivate=${w.memberIds[2]}` });
    expect([response.status, response.headers.get("Location")]).toEqual([302, "/admin/users?q=l2"]);
    expect(await userForToken(extra)).toBeNull();
    expect(await db().selectFrom("sessions").select("id").where("user_id", "=", w.memberIds[2]).execute()).toEqual([]);
    expect((await userRow(w.memberIds[2])).deactivated_at).not.toBeNull();
    const kinds = await db().selectFrom("security_events").select("kind").where("user_id", "=", w.memberIds[2]).orderBy("id").execute();
    expect(kinds.map((k) => k.kind).slice(-2)).toEqual(["user_deactivated", "admin_action"]);
    expect((await act({ intent: "reactivate", id: String(w.memberIds[2]) })).status).toBe(302);
    expect((await userRow(w.memberIds[2])).deactivated_at).toBeNull();
    const self = await act({ intent: "deactivate", id: String(w.adminId) });
    expect(self.status).toBe(409);
    expect((await userRow(w.adminId)).deactivated_at).toBeNull();
  });

  it("an accepted change comes back to the list as it was: a plain post to its redirectTo, a fetcher's post to the URL it posted to", async () => {
    // With JavaScript, ActionForm posts through a fetcher to the page's own URL and sends no redirectTo.
    const fetched = await run(
      action,
      post({ intent: "level", id: String(w.memberIds[3]), accessLevel: "3" }, w.admin, "/admin/users?q=l3%40admin-users&page=1"),
    );
    expect([fetched.status, fetched.headers.get("Location")]).toEqual([302, "/admin/users?q=l3%40admin-users&page=1"]);
    const plain = await act({ intent: "level", id: String(w.memberIds[3]), accessLevel: "3", redirectTo: "/admin/users?q=l3" });
    expect([plain.status, plain.headers.get("Location")]).toEqual([302, "/admin/users?q=l3"]);
    const elsewhere = await act({ intent: "level", id: String(w.memberIds[3]), accessLevel: "3", redirectTo: "//evil.example/admin/users" });
    expect([elsewhere.status, elsewhere.headers.get("Location")]).toEqual([302, "/admin/users"]);
  });

  it("mails a password-reset link through the reset flow, recorded without the token", async () => {
    const before = outbox().length;
    expect((await act({ intent: "send-reset", id: String(w.memberIds[1]) })).status).toBe(302);
    const mails = outbox().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("To: l1@admin-users.test");
    const token = /reset-password\?token=([^\s]+)/.exec(mails[0])![1];
    const reset = await db().selectFrom("password_resets").select("user_id").where("user_id", "=", w.memberIds[1]).executeTakeFirst();
    expect(reset?.user_id).toBe(w.memberIds[1]);
    const event = await lastAdminAction();
    expect(event.detail).toEqual({ action: "password_reset_sent", userId: w.memberIds[1] });
    const all = await db().selectFrom("security_events").select("detail").execute();
    expect(all.filter((e) => e.detail?.includes(decodeURIComponent(token)))).toEqual([]);
    expect((await act({ intent: "send-reset", id: "999999" })).status).toBe(404);
  });
});

describe("the security log", () => {
  it("lists events newest first, filters by kind and by email, says how long it keeps them", async () => {
    await recordSecurityEvent({ kind: "sign_in_failed", userId: null, email: "stranger@elsewhere.test", source: { ip: "192.0.2.1", userAgent: "UA" } });
    const all = (await (await page(w.admin, "?view=audit")).json()) as {
      days: number;
      events: { rows: { id: number; kind: string; email: string | null; ip: string | null }[]; total: number };
    };
    expect(all.days).toBe(365);
    const ids = all.events.rows.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.events.rows[0]).toMatchObject({ kind: "sign_in_failed", email: "stranger@elsewhere.test", ip: "192.0.2.1" });
    const countOf = async (kind?: string) =>
      Number(
        (
          await db()
            .selectFrom("security_events")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .$if(kind !== undefined, (q) => q.where("kind", "=", kind!))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(all.events.total).toBe(await countOf());
    const failed = (await (await page(w.admin, "?view=audit&kind=sign_in_failed")).json()) as { events: { rows: { kind: string }[]; total: number } };
    expect(new Set(failed.events.rows.map((r) => r.kind))).toEqual(new Set(["sign_in_failed"]));
    expect(failed.events.total).toBe(await countOf("sign_in_failed"));
    const byEmail = (await (await page(w.admin, "?view=audit&email=l2%40admin-users")).json()) as {
      events: { rows: { kind: string; email: string | null }[] };
    };
    expect(byEmail.events.rows.length).toBeGreaterThan(0);
    expect(byEmail.events.rows.every((r) => r.email === "l2@admin-users.test")).toBe(true);
    const byActor = (await (await page(w.admin, "?view=audit&kind=admin_action&email=operator%40admin-users")).json()) as { events: { total: number } };
    const expected = await db()
      .selectFrom("security_events")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("kind", "=", "admin_action")
      .where((eb) => eb.or([eb("actor_user_id", "=", w.adminId), eb("user_id", "=", w.adminId)]))
      .executeTakeFirstOrThrow();
    expect(byActor.events.total).toBe(Number(expected.n));
    const unknownKind = (await (await page(w.admin, "?view=audit&kind=bogus&page=abc")).json()) as { events: { page: number }; filter: { kind: null } };
    expect([unknownKind.filter.kind, unknownKind.events.page]).toEqual([null, 1]);
  });
});
