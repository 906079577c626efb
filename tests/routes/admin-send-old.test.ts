import net from "node:net";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { env } from "@server/env";
import { outbox } from "@server/mail";
import { action, loader } from "~/routes/_app.admin.send-old";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { args, call, form, get } from "../helpers/requests";

/**
 * /admin/send-old (decision 044): the failed mails of the mail log, for the installation's administrator only
 * (a visitor is sent to sign in, every other role gets 403, GET and POST); sending one again through sendMail marks it
 * sent (the outbox has it) or, when it fails again, counts the attempt and keeps the new error; "send all" sends every
 * failed mail; each action is an `admin_action` in the security log; a mail that is not a failed one is 404.
 */

const cookie = (token: string) => ({ Cookie: `token=${token}` });
let admin: string;
const others: Record<string, string> = {};

async function failedRow(to: string, body = `Body for ${to}`): Promise<number> {
  const at = "2026-11-01T10:00:00.000Z";
  const row = await db()
    .insertInto("mail_log")
    .values({
      to_address: to,
      subject: `Subject for ${to}`,
      kind: "test",
      body,
      headers: null,
      status: "failed",
      error: "connect ECONNREFUSED",
      attempts: 1,
      created_at: new Date().toISOString(),
      last_attempt_at: at,
      sent_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
const page = (token: string | null, query = "") => call(loader, args(get(`/admin/send-old${query}`, token ? cookie(token) : {})));
const post = (token: string | null, fields: Record<string, string>) => call(action, args(form("/admin/send-old", fields, token ? cookie(token) : {})));
const row = (id: number) => db().selectFrom("mail_log").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

beforeAll(async () => {
  const customer = await makeOrg("Send-old Customer", "customer");
  const supplier = await makeOrg("Send-old Supplier", "supplier");
  admin = await signedIn("admin@send-old.test", customer, 3);
  await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", "admin@send-old.test").execute();
  others.respondent = await signedIn("respondent@send-old.test", supplier, 1);
  for (const level of [1, 2, 3]) others[`level${level}`] = await signedIn(`level${level}@send-old.test`, customer, level);
});

describe("/admin/send-old", () => {
  it("sends a visitor to sign in and refuses every non-admin role, GET and POST, changing nothing", async () => {
    const id = await failedRow("guarded@send-old.test");
    expect((await page(null)).status).toBe(302);
    expect((await post(null, { intent: "resend", id: String(id) })).status).toBe(302);
    for (const [role, token] of Object.entries(others)) {
      expect([role, (await page(token)).status]).toEqual([role, 403]);
      expect([role, (await post(token, { intent: "resend", id: String(id) })).status]).toEqual([role, 403]);
      expect([role, (await post(token, { intent: "resend-all" })).status]).toEqual([role, 403]);
    }
    expect((await row(id)).status).toBe("failed");
    expect(outbox().some((m) => m.includes("guarded@send-old.test"))).toBe(false);
    await db().deleteFrom("mail_log").execute();
  });

  it("shows a clear empty state with nothing failed", async () => {
    const res = await page(admin);
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data).toMatchObject({ total: 0, mails: [], confirmAll: false });
  });

  it("lists the failed mails with their error, paged", async () => {
    for (let i = 0; i < 27; i++) await failedRow(`paged${i}@send-old.test`);
    await db()
      .insertInto("mail_log")
      .values({
        to_address: "sent@send-old.test",
        subject: "s",
        kind: null,
        body: "b",
        headers: null,
        status: "sent",
        error: null,
        attempts: 1,
        created_at: new Date().toISOString(),
        last_attempt_at: new Date().toISOString(),
        sent_at: new Date().toISOString(),
      })
      .execute();
    const first = await (await page(admin)).json();
    expect(first.total).toBe(27);
    expect(first.pageCount).toBe(2);
    expect(first.mails).toHaveLength(25);
    expect(first.mails[0].error).toBe("connect ECONNREFUSED");
    expect(first.mails.some((m: { to_address: string }) => m.to_address === "sent@send-old.test")).toBe(false);
    const second = await (await page(admin, "?page=2")).json();
    expect(second.mails).toHaveLength(2);
    expect((await (await page(admin, "?page=abc")).json()).page).toBe(1);
    expect((await (await page(admin, "?page=99")).json()).page).toBe(2);
    expect((await (await page(admin, "?confirm=all")).json()).confirmAll).toBe(true);
    await db().deleteFrom("mail_log").execute();
  });

  it("sends one again: success marks it sent and the outbox has it, with an admin_action event", async () => {
    const id = await failedRow("again@send-old.test", "The link https://app.test/x");
    const res = await post(admin, { intent: "resend", id: String(id) });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/send-old");
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2, error: null });
    const mails = outbox().filter((m) => m.includes("To: again@send-old.test"));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("The link https://app.test/x");
    const events = await db().selectFrom("security_events").select(["kind", "detail"]).where("kind", "=", "admin_action").execute();
    expect(events.some((e) => e.detail?.includes('"mail_resend"') && e.detail.includes(`"mailId":${id}`))).toBe(true);
    // Sent now: a second post finds no failed mail and sends nothing.
    expect((await post(admin, { intent: "resend", id: String(id) })).status).toBe(404);
    expect(outbox().filter((m) => m.includes("To: again@send-old.test"))).toHaveLength(1);
  });

  it("comes back to the page of the list it was sent from, with JavaScript (a fetcher posts to that URL) and without (redirectTo)", async () => {
    const plain = await post(admin, { intent: "resend", id: String(await failedRow("paged-plain@send-old.test")), redirectTo: "/admin/send-old?page=2" });
    expect([plain.status, plain.headers.get("Location")]).toEqual([302, "/admin/send-old?page=2"]);
    const id = await failedRow("paged-fetched@send-old.test");
    const fetched = await call(action, args(form("/admin/send-old?page=2", { intent: "resend", id: String(id) }, cookie(admin))));
    expect([fetched.status, fetched.headers.get("Location")]).toEqual([302, "/admin/send-old?page=2"]);
  });

  it("a new failure counts the attempt and keeps the new error", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const id = await failedRow("refused@send-old.test");
    Object.assign(env(), { SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const res = await post(admin, { intent: "resend", id: String(id) });
      expect(res.status).toBe(302);
      const stored = await row(id);
      expect(stored).toMatchObject({ status: "failed", attempts: 2 });
      expect(stored.error).toMatch(/ECONNREFUSED/);
      expect(stored.last_attempt_at > "2026-11-01T10:00:00.000Z").toBe(true);
    } finally {
      Object.assign(env(), { SMTP_URL: undefined });
    }
    await db().deleteFrom("mail_log").execute();
  });

  it("sends all again", async () => {
    const ids = [await failedRow("all1@send-old.test"), await failedRow("all2@send-old.test")];
    const res = await post(admin, { intent: "resend-all" });
    expect(res.status).toBe(302);
    for (const id of ids) expect((await row(id)).status).toBe("sent");
    expect(outbox().filter((m) => /To: all[12]@send-old\.test/.test(m))).toHaveLength(2);
    expect((await (await page(admin)).json()).total).toBe(0);
  });

  it("refuses an unknown intent or a bad id with 400/404, no 500", async () => {
    expect((await post(admin, { intent: "nope" })).status).toBe(400);
    expect((await post(admin, { intent: "resend" })).status).toBe(400);
    expect((await post(admin, { intent: "resend", id: "abc" })).status).toBe(404);
    expect((await post(admin, { intent: "resend", id: "999999" })).status).toBe(404);
  });
});
