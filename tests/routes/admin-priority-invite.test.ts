import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { action, loader } from "~/routes/_app.admin.organization.$orgId.priority-suppliers.invite";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { call, form, get } from "../helpers/requests";
import { createConnection } from "../helpers/factory";

/**
 * /admin/organization/{orgId}/priority-suppliers/invite (decision 044): the installation's administrator
 * only (a visitor is sent to sign in, every other role gets 403); an unknown or non-customer orgId is 404. The preview
 * lists the priority suppliers' contacts with their state; "invite" sends one invitation mail each into the supplier's
 * organisation at level 1, never twice for one address and supplier, and its summary counts equal the database.
 */

const AT = "2025-01-01T00:00:00.000Z";
const cookie = (token: string) => ({ Cookie: `token=${token}` });
let admin: string;
let customer: number;
let supplierOrg: number;
const others: Record<string, string> = {};
const suppliers: Record<string, number> = {};

async function connect(child: number, contactEmail: string | null, isPriority = 1, isDeleted = 0) {
  await createConnection({ parent: customer, child, contactEmail, priority: isPriority, deleted: isDeleted, createdAt: AT });
}
const path = (orgId: number | string) => `/admin/organization/${orgId}/priority-suppliers/invite`;
const page = (token: string | null, orgId: number | string = customer) =>
  call(loader, { request: get(path(orgId), token ? cookie(token) : {}), params: { orgId: String(orgId) }, context: { clientAddress: "127.0.0.1" } });
const post = (token: string | null, fields: Record<string, string> = { intent: "invite" }, orgId: number | string = customer) =>
  call(action, { request: form(path(orgId), fields, token ? cookie(token) : {}), params: { orgId: String(orgId) }, context: { clientAddress: "127.0.0.1" } });
const invitations = () => db().selectFrom("invitations").select(["email", "organization_id", "access_level"]).orderBy("id").execute();

beforeAll(async () => {
  customer = await makeOrg("Invite Customer", "customer");
  supplierOrg = await makeOrg("Invite Respondent Org", "supplier");
  admin = await signedIn("admin@invite.test", customer, 3);
  await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", "admin@invite.test").execute();
  others.respondent = await signedIn("respondent@invite.test", supplierOrg, 1);
  for (const level of [1, 2, 3]) others[`level${level}`] = await signedIn(`level${level}@invite.test`, customer, level);

  for (const name of ["Alpha AS", "Beta AS", "Gamma AS", "Delta AS", "Epsilon AS", "Zeta AS", "Eta AS"]) suppliers[name] = await makeOrg(name, "supplier");
  await connect(suppliers["Alpha AS"], " Contact@Alpha.test "); // ready (normalised)
  await connect(suppliers["Beta AS"], "respondent@invite.test"); // already a user
  await connect(suppliers["Gamma AS"], null); // no email
  await connect(suppliers["Delta AS"], "before@delta.test"); // invited before
  await db()
    .insertInto("invitations")
    .values({
      token_hash: "x-delta",
      email: "before@delta.test",
      organization_id: suppliers["Delta AS"],
      access_level: 1,
      invited_by: null,
      created_at: AT,
      expires_at: AT,
      accepted_at: null,
    })
    .execute();
  await connect(suppliers["Epsilon AS"], "shared@contact.test"); // ready
  await connect(suppliers["Zeta AS"], "not-priority@zeta.test", 0); // not a priority supplier: not listed
  await connect(suppliers["Eta AS"], "removed@eta.test", 1, 1); // removed: not listed
});

describe("/admin/organization/{orgId}/priority-suppliers/invite", () => {
  it("sends a visitor to sign in and refuses every non-admin role, GET and POST, inviting nobody", async () => {
    expect((await page(null)).status).toBe(302);
    expect((await post(null)).status).toBe(302);
    for (const [role, token] of Object.entries(others)) {
      expect([role, (await page(token)).status]).toEqual([role, 403]);
      expect([role, (await post(token)).status]).toEqual([role, 403]);
    }
    expect(await invitations()).toHaveLength(1);
  });

  it("answers 404 for an unknown, malformed or non-customer organisation", async () => {
    for (const id of [999999, "abc", supplierOrg]) {
      expect([id, (await page(admin, id)).status]).toEqual([id, 404]);
      expect([id, (await post(admin, { intent: "invite" }, id)).status]).toEqual([id, 404]);
    }
  });

  it("previews the priority suppliers' contacts with whether they can be invited", async () => {
    const res = await page(admin);
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data.contacts.map((c: { supplierName: string; email: string | null; state: string }) => [c.supplierName, c.email, c.state])).toEqual([
      ["Alpha AS", "contact@alpha.test", "ready"],
      ["Beta AS", "respondent@invite.test", "user"],
      ["Delta AS", "before@delta.test", "invited"],
      ["Epsilon AS", "shared@contact.test", "ready"],
      ["Gamma AS", null, "noEmail"],
    ]);
  });

  it("invites each ready contact once, at level 1 into the supplier's organisation, with a mail; the summary equals the database", async () => {
    const before = await invitations();
    const res = await post(admin);
    expect(res.status).toBe(200);
    const { summary } = await res.json();
    const after = await invitations();
    const added = after.slice(before.length);
    expect(summary.invited).toHaveLength(added.length);
    expect(added).toEqual([
      { email: "contact@alpha.test", organization_id: suppliers["Alpha AS"], access_level: 1 },
      { email: "shared@contact.test", organization_id: suppliers["Epsilon AS"], access_level: 1 },
    ]);
    expect(summary.skipped.map((s: { reason: string }) => s.reason).sort()).toEqual(["invited", "noEmail", "user"]);
    expect(summary.failed).toEqual([]);
    const mails = outbox().filter((m) => m.includes("To: contact@alpha.test"));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatch(/\/invite-signup\?token=[A-Za-z0-9_-]+/);
    expect(mails[0]).toContain("Invite Customer");
    const logged = await db().selectFrom("mail_log").select(["to_address", "kind", "status"]).where("kind", "=", "supplier_invitation").execute();
    expect(logged).toHaveLength(2);
    const events = await db()
      .selectFrom("security_events")
      .select("detail")
      .where("kind", "=", "admin_action")
      .where("organization_id", "=", customer)
      .execute();
    expect(events.map((e) => JSON.parse(e.detail!))).toEqual([{ action: "priority_suppliers_invite", invited: 2, skipped: 3, failed: 0 }]);
    const sent = await db().selectFrom("security_events").select(["email", "organization_id"]).where("kind", "=", "invitation_sent").orderBy("id").execute();
    expect(sent).toEqual([
      { email: "contact@alpha.test", organization_id: suppliers["Alpha AS"] },
      { email: "shared@contact.test", organization_id: suppliers["Epsilon AS"] },
    ]);
  });

  it("never invites twice: a second run invites nobody and mails nothing", async () => {
    const before = (await invitations()).length;
    const mailsBefore = outbox().length;
    const { summary } = await (await post(admin)).json();
    expect(summary.invited).toEqual([]);
    expect(summary.skipped).toHaveLength(5);
    expect((await invitations()).length).toBe(before);
    expect(outbox().length).toBe(mailsBefore);
    const data = await (await page(admin)).json();
    expect(data.contacts.filter((c: { state: string }) => c.state === "ready")).toEqual([]);
  });

  it("refuses an unknown intent with 400", async () => {
    expect((await post(admin, { intent: "nope" })).status).toBe(400);
  });
});
