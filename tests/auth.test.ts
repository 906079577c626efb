import { describe, expect, it, beforeAll } from "vitest";
import { db } from "@server/db";
import { hashPassword, verifyPassword } from "@server/auth/password";
import { outbox } from "@server/mail";
import { loader as rootLoader } from "~/root";
import { action as loginAction } from "~/routes/login";
import { action as logoutAction } from "~/routes/logout";
import { action as signupAction } from "~/routes/signup";
import { action as forgotAction } from "~/routes/forgot-password";
import { action as resetAction, loader as resetLoader } from "~/routes/reset-password";
import { action as inviteAction } from "~/routes/invite-signup";
import { loader as meLoader } from "~/routes/api.users.me";
import { action as languageApi, loader as languageApiGet } from "~/routes/api.users.language";
import { action as languagePref } from "~/routes/preferences.language";
import { createInvitation } from "~/models/user.server";
import { args, call, form, get, tokenFrom, BASE } from "./helpers/requests";

async function makeUser(email: string, accessLevel = 2) {
  const org = await db()
    .insertInto("organizations")
    .values({ name: `Org of ${email}`, kind: "customer", org_number: null, country_code: "NO", created_at: new Date().toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  const user = await db()
    .insertInto("users")
    .values({
      email,
      password_hash: await hashPassword("Right-pass-1"),
      language: "en",
      is_admin: 0,
      organization_id: org.id,
      access_level: accessLevel,
      created_at: new Date().toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { userId: user.id, organizationId: org.id };
}

async function signIn(email: string, password = "Right-pass-1", address = "10.0.0.1") {
  return call(loginAction, args(form("/login", { email, password }), address));
}

describe("passwords", () => {
  it("hashes with scrypt and verifies only the right password", async () => {
    const hash = await hashPassword("Correct horse 1");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword("Correct horse 1", hash)).toBe(true);
    expect(await verifyPassword("Correct horse 2", hash)).toBe(false);
    expect(await hashPassword("Correct horse 1")).not.toBe(hash);
  });
});

describe("sign-in", () => {
  beforeAll(async () => {
    await makeUser("anna@test.example");
  });

  it("sets the token cookie (httpOnly, SameSite=Lax, not Secure on http) and redirects to /overview", async () => {
    const res = await signIn("Anna@Test.example ");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/overview");
    const cookie = res.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/^token=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).not.toContain("Secure");
  });

  it("marks the cookie Secure when served over HTTPS", async () => {
    const request = new Request("https://risk.example/login", {
      method: "POST",
      body: new URLSearchParams({ email: "anna@test.example", password: "Right-pass-1" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    const res = await call(loginAction, args(request));
    expect(res.headers.get("Set-Cookie")).toContain("Secure");
  });

  it("refuses a wrong password with 401 and the message, and an unknown account the same way", async () => {
    for (const res of [await signIn("anna@test.example", "nope"), await signIn("nobody@test.example", "nope")]) {
      expect(res.status).toBe(401);
      expect(JSON.stringify(await res.json())).toContain("The email or password is not correct.");
      expect(res.headers.get("Set-Cookie")).toBeNull();
    }
  });

  it("answers 400 with field errors for an empty form", async () => {
    const res = await signIn("", "");
    expect(res.status).toBe(400);
    const body = JSON.stringify(await res.json());
    expect(body).toContain("Enter your email address.");
    expect(body).toContain("Enter your password.");
  });

  it("only redirects to paths on this site after sign-in", async () => {
    await makeUser("redir@test.example");
    const ok = await call(loginAction, args(form("/login", { email: "redir@test.example", password: "Right-pass-1", redirectTo: "/suppliers" })));
    expect(ok.headers.get("Location")).toBe("/suppliers");
    const evil = await call(loginAction, args(form("/login", { email: "redir@test.example", password: "Right-pass-1", redirectTo: "//evil.example" })));
    expect(evil.headers.get("Location")).toBe("/overview");
  });
});

describe("sign-in rate limit", () => {
  it("locks an account after 5 failures, even for the right password, with a clear message", async () => {
    await makeUser("locked@test.example");
    for (let i = 0; i < 5; i++) expect((await signIn("locked@test.example", "wrong", `10.1.0.${i}`)).status).toBe(401);
    const res = await signIn("locked@test.example", "Right-pass-1", "10.1.0.99");
    expect(res.status).toBe(429);
    expect(JSON.stringify(await res.json())).toMatch(/Too many failed sign-in attempts\. Wait \d+ minutes and try again/);
    // Another account is not affected.
    await makeUser("free@test.example");
    expect((await signIn("free@test.example", "Right-pass-1", "10.1.0.99")).status).toBe(302);
  });

  it("limits one address trying many accounts", async () => {
    for (let i = 0; i < 20; i++) await signIn(`guess${i}@test.example`, "wrong", "10.9.9.9");
    await makeUser("victim@test.example");
    expect((await signIn("victim@test.example", "Right-pass-1", "10.9.9.9")).status).toBe(429);
    expect((await signIn("victim@test.example", "Right-pass-1", "10.9.9.10")).status).toBe(302);
  });

  it("a successful sign-in clears the account's failures", async () => {
    await makeUser("oops@test.example");
    for (let i = 0; i < 4; i++) await signIn("oops@test.example", "wrong", "10.2.0.1");
    expect((await signIn("oops@test.example", "Right-pass-1", "10.2.0.1")).status).toBe(302);
    for (let i = 0; i < 4; i++) await signIn("oops@test.example", "wrong", "10.2.0.1");
    expect((await signIn("oops@test.example", "Right-pass-1", "10.2.0.1")).status).toBe(302);
  });
});

describe("the session token as cookie and as Bearer token", () => {
  it("GET /api/users/me: 401 JSON without a session; the user object with the cookie or the Bearer token", async () => {
    const { organizationId } = await makeUser("me@test.example", 3);
    const anonymous = await call(meLoader, args(get("/api/users/me")));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("Content-Type")).toContain("application/json");

    const token = tokenFrom(await signIn("me@test.example"))!;
    const expected = {
      email: "me@test.example",
      language: "en",
      is_admin: false,
      token,
      organization: { organization_name: "Org of me@test.example", access_level: 3 },
      organizationId,
    };
    const viaCookie = await call(meLoader, args(get("/api/users/me", { Cookie: `token=${token}` })));
    expect(await viaCookie.json()).toEqual(expected);
    const viaBearer = await call(meLoader, args(get("/api/users/me", { Authorization: `Bearer ${token}` })));
    expect(await viaBearer.json()).toEqual(expected);
    const forged = await call(meLoader, args(get("/api/users/me", { Authorization: `Bearer ${token.slice(0, -2)}xx` })));
    expect(forged.status).toBe(401);
  });

  it("an expired session no longer counts", async () => {
    await makeUser("expired@test.example");
    const token = tokenFrom(await signIn("expired@test.example"))!;
    await db().updateTable("sessions").set({ expires_at: "2000-01-01T00:00:00.000Z" }).execute();
    expect((await call(meLoader, args(get("/api/users/me", { Authorization: `Bearer ${token}` })))).status).toBe(401);
  });

  it("sign-out deletes the session on the server, clears the cookie and goes to /login", async () => {
    await makeUser("bye@test.example");
    const token = tokenFrom(await signIn("bye@test.example"))!;
    const res = await call(logoutAction, args(form("/logout", {}, { Cookie: `token=${token}` })));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
    expect(res.headers.get("Set-Cookie")).toMatch(/token=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/);
    expect((await call(meLoader, args(get("/api/users/me", { Authorization: `Bearer ${token}` })))).status).toBe(401);
  });
});

describe("language", () => {
  it("PUT /api/users/language updates the account; bad input is a 400; GET is a 405", async () => {
    await makeUser("lang@test.example");
    const token = tokenFrom(await signIn("lang@test.example"))!;
    const put = (body: string) =>
      call(
        languageApi,
        args(
          new Request(`${BASE}/api/users/language`, { method: "PUT", body, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } }),
        ),
      );
    const ok = await put(JSON.stringify({ language: "no" }));
    expect(ok.status).toBe(200);
    expect((await ok.json()).language).toBe("no");
    expect((await db().selectFrom("users").select("language").where("email", "=", "lang@test.example").executeTakeFirstOrThrow()).language).toBe("no");
    expect((await put(JSON.stringify({ language: "de" }))).status).toBe(400);
    expect((await put("not json")).status).toBe(400);
    expect((await call(languageApiGet, args(get("/api/users/language")))).status).toBe(405);
    const anonymous = await call(languageApi, args(new Request(`${BASE}/api/users/language`, { method: "PUT", body: "{}" })));
    expect(anonymous.status).toBe(401);
  });

  it("the language form updates a signed-in user's account and returns to the page", async () => {
    await makeUser("langform@test.example");
    const token = tokenFrom(await signIn("langform@test.example"))!;
    const res = await call(languagePref, args(form("/preferences/language", { language: "no", redirectTo: "/casefiles?x=1" }, { Cookie: `token=${token}` })));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/casefiles?x=1");
    expect((await db().selectFrom("users").select("language").where("email", "=", "langform@test.example").executeTakeFirstOrThrow()).language).toBe("no");
  });
});

describe("access guard in the root loader", () => {
  it("sends a visitor on a private path to /, lets public paths through", async () => {
    const res = await call(rootLoader, args(get("/suppliers")));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    for (const path of ["/", "/login", "/reset-password", "/transparency-portal/public/key"]) {
      expect((await call(rootLoader, args(get(path)))).status).toBe(200);
    }
  });
});

describe("sign-up, invitation and password reset", () => {
  it("sign-up creates an organisation with the user at level 3, not a platform admin", async () => {
    const res = await call(
      signupAction,
      args(form("/signup", { organizationName: "  Nyfirma AS ", email: "new@test.example", password: "Long-enough-1", confirmPassword: "Long-enough-1" })),
    );
    expect(res.status).toBe(302);
    const user = await db()
      .selectFrom("users")
      .innerJoin("organizations", "organizations.id", "users.organization_id")
      .select(["users.access_level", "users.is_admin", "organizations.name", "organizations.kind"])
      .where("email", "=", "new@test.example")
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ access_level: 3, is_admin: 0, name: "Nyfirma AS", kind: "customer" });
    const again = await call(
      signupAction,
      args(form("/signup", { organizationName: "X", email: "NEW@test.example", password: "Long-enough-1", confirmPassword: "Long-enough-1" })),
    );
    expect(again.status).toBe(409);
  });

  it("rejects a short password and different passwords", async () => {
    const res = await call(
      signupAction,
      args(form("/signup", { organizationName: "X", email: "short@test.example", password: "short", confirmPassword: "other" })),
    );
    expect(res.status).toBe(400);
    const body = JSON.stringify(await res.json());
    expect(body).toContain("The password must have at least 8 characters.");
  });

  it("an invitation creates the user in the inviting organisation, once", async () => {
    const { organizationId } = await makeUser("boss@test.example", 3);
    const token = await createInvitation({ email: "Invitee@Test.example", organizationId, accessLevel: 1, invitedBy: null });
    const res = await call(inviteAction, args(form("/invite-signup", { token, password: "Invited-pass-1", confirmPassword: "Invited-pass-1" })));
    expect(res.status).toBe(302);
    const user = await db()
      .selectFrom("users")
      .select(["organization_id", "access_level"])
      .where("email", "=", "invitee@test.example")
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ organization_id: organizationId, access_level: 1 });
    const reuse = await call(inviteAction, args(form("/invite-signup", { token, password: "Invited-pass-1", confirmPassword: "Invited-pass-1" })));
    expect(reuse.status).toBe(410);
  });

  it("a reset link is mailed to the outbox, works once, and signs the user out everywhere", async () => {
    await makeUser("reset@test.example");
    const oldToken = tokenFrom(await signIn("reset@test.example"))!;
    const before = outbox().length;
    const res = await call(forgotAction, args(form("/forgot-password", { email: "reset@test.example" })));
    expect(res.status).toBe(200);
    const mails = outbox();
    expect(mails.length).toBe(before + 1);
    const mail = mails[mails.length - 1];
    expect(mail).toContain("To: reset@test.example");
    const token = decodeURIComponent(mail.match(/reset-password\?token=(\S+)/)![1]);
    expect((await (await call(resetLoader, args(get(`/reset-password?token=${encodeURIComponent(token)}`)))).json()).valid).toBe(true);
    const done = await call(resetAction, args(form("/reset-password", { token, password: "Fresh-pass-22", confirmPassword: "Fresh-pass-22" })));
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/login");
    expect((await signIn("reset@test.example", "Fresh-pass-22")).status).toBe(302);
    expect((await call(meLoader, args(get("/api/users/me", { Authorization: `Bearer ${oldToken}` })))).status).toBe(401);
    const again = await call(resetAction, args(form("/reset-password", { token, password: "Other-pass-33", confirmPassword: "Other-pass-33" })));
    expect(again.status).toBe(410);
  });

  it("asking for a reset of an unknown account answers the same and sends nothing", async () => {
    const before = outbox().length;
    const res = await call(forgotAction, args(form("/forgot-password", { email: "ghost@test.example" })));
    expect(res.status).toBe(200);
    expect((await res.json()).sentTo).toBe("ghost@test.example");
    expect(outbox().length).toBe(before);
  });
});
