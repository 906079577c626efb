import { describe, expect, it, beforeAll } from "vitest";
import { db } from "@server/db";
import { hashPassword, verifyPassword } from "@server/auth/password";
import { outbox } from "@server/mail";
import { loader as rootLoader } from "~/root";
import { action as loginAction } from "~/routes/login";
import { action as logoutAction } from "~/routes/logout";
import { action as signupAction, loader as signupLoader } from "~/routes/signup";
import { action as forgotAction } from "~/routes/forgot-password";
import { action as resetAction, loader as resetLoader } from "~/routes/reset-password";
import { action as inviteAction } from "~/routes/invite-signup";
import { loader as meLoader } from "~/routes/api.users.me";
import { action as languageApi, loader as languageApiGet } from "~/routes/api.users.language";
import { createInvitation } from "~/models/accounts/users.server";
import {
  PASSWORD_RESET_MAIL_JOB,
  passwordResetMailJob,
  RESET_MAILS_PER_ACCOUNT,
  RESET_REQUESTS_PER_ADDRESS,
} from "~/models/accounts/password-reset-request.server";
import { runQueuedJobs } from "./helpers/jobs";
import { args, call, form, get, tokenFrom, BASE } from "./helpers/requests";
import { createOrganization, createUser } from "./helpers/factory";

