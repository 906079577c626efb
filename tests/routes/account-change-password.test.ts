import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@server/db";
import { hashPassword, verifyPassword } from "@server/auth/password";
import { createSession } from "@server/auth/session";
import { hashToken } from "@server/auth/tokens";
import { outbox } from "@server/mail";
import { action, loader } from "~/routes/_app.account.change-password";
import { action as resetAction } from "~/routes/reset-password";
import { createPasswordReset } from "~/models/accounts/users.server";
import { makeOrg } from "../helpers/fixtures";
import { args, BASE, call, get } from "../helpers/requests";
import { createUser } from "../helpers/factory";

/**
 * /account/change-password (decision 040): the current password is checked (a wrong one is a field error
 * and counts like a failed sign-in), the new one must pass the length and weakness rules, success replaces the hash,
 * ends every other session of the user and keeps this one, mails a confirmation and records `password_changed`. The
 * sessions list shows only the user's own sessions, by handles that are not their ids; another user's session cannot
 * be ended. No password or session token ever appears in an answer.
 */

const PASS = "Old-horse-battery-9";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

async function makeUser(email: string, language: "en" | "no" = "en") {
  const org = await makeOrg(`Org of ${email}`, "customer");
  return createUser({
    email,
    organizationId: org,
    accessLevel: 2,
    language,
    passwordHash: await hashPassword(PASS),
    createdAt: "2025-01-01T00:00:00.000Z",
  });
}

const cookie = (token: string) => ({ Cookie: `token=${token}` });
function post(fields: Record<string, string>, token: string, address = "10.0.0.1"): Parameters<typeof action>[0] {
  const request = new Request(BASE + "/account/change-password", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, "User-Agent": CHROME, ...cookie(token) },
  });
  return args(request, address);
}
const change = (token: string, current: string, password: string, confirm = password, address?: string) =>
  call(action, post({ intent: "change-password", currentPassword: current, password, confirmPassword: confirm }, token, address));
type Page = {
  email: string;
  sessions: { handle: string; current: boolean; device: { browser: string | null; os: string | null }; createdAt: string; lastSeenAt: string | null }[];
};
async function page(token: string): Promise<Page> {
  const res = await call(loader, { request: get("/account/change-password", cookie(token)), params: {}, context: {} });
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}
const liveSessions = async (userId: number) => (await db().selectFrom("sessions").select("id").where("user_id", "=", userId).execute()).map((r) => r.id);
const events = (userId: number, kind: string) =>
  db().selectFrom("security_events").selectAll().where("user_id", "=", userId).where("kind", "=", kind).execute();

