import net from "node:net";
import type { AddressInfo } from "node:net";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { env } from "@server/env";
import { readNotice } from "~/http/notice.server";
import { action as membersAction } from "~/routes/_app.my-organization.users/route";
import { action as organizationsAction } from "~/routes/_app.admin.organizations";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { BASE, call } from "../helpers/requests";

/**
 * A failed invitation mail (decision 046): SMTP points at a loopback port nobody listens on, so every mail fails. The
 * invitation (and the new organisation) is saved, the mail is in the mail log as failed, and the answer is the page
 * with a notice that says so — "Resend" for an organisation's administrator, the link to /admin/send-old for the
 * installation's operator — never an error page.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as { org: number; admin: string; operator: string };
let smtpBefore: string | undefined;

function post(path: string, fields: Record<string, string>, token: string): Request {
  return new Request(BASE + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, Cookie: `token=${token}` },
  });
}
const run = (fn: Fn, request: Request) => call(fn, { request, params: {}, context: { clientAddress: "192.0.2.8" } });
async function noticeOf(res: Response): Promise<{ notice: string | null; tone: string }> {
  const cookie = res.headers.get("Set-Cookie")?.split(";")[0] ?? "";
  const { notice, tone } = await readNotice(new Request(BASE, { headers: { Cookie: cookie } }));
  return { notice, tone };
}
const failedMailsTo = (email: string) => db().selectFrom("mail_log").select(["status", "subject"]).where("to_address", "=", email).execute();
const invitations = (email: string) => db().selectFrom("invitations").select(["organization_id", "access_level"]).where("email", "=", email).execute();

beforeAll(async () => {
  // A port that was just free: connecting to it is refused at once.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  smtpBefore = env().SMTP_URL;
  Object.assign(env(), { SMTP_URL: `smtp://127.0.0.1:${port}` });

  w.org = await makeOrg("Mailless Customer AS", "customer");
  w.admin = await signedIn("admin@mailless.test", w.org, 3);
  const operatorOrg = await makeOrg("Mailless Operator AS", "customer");
  w.operator = await signedIn("operator@mailless.test", operatorOrg, 3);
  await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", "operator@mailless.test").execute();
});

afterAll(() => {
  Object.assign(env(), { SMTP_URL: smtpBefore });
});

describe("/my-organization/users", () => {
  it("an invitation whose mail fails is saved and logged; the administrator is told to resend it later", async () => {
    const res = await run(
      membersAction,
      post("/my-organization/users", { intent: "invite", email: "lost@mailless.test", accessLevel: "2", redirectTo: "/my-organization/users" }, w.admin),
    );
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/my-organization/users"]);
    expect(await noticeOf(res)).toEqual({ notice: "organization:users.notices.mailFailed", tone: "warning" });
    expect(await invitations("lost@mailless.test")).toEqual([{ organization_id: w.org, access_level: 2 }]);
    expect(await failedMailsTo("lost@mailless.test")).toEqual([{ status: "failed", subject: "You are invited to Mailless Customer AS" }]);
  });

  it("a resend whose mail fails keeps the new link and says so", async () => {
    const { id } = await db().selectFrom("invitations").select("id").where("email", "=", "lost@mailless.test").executeTakeFirstOrThrow();
    const res = await run(membersAction, post("/my-organization/users", { intent: "resend", id: String(id), redirectTo: "/my-organization/users" }, w.admin));
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/my-organization/users"]);
    expect(await noticeOf(res)).toEqual({ notice: "organization:users.notices.mailFailed", tone: "warning" });
    expect((await failedMailsTo("lost@mailless.test")).map((m) => m.status)).toEqual(["failed", "failed"]);
  });

  it("the installation's operator is pointed to the mail that failed", async () => {
    const res = await run(
      membersAction,
      post("/my-organization/users", { intent: "invite", email: "lost2@mailless.test", accessLevel: "1", redirectTo: "/my-organization/users" }, w.operator),
    );
    expect(res.status).toBe(302);
    expect(await noticeOf(res)).toEqual({ notice: "organization:users.notices.mailFailedAdmin", tone: "warning" });
    expect(await invitations("lost2@mailless.test")).toHaveLength(1);
  });
});

describe("/admin/organizations", () => {
  it("a new organisation whose administrator's mail fails is saved with its invitation; the notice links to the failed mail", async () => {
    const fields = { intent: "create", name: "Unmailed Kunde AS", email: "first-admin@mailless.test", language: "en" };
    const res = await run(organizationsAction, post("/admin/organizations", fields, w.operator));
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/admin/organizations?q=Unmailed%20Kunde%20AS"]);
    expect(await noticeOf(res)).toEqual({ notice: "admin:notices.organizationCreatedMailFailed", tone: "warning" });
    const org = await db().selectFrom("organizations").select("id").where("name", "=", "Unmailed Kunde AS").executeTakeFirstOrThrow();
    expect(await invitations("first-admin@mailless.test")).toEqual([{ organization_id: org.id, access_level: 3 }]);
    expect(await failedMailsTo("first-admin@mailless.test")).toEqual([{ status: "failed", subject: "You are invited to administer Unmailed Kunde AS" }]);
  });
});
