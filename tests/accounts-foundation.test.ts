import { describe, expect, it } from "vitest";
import { db } from "@server/db";
import { hashPassword } from "@server/auth/password";
import { createSession, LAST_SEEN_EVERY_MS, userForToken } from "@server/auth/session";
import { login } from "~/models/accounts/login.server";
import { verifyLogin } from "~/models/accounts/users.server";
import { purgeSecurityEvents, recordSecurityEvent } from "~/models/accounts/security-events.server";
import { makeOrg } from "./helpers/fixtures";
import { createUser } from "./helpers/factory";

/**
 * The ground of the account rules (decision 039): a deactivated account or organisation loses its sessions at once and cannot
 * sign in; a session records when it was last used; every sign-in attempt is in the security log, which keeps
 * SECURITY_LOG_DAYS days.
 */

const PASSWORD = "Correct-horse-9";

async function user(email: string, organizationId: number | null) {
  return createUser({ email, organizationId, accessLevel: 2, passwordHash: await hashPassword(PASSWORD), createdAt: new Date().toISOString() });
}

function form(email: string, password: string) {
  const f = new FormData();
  f.set("email", email);
  f.set("password", password);
  return f;
}

describe("deactivation", () => {
  it("ends a deactivated user's sessions at once and refuses the right password until reactivated", async () => {
    const org = await makeOrg("Deactivation AS", "customer");
    const id = await user("deactivated@example.test", org);
    const { token } = await createSession(id, "test");
    expect(await userForToken(token)).not.toBeNull();
    await db().updateTable("users").set({ deactivated_at: new Date().toISOString() }).where("id", "=", id).execute();
    expect(await userForToken(token)).toBeNull();
    expect(await db().selectFrom("sessions").select("id").where("user_id", "=", id).execute()).toEqual([]);
    expect(await verifyLogin("deactivated@example.test", PASSWORD)).toBeNull();
    await db().updateTable("users").set({ deactivated_at: null }).where("id", "=", id).execute();
    expect(await verifyLogin("deactivated@example.test", PASSWORD)).toBe(id);
  });

  it("ends the sessions of a deactivated organisation's members", async () => {
    const org = await makeOrg("Closed Org AS", "customer");
    const id = await user("member-of-closed@example.test", org);
    const { token } = await createSession(id, "test");
    await db().updateTable("organizations").set({ deactivated_at: new Date().toISOString() }).where("id", "=", org).execute();
    expect(await userForToken(token)).toBeNull();
    expect(await verifyLogin("member-of-closed@example.test", PASSWORD)).toBeNull();
  });
});

describe("last seen", () => {
  it("is written when a session is used after a while, not on every request", async () => {
    const id = await user("last-seen@example.test", null);
    const { token } = await createSession(id, "test");
    const seen = async () => (await db().selectFrom("sessions").select("last_seen_at").where("user_id", "=", id).executeTakeFirstOrThrow()).last_seen_at;
    const first = await seen();
    expect(first).not.toBeNull();
    await userForToken(token);
    expect(await seen()).toBe(first);
    const old = new Date(Date.now() - LAST_SEEN_EVERY_MS - 60_000).toISOString();
    await db().updateTable("sessions").set({ last_seen_at: old }).where("user_id", "=", id).execute();
    await userForToken(token);
    expect(Date.parse((await seen())!)).toBeGreaterThan(Date.parse(old));
  });
});

describe("the security log", () => {
  it("records a sign-in and a failed one with the address and the browser", async () => {
    const org = await makeOrg("Logged AS", "customer");
    const id = await user("logged@example.test", org);
    const source = { clientAddress: "203.0.113.7", knownUserIds: [], userAgent: "Test browser 1.0" };
    expect((await login(form("logged@example.test", "wrong-password"), source)).ok).toBe(false);
    expect((await login(form("logged@example.test", PASSWORD), source)).ok).toBe(true);
    expect((await login(form("nobody-here@example.test", PASSWORD), source)).ok).toBe(false);
    const events = await db()
      .selectFrom("security_events")
      .select(["kind", "user_id", "email", "organization_id", "ip", "user_agent", "detail"])
      .where("email", "in", ["logged@example.test", "nobody-here@example.test"])
      .orderBy("id")
      .execute();
    expect(events).toEqual([
      {
        kind: "sign_in_failed",
        user_id: id,
        email: "logged@example.test",
        organization_id: org,
        ip: "203.0.113.7",
        user_agent: "Test browser 1.0",
        detail: '{"reason":"invalid"}',
      },
      { kind: "sign_in", user_id: id, email: "logged@example.test", organization_id: org, ip: "203.0.113.7", user_agent: "Test browser 1.0", detail: null },
      {
        kind: "sign_in_failed",
        user_id: null,
        email: "nobody-here@example.test",
        organization_id: null,
        ip: "203.0.113.7",
        user_agent: "Test browser 1.0",
        detail: '{"reason":"invalid"}',
      },
    ]);
    // Never the password typed.
    const all = JSON.stringify(await db().selectFrom("security_events").selectAll().execute());
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain("wrong-password");
  });

  it("keeps SECURITY_LOG_DAYS days (365 by default)", async () => {
    const id = await user("old-events@example.test", null);
    await recordSecurityEvent({ kind: "password_changed", userId: id });
    await db()
      .insertInto("security_events")
      .values({ at: new Date(Date.now() - 400 * 86_400_000).toISOString(), kind: "sign_in", user_id: id })
      .execute();
    expect(await purgeSecurityEvents()).toBeGreaterThanOrEqual(1);
    const left = await db().selectFrom("security_events").select("kind").where("user_id", "=", id).execute();
    expect(left).toEqual([{ kind: "password_changed" }]);
  });
});