describe("/account/change-password: the password", () => {
  let userId: number;
  let token: string;
  let other: string;
  beforeAll(async () => {
    userId = await makeUser("kari.nordmann@change.test");
    token = (await createSession(userId, CHROME)).token;
    other = (await createSession(userId, FIREFOX)).token;
  });

  it("refuses a wrong current password as a field error, changes nothing and counts it as a failed sign-in", async () => {
    const res = await change(token, "Not-my-password-1", "Fresh-meadow-river-42");
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(JSON.parse(body).result.error.currentPassword).toEqual(["That is not your current password."]);
    for (const secret of ["Not-my-password-1", "Fresh-meadow-river-42", token]) expect(body).not.toContain(secret);
    const row = await db().selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow();
    expect(await verifyPassword(PASS, row.password_hash)).toBe(true);
    expect(await db().selectFrom("login_failures").select("key").where("key", "=", "pair:kari.nordmann@change.test|10.0.0.1").execute()).toHaveLength(1);
    expect((await liveSessions(userId)).length).toBe(2);
  });

  it.each([
    ["short1", "The password must have at least 8 characters."],
    ["passord123", "This password is among the most common ones and is guessed first. Choose another."],
    ["Sommer2024", "This password is among the most common ones and is guessed first. Choose another."],
    ["qwerty123", "This password is among the most common ones and is guessed first. Choose another."],
    ["kari.nordmann-2026", "The password must not contain your email address. Choose another."],
    ["aaaaaaaaaaaa", "The password must not be one character repeated or a plain sequence. Choose another."],
    ["abcdefghijk", "The password must not be one character repeated or a plain sequence. Choose another."],
    ["98765432", "The password must not be one character repeated or a plain sequence. Choose another."],
  ])("refuses the weak new password %j with its message", async (weak, message) => {
    const res = await change(token, PASS, weak);
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(JSON.parse(body).result.error.password).toEqual([message]);
    expect(body).not.toContain(weak);
    expect(body).not.toContain(PASS);
  });

  it("refuses two different new passwords", async () => {
    const res = await change(token, PASS, "Fresh-meadow-river-42", "Fresh-meadow-river-43");
    expect((await res.json()).result.error.confirmPassword).toEqual(["The two passwords are not the same."]);
  });

  it("answers an unknown intent with 400, and a visitor is sent to the start page", async () => {
    expect((await call(action, post({ intent: "nope" }, token))).status).toBe(400);
    const visitor = await call(action, post({ intent: "change-password" }, "not-a-token"));
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
  });

  it("on success replaces the hash, ends the other sessions, keeps this one, mails and records the change", async () => {
    const mailsBefore = outbox().length;
    const res = await change(token, PASS, "Fresh-meadow-river-42");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/account/change-password");
    expect(res.headers.get("Set-Cookie")).toContain("__flash=");
    const row = await db().selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow();
    expect(await verifyPassword("Fresh-meadow-river-42", row.password_hash)).toBe(true);
    expect(await liveSessions(userId)).toEqual([hashToken(token)]);
    expect((await page(token)).sessions).toHaveLength(1);
    // The other browser is a visitor now.
    const gone = await call(loader, { request: get("/account/change-password", cookie(other)), params: {}, context: {} });
    expect(gone.status).toBe(302);
    const mails = outbox().slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("To: kari.nordmann@change.test");
    expect(mails[0]).toContain("Subject: Your password was changed");
    expect(mails[0]).toContain("from 10.0.0.1, Chrome on Windows");
    expect(mails[0]).toContain(`${BASE}/forgot-password`);
    expect(mails[0]).not.toContain("Fresh-meadow-river-42");
    const [event] = await events(userId, "password_changed");
    expect(event).toMatchObject({ ip: "10.0.0.1", email: "kari.nordmann@change.test" });
    expect(JSON.parse(event!.detail!)).toEqual({ otherSessionsEnded: 1 });
    const log = JSON.stringify(await db().selectFrom("security_events").selectAll().where("user_id", "=", userId).execute());
    for (const secret of [PASS, "Fresh-meadow-river-42", "Not-my-password-1", token, other, hashToken(token)]) expect(log).not.toContain(secret);
  });

  it("mails the confirmation in the account's language", async () => {
    const id = await makeUser("ola@change.test", "no");
    const session = (await createSession(id, null)).token;
    const before = outbox().length;
    expect((await change(session, PASS, "Lang-fjord-morgen-77")).status).toBe(302);
    const [mail] = outbox().slice(before);
    expect(mail).toContain("Passordet ditt ble byttet");
    expect(mail).toContain("(norsk tid)");
  });

  it("slows down guessing the current password like sign-in failures, even for the right one", async () => {
    const id = await makeUser("guess@change.test");
    const session = (await createSession(id, null)).token;
    let last: Response | null = null;
    for (let i = 0; i < 12; i++) {
      last = await change(session, `Wrong-guess-${i}`, "Fresh-meadow-river-42", undefined, "10.9.9.9");
      if (last.status === 429) break;
    }
    expect(last!.status).toBe(429);
    expect((await last!.json()).result.error[""][0]).toMatch(/^Too many wrong passwords\. Wait \d+ minutes? and try again\.$/);
    expect((await change(session, PASS, "Fresh-meadow-river-42", undefined, "10.9.9.9")).status).toBe(429);
    const row = await db().selectFrom("users").select("password_hash").where("id", "=", id).executeTakeFirstOrThrow();
    expect(await verifyPassword(PASS, row.password_hash)).toBe(true);
  });
});