async function makeUser(email: string, accessLevel = 2) {
  const organizationId = await createOrganization({ name: `Org of ${email}`, createdAt: new Date().toISOString() });
  const userId = await createUser({
    email,
    organizationId,
    accessLevel,
    passwordHash: await hashPassword("Right-pass-1"),
    createdAt: new Date().toISOString(),
  });
  return { userId, organizationId };
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

/** Moves every counted failure back in time, as if `minutes` had passed. */
async function age(minutes: number) {
  const rows = await db().selectFrom("login_failures").select(["id", "at"]).execute();
  for (const row of rows) {
    await db()
      .updateTable("login_failures")
      .set({ at: new Date(Date.parse(row.at) - minutes * 60_000).toISOString() })
      .where("id", "=", row.id)
      .execute();
  }
}

describe("malformed requests to the sign-in forms", () => {
  const actions = [
    ["/login", loginAction],
    ["/signup", signupAction],
    ["/forgot-password", forgotAction],
    ["/reset-password", resetAction],
    ["/invite-signup", inviteAction],
    ["/logout", logoutAction],
  ] as const;
  const post = (path: string, body: BodyInit | null, type?: string) =>
    new Request(BASE + path, { method: "POST", body, headers: type ? { "Content-Type": type } : {} });

  it.each(actions)("%s refuses JSON, text and empty bodies with 415, and a broken form with 400", async (path, action) => {
    const before = outbox().length;
    expect((await call(action, args(post(path, JSON.stringify({ email: "a@b.example" }), "application/json")))).status).toBe(415);
    expect((await call(action, args(post(path, "email=a@b.example", "text/plain")))).status).toBe(415);
    expect((await call(action, args(post(path, null)))).status).toBe(415);
    expect((await call(action, args(post(path, "--x\r\nbroken", "multipart/form-data; boundary=x")))).status).toBe(400);
    expect(outbox().length).toBe(before);
  });

  it("never follows a redirectTo off the site, whatever its spelling, and CR/LF is no error", async () => {
    await makeUser("redirect2@test.example");
    for (const redirectTo of [
      "/\t/evil.example/phish",
      "/%09/evil.example",
      "/\\evil.example",
      "https://evil.example/",
      "/\r\nSet-Cookie: x=1",
      "/%2F%2Fevil.example",
      "//evil.example",
    ]) {
      const res = await call(loginAction, args(form("/login", { email: "redirect2@test.example", password: "Right-pass-1", redirectTo })));
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/overview");
    }
  });
});

describe("sign-in limits keyed by account and address", () => {
  it("five failures from one address slow that address down, not the owner at another address", async () => {
    await makeUser("locked@test.example");
    for (let i = 0; i < 5; i++) expect((await signIn("locked@test.example", "wrong", "10.1.0.1")).status).toBe(401);
    // The guessing address waits, even with the right password …
    const slowed = await signIn("locked@test.example", "Right-pass-1", "10.1.0.1");
    expect(slowed.status).toBe(429);
    expect(JSON.stringify(await slowed.json())).toContain("Too many failed sign-in attempts. Wait 1 minute and try again, or reset your password.");
    // … the owner elsewhere is not locked out (the old code answered 429 here).
    expect((await signIn("locked@test.example", "Right-pass-1", "10.1.0.99")).status).toBe(302);
  });

  it("the administrator's account is not locked by someone else's guesses", async () => {
    const { userId } = await makeUser("root@test.example", 3);
    await db().updateTable("users").set({ is_admin: 1 }).where("id", "=", userId).execute();
    for (let i = 0; i < 10; i++) await signIn("root@test.example", "wrong", "203.0.113.7");
    expect((await signIn("root@test.example", "Right-pass-1", "192.0.2.1")).status).toBe(302);
  });

  it("the wait grows with every further failure and ends", async () => {
    await makeUser("slow@test.example");
    for (let i = 0; i < 5; i++) await signIn("slow@test.example", "wrong", "10.3.0.1");
    expect((await signIn("slow@test.example", "wrong", "10.3.0.1")).status).toBe(429);
    await age(1.1);
    // One more try after the wait; it fails, and the next wait is twice as long.
    expect((await signIn("slow@test.example", "wrong", "10.3.0.1")).status).toBe(401);
    const second = await signIn("slow@test.example", "Right-pass-1", "10.3.0.1");
    expect(second.status).toBe(429);
    expect(JSON.stringify(await second.json())).toContain("Wait 2 minutes");
    await age(2.1);
    expect((await signIn("slow@test.example", "Right-pass-1", "10.3.0.1")).status).toBe(302);
  });

  it("limits one address trying many accounts", async () => {
    for (let i = 0; i < 20; i++) await signIn(`guess${i}@test.example`, "wrong", "10.9.9.9");
    await makeUser("victim@test.example");
    expect((await signIn("victim@test.example", "Right-pass-1", "10.9.9.9")).status).toBe(429);
    expect((await signIn("victim@test.example", "Right-pass-1", "10.9.9.10")).status).toBe(302);
  });

  it("a successful sign-in clears the failures of that address on that account", async () => {
    await makeUser("oops@test.example");
    for (let i = 0; i < 4; i++) await signIn("oops@test.example", "wrong", "10.2.0.1");
    expect((await signIn("oops@test.example", "Right-pass-1", "10.2.0.1")).status).toBe(302);
    for (let i = 0; i < 4; i++) await signIn("oops@test.example", "wrong", "10.2.0.1");
    expect((await signIn("oops@test.example", "Right-pass-1", "10.2.0.1")).status).toBe(302);
  });

  describe("many failures from many addresses protect the account", () => {
    const owner = "owned@test.example";
    let ownerId: number;
    let knownCookie: string;

    beforeAll(async () => {
      ({ userId: ownerId } = await makeUser(owner));
      // The owner's own browser signed in before: it carries the signed `known` cookie.
      const first = await signIn(owner, "Right-pass-1", "198.51.100.1");
      knownCookie = first.headers.get("Set-Cookie")!.match(/(?:^|,\s*)(known=[^;]*)/)![1];
      await db().deleteFrom("sessions").execute();
      // 25 failures, 3 from each of nine addresses: no address reaches its own limit.
      for (let i = 0; i < 25; i++) await signIn(owner, "wrong", `203.0.113.${Math.floor(i / 3)}`);
      // 26 password checks: on a busy machine more than the default ten seconds.
    }, 60_000);

    const signInWith = (password: string, address: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) =>
      call(loginAction, args(form("/login", { email: owner, password, ...fields }, headers), address));

    it("refuses a browser it does not know, right password or not, with the same answer as for an unknown account, and mails the owner once", async () => {
      const before = outbox().filter((m) => m.includes(`To: ${owner}`)).length;
      const res = await signInWith("Right-pass-1", "192.0.2.50");
      expect(res.status).toBe(429);
      expect(JSON.stringify(await res.json())).toContain("This account is protected after many failed sign-in attempts.");
      expect(res.headers.get("Set-Cookie")).toBeNull();
      const mails = outbox().filter((m) => m.includes(`To: ${owner}`));
      expect(mails.length).toBe(before + 1);
      expect(mails[mails.length - 1]).toContain("Subject: Unlock your account");
      // The next refused try does not mail again.
      expect((await signInWith("Right-pass-1", "192.0.2.51")).status).toBe(429);
      expect(outbox().filter((m) => m.includes(`To: ${owner}`)).length).toBe(before + 1);
      // An unknown account gets the same answer, and nobody gets a mail.
      for (let i = 0; i < 25; i++) await signIn("nobody-protected@test.example", "wrong", `198.18.0.${Math.floor(i / 3)}`);
      const unknown = await signIn("nobody-protected@test.example", "wrong", "192.0.2.52");
      expect(unknown.status).toBe(429);
      expect(JSON.stringify(await unknown.json())).toContain("This account is protected after many failed sign-in attempts.");
    });

    it("lets the owner's known browser in", async () => {
      expect((await signInWith("Right-pass-1", "192.0.2.60", {}, { Cookie: knownCookie })).status).toBe(302);
      // A forged cookie is no cookie.
      expect((await signInWith("Right-pass-1", "192.0.2.61", {}, { Cookie: `known=${encodeURIComponent(btoa(JSON.stringify([ownerId])))}` })).status).toBe(429);
    });

    it("lets the owner in anywhere with the mailed unlock link, once", async () => {
      const mail = outbox()
        .filter((m) => m.includes(`To: ${owner}`) && m.includes("Unlock"))
        .pop()!;
      const token = decodeURIComponent(mail.match(/\/login\?unlock=(\S+)/)![1]);
      expect((await signInWith("wrong", "192.0.2.70", { unlock: token })).status).toBe(401);
      expect((await signInWith("Right-pass-1", "192.0.2.70", { unlock: token })).status).toBe(302);
      // The account is no longer protected, and the link is used up.
      expect((await signInWith("Right-pass-1", "192.0.2.71")).status).toBe(302);
      const used = await db().selectFrom("account_unlocks").select("used_at").where("user_id", "=", ownerId).execute();
      expect(used.every((u) => u.used_at !== null)).toBe(true);
    });
  });
});

describe("the session token as cookie and as Bearer token", () => {
  it("GET /api/users/me: 401 JSON without a session; the user object with the cookie or the Bearer token, the token only to a Bearer caller", async () => {
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
    // A script on a page calls with the cookie alone: it never learns the HttpOnly cookie's value.
    const viaCookie = await call(meLoader, args(get("/api/users/me", { Cookie: `token=${token}` })));
    expect(await viaCookie.json()).toEqual({ ...expected, token: null });
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
  const signupForm = (fields: Record<string, string>) =>
    call(signupAction, args(form("/signup", { intent: "signup", password: "Long-enough-1", confirmPassword: "Long-enough-1", ...fields })));

  it("sign-up mails a confirmation link; the link's button creates the organisation with the user at level 3, once", async () => {
    const before = outbox().length;
    const res = await signupForm({ organizationName: "  Nyfirma AS ", email: "New@test.example" });
    expect(res.status).toBe(200);
    expect((await res.json()).sentTo).toBe("new@test.example");
    expect(res.headers.get("Set-Cookie")).toBeNull();
    // Nothing exists before the link is used.
    expect(await db().selectFrom("users").select("id").where("email", "=", "new@test.example").executeTakeFirst()).toBeUndefined();
    const mails = outbox();
    expect(mails.length).toBe(before + 1);
    const mail = mails[mails.length - 1];
    expect(mail).toContain("To: new@test.example");
    expect(mail).toContain("Subject: Confirm your new account");
    const token = decodeURIComponent(mail.match(/\/signup\?token=(\S+)/)![1]);

    // The link shows what will be created (a GET changes nothing) …
    const page = await (await call(signupLoader, args(get(`/signup?token=${encodeURIComponent(token)}`)))).json();
    expect(page.confirm).toEqual({ token, valid: true, email: "new@test.example", organization: "Nyfirma AS" });
    // … and its button creates it and signs in.
    const done = await call(signupAction, args(form("/signup", { intent: "confirm", token })));
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/overview");
    expect(tokenFrom(done)).toBeTruthy();
    const user = await db()
      .selectFrom("users")
      .innerJoin("organizations", "organizations.id", "users.organization_id")
      .select(["users.access_level", "users.is_admin", "organizations.name", "organizations.kind"])
      .where("email", "=", "new@test.example")
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ access_level: 3, is_admin: 0, name: "Nyfirma AS", kind: "customer" });
    expect((await call(signupAction, args(form("/signup", { intent: "confirm", token })))).status).toBe(410);
    // The password chosen at sign-up is the account's.
    expect((await signIn("new@test.example", "Long-enough-1", "10.4.0.1")).status).toBe(302);
  });

  it("answers the same for an email that has an account, creates nothing, and mails the owner instead", async () => {
    await makeUser("taken@test.example");
    const before = outbox().length;
    const orgsBefore = (await db().selectFrom("organizations").select("id").execute()).length;
    const fresh = await signupForm({ organizationName: "Fresh AS", email: "fresh@test.example" });
    const taken = await signupForm({ organizationName: "Copy AS", email: "TAKEN@test.example" });
    expect(taken.status).toBe(fresh.status);
    const [freshBody, takenBody] = [await fresh.json(), await taken.json()];
    expect(Object.keys(takenBody).sort()).toEqual(Object.keys(freshBody).sort());
    expect(takenBody.sentTo).toBe("taken@test.example");
    expect(takenBody.result.status).toBe(freshBody.result.status);
    expect((await db().selectFrom("organizations").select("id").execute()).length).toBe(orgsBefore);
    const mails = outbox().slice(before);
    expect(mails.length).toBe(2);
    const toOwner = mails.find((m) => m.includes("To: taken@test.example"))!;
    expect(toOwner).toContain("Subject: You already have an account");
    expect(toOwner).toContain("/forgot-password");
    expect(toOwner).not.toContain("/signup?token=");
  });

  it("a confirmation link is refused once the address has an account", async () => {
    await signupForm({ organizationName: "Race AS", email: "race@test.example" });
    const token = decodeURIComponent(
      outbox()
        .pop()!
        .match(/\/signup\?token=(\S+)/)![1],
    );
    await makeUser("race@test.example");
    expect((await call(signupAction, args(form("/signup", { intent: "confirm", token })))).status).toBe(410);
    expect((await (await call(signupLoader, args(get(`/signup?token=${encodeURIComponent(token)}`)))).json()).confirm.valid).toBe(false);
  });

  it("refuses organisation names without a letter or digit, and NUL characters, with 400", async () => {
    for (const name of ["\u200b\u200b", "---", "   "]) {
      const res = await signupForm({ organizationName: name, email: "blank-org@test.example" });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain("Enter the name of your organization.");
    }
    const nul = await signupForm({ organizationName: "\u0000\u0000", email: "nul-org@test.example" });
    expect(nul.status).toBe(400);
    expect(JSON.stringify(await nul.json())).toContain("organizationName");
    expect(await db().selectFrom("signup_requests").select("id").where("email", "in", ["blank-org@test.example", "nul-org@test.example"]).execute()).toEqual(
      [],
    );
  });

  it("an unknown intent is a 400", async () => {
    expect((await call(signupAction, args(form("/signup", { intent: "other" })))).status).toBe(400);
  });

  it("rejects a short password and different passwords", async () => {
    const res = await call(
      signupAction,
      args(form("/signup", { intent: "signup", organizationName: "X", email: "short@test.example", password: "short", confirmPassword: "other" })),
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
    // The page answers before the mail: it is a job.
    expect(outbox().length).toBe(before);
    await runQueuedJobs({ [PASSWORD_RESET_MAIL_JOB]: passwordResetMailJob });
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
    await runQueuedJobs({ [PASSWORD_RESET_MAIL_JOB]: passwordResetMailJob });
    expect(outbox().length).toBe(before);
  });

  it("the mailed link starts with the server's own address, whatever Host the request named", async () => {
    await makeUser("host@test.example");
    const before = outbox().length;
    const forged = new Request("http://evil.example/forgot-password", {
      method: "POST",
      body: new URLSearchParams({ email: "host@test.example" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Host: "evil.example", Origin: "http://evil.example" },
    });
    expect((await call(forgotAction, { request: forged, params: {}, context: { clientAddress: "198.51.100.20" } })).status).toBe(200);
    await runQueuedJobs({ [PASSWORD_RESET_MAIL_JOB]: passwordResetMailJob });
    const mail = outbox()
      .slice(before)
      .find((m) => m.includes("To: host@test.example"))!;
    expect(mail.match(/https?:\/\/[^/\s]+\/reset-password/)?.[0]).toBe(`${BASE}/reset-password`);
    expect(mail).not.toContain("evil.example");
  });

  it("one address asks a limited number of times (then 429, nothing queued); one account gets at most a few mails an hour", async () => {
    await makeUser("limit@test.example");
    const ask = (ip: string) =>
      call(forgotAction, {
        request: new Request(`${BASE}/forgot-password`, {
          method: "POST",
          body: new URLSearchParams({ email: "limit@test.example" }),
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
        }),
        params: {},
        context: { clientAddress: ip },
      });
    for (let i = 0; i < RESET_REQUESTS_PER_ADDRESS; i++) expect((await ask("198.51.100.30")).status).toBe(200);
    const refused = await ask("198.51.100.30");
    expect(refused.status).toBe(429);
    expect((await refused.json()).result.error[""]).toEqual([
      "Too many requests for a new password from your network. Wait 15 minutes and try again, or ask your administrator.",
    ]);
    const queued = await db().selectFrom("jobs").select("id").where("type", "=", PASSWORD_RESET_MAIL_JOB).where("status", "=", "queued").execute();
    expect(queued.length).toBe(RESET_REQUESTS_PER_ADDRESS);
    // Another address is not limited by the first; the account still gets only its few mails this hour.
    expect((await ask("198.51.100.31")).status).toBe(200);
    const before = outbox().length;
    await runQueuedJobs({ [PASSWORD_RESET_MAIL_JOB]: passwordResetMailJob });
    expect(
      outbox()
        .slice(before)
        .filter((m) => m.includes("To: limit@test.example")).length,
    ).toBe(RESET_MAILS_PER_ACCOUNT);
    const logged = await db()
      .selectFrom("security_events")
      .select("ip")
      .where("kind", "=", "password_reset_requested")
      .where("email", "=", "limit@test.example")
      .execute();
    expect(logged.length).toBe(RESET_REQUESTS_PER_ADDRESS + 1);
  });
});