describe("/account/change-password: the sessions", () => {
  let mine: number;
  let theirs: number;
  let here: string;
  let phone: string;
  let laptop: string;
  let stranger: string;
  beforeAll(async () => {
    mine = await makeUser("sessions-me@change.test");
    theirs = await makeUser("sessions-them@change.test");
    here = (await createSession(mine, CHROME)).token;
    phone = (await createSession(mine, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1"))
      .token;
    laptop = (await createSession(mine, FIREFOX)).token;
    stranger = (await createSession(theirs, CHROME)).token;
  });

  it("lists only the user's own live sessions, this one first and marked, in plain words, without ids or tokens", async () => {
    const res = await call(loader, { request: get("/account/change-password", cookie(here)), params: {}, context: {} });
    const text = await res.text();
    const { sessions } = JSON.parse(text) as Page;
    expect(sessions[0]).toMatchObject({ current: true, device: { browser: "Chrome", os: "Windows" } });
    expect(sessions.slice(1).every((s) => !s.current)).toBe(true);
    expect(sessions).toHaveLength(3);
    expect(
      sessions
        .slice(1)
        .map((s) => `${s.device.browser} on ${s.device.os}`)
        .sort(),
    ).toEqual(["Firefox on Linux", "Safari on iOS"]);
    for (const secret of [here, phone, laptop, stranger, hashToken(here), hashToken(phone), hashToken(laptop), hashToken(stranger)])
      expect(text).not.toContain(secret);
  });

  it("cannot end another user's session, with their handle or anything else: 404, nothing changed", async () => {
    const theirHandle = (await page(stranger)).sessions[0]!.handle;
    for (const session of [theirHandle, hashToken(stranger), stranger, "", "x".repeat(500)]) {
      const res = await call(action, post({ intent: "end-session", session }, here));
      expect(res.status).toBe(404);
    }
    expect(await liveSessions(theirs)).toEqual([hashToken(stranger)]);
    expect((await liveSessions(mine)).length).toBe(3);
  });

  it("does not end this session by its handle (signing out does that)", async () => {
    const own = (await page(here)).sessions.find((s) => s.current)!.handle;
    expect((await call(action, post({ intent: "end-session", session: own }, here))).status).toBe(404);
    expect((await liveSessions(mine)).length).toBe(3);
  });

  it("ends one other session by its handle and records it", async () => {
    const target = (await page(here)).sessions.find((s) => s.device.browser === "Firefox")!.handle;
    const res = await call(action, post({ intent: "end-session", session: target }, here));
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/account/change-password"]);
    expect((await liveSessions(mine)).sort()).toEqual([hashToken(here), hashToken(phone)].sort());
    expect(await events(mine, "sessions_ended")).toHaveLength(1);
  });

  it("asks first: ?confirm=others is the confirmation step, only while other sessions are signed in", async () => {
    const step = async (token: string, query: string) => {
      const res = await call(loader, { request: get(`/account/change-password${query}`, cookie(token)), params: {}, context: {} });
      return ((await res.json()) as { confirmOthers: boolean }).confirmOthers;
    };
    expect(await step(here, "?confirm=others")).toBe(true);
    expect(await step(here, "")).toBe(false);
    expect(await step(here, "?confirm=all")).toBe(false);
    // The other user has one session only: nothing to confirm. Opening the step changes nothing.
    expect(await step(stranger, "?confirm=others")).toBe(false);
    expect((await liveSessions(mine)).length).toBe(2);
  });

  it("signs out everywhere else: every other session of the user ends, this one and other users' stay", async () => {
    await createSession(mine, FIREFOX);
    const res = await call(action, post({ intent: "end-others" }, here));
    expect(res.status).toBe(302);
    expect(await liveSessions(mine)).toEqual([hashToken(here)]);
    expect(await liveSessions(theirs)).toEqual([hashToken(stranger)]);
    const ended = await events(mine, "sessions_ended");
    expect(ended.map((e) => JSON.parse(e.detail!))).toContainEqual({ ended: 2, which: "others" });
  });
});

describe("/reset-password", () => {
  it("ends every session of the user and records password_reset", async () => {
    const id = await makeUser("reset@change.test");
    await createSession(id, CHROME);
    await createSession(id, FIREFOX);
    const reset = await createPasswordReset("reset@change.test");
    const request = new Request(BASE + "/reset-password", {
      method: "POST",
      body: new URLSearchParams({ token: reset!.token, password: "Fresh-meadow-river-42", confirmPassword: "Fresh-meadow-river-42" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
    });
    const res = await call(resetAction, args(request, "10.2.2.2"));
    expect(res.status).toBe(302);
    expect(await liveSessions(id)).toEqual([]);
    const [event] = await events(id, "password_reset");
    expect(event).toMatchObject({ ip: "10.2.2.2" });
    expect(JSON.parse(event!.detail!)).toEqual({ sessionsEnded: 2 });
    expect(JSON.stringify(event)).not.toContain(reset!.token);
  });
});

describe("secrets in logs", () => {
  afterEach(() => vi.restoreAllMocks());

  it("no password, session token or handle is written to the log while changing a password and ending sessions", async () => {
    const lines: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...parts: unknown[]) => void lines.push(parts.map(String).join(" ")));
    }
    const id = await makeUser("logs@change.test");
    const token = (await createSession(id, CHROME)).token;
    const other = (await createSession(id, FIREFOX)).token;
    const handle = (await page(token)).sessions.find((s) => !s.current)!.handle;
    await change(token, "Wrong-guess-1", "Fresh-meadow-river-42");
    await change(token, PASS, "passord123");
    await call(action, post({ intent: "end-session", session: handle }, token));
    expect((await change(token, PASS, "Fresh-meadow-river-42")).status).toBe(302);
    const log = lines.join("\n");
    for (const secret of [PASS, "Wrong-guess-1", "passord123", "Fresh-meadow-river-42", token, other, hashToken(token), hashToken(other), handle]) {
      expect(log).not.toContain(secret);
    }
  });
});
