import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { action, loader } from "~/routes/_app.admin.notifications";
import { loader as notificationsLoader } from "~/routes/_app.notifications/route";
import { loader as overviewLoader } from "~/routes/_app.overview";
import { makeOrg, signedIn } from "../helpers/fixtures";
import { args, call, form, get } from "../helpers/requests";

/**
 * /admin/notifications (decision 045): announcements by the installation's administrator only (a visitor is
 * sent to sign in, every other role gets 403 on GET and POST, nothing written); one for one organisation reaches its
 * users on /overview and /notifications and nobody else; "everyone" reaches every organisation; a mail is queued as a
 * job; wrong input is a 400 that keeps what was typed; withdrawing hides it; an unknown one is 404.
 */

const cookie = (token: string) => ({ Cookie: `token=${token}` });
const w = {} as { admin: string; orgA: number; orgB: number; memberA: string; memberB: string; respondentB: string; others: Record<string, string> };

const page = (token: string | null, query = "") => call(loader, args(get(`/admin/notifications${query}`, token ? cookie(token) : {})));
const post = (token: string | null, fields: Record<string, string>) => call(action, args(form("/admin/notifications", fields, token ? cookie(token) : {})));
const count = async () =>
  Number(
    (
      await db()
        .selectFrom("admin_announcements")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const overviewTitles = async (token: string) => {
  const data = await (await call(overviewLoader, args(get("/overview", cookie(token))))).json();
  return (data.data.announcements as { title: string }[]).map((a: { title: string }) => a.title) as string[];
};
const notificationTitles = async (token: string) =>
  ((await (await call(notificationsLoader, args(get("/notifications", cookie(token))))).json()).announcements as { title: string }[]).map((a) => a.title);

beforeAll(async () => {
  const operator = await makeOrg("Kunngjøring Drift AS", "customer");
  w.admin = await signedIn("admin@announce.test", operator, 1);
  await db().updateTable("users").set({ is_admin: 1 }).where("email", "=", "admin@announce.test").execute();
  w.orgA = await makeOrg("Alfa Kunngjøring AS", "customer");
  w.orgB = await makeOrg("Beta Leverandør AS", "supplier");
  w.memberA = await signedIn("member-a@announce.test", w.orgA, 2);
  w.memberB = await signedIn("member-b@announce.test", await makeOrg("Gamma Kunde AS", "customer"), 2);
  w.respondentB = await signedIn("respondent-b@announce.test", w.orgB, 1);
  w.others = { respondent: w.respondentB };
  for (const level of [1, 2, 3]) w.others[`level${level}`] = await signedIn(`level${level}@announce.test`, w.orgA, level);
});

describe("/admin/notifications", () => {
  it("sends a visitor to sign in and refuses every other role, GET and POST, writing nothing", async () => {
    const before = await count();
    expect((await page(null)).status).toBe(302);
    expect((await post(null, { intent: "create", audience: "everyone", title: "T", body: "B" })).status).toBe(302);
    for (const [role, token] of Object.entries(w.others)) {
      expect([role, (await page(token)).status]).toEqual([role, 403]);
      expect([role, (await post(token, { intent: "create", audience: "everyone", title: "T", body: "B" })).status]).toEqual([role, 403]);
      expect([role, (await post(token, { intent: "withdraw", id: "1" })).status]).toEqual([role, 403]);
    }
    expect(await count()).toBe(before);
  });

  it("offers the organisations with active users, customers and suppliers", async () => {
    const empty = await makeOrg("Tom Organisasjon AS", "customer");
    const data = await (await page(w.admin)).json();
    const ids = data.audiences.map((o: { id: number }) => o.id);
    expect(ids).toEqual(expect.arrayContaining([w.orgA, w.orgB]));
    expect(ids).not.toContain(empty);
    expect(data.audiences.find((o: { id: number }) => o.id === w.orgB).kind).toBe("supplier");
  });

  it("publishes to one organisation: its users see it on the overview and the notifications, nobody else", async () => {
    const res = await post(w.admin, { intent: "create", audience: String(w.orgA), title: "Vedlikehold i kveld", body: "Tjenesten er nede\nkl. 22–23." });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/notifications");
    expect(await overviewTitles(w.memberA)).toContain("Vedlikehold i kveld");
    expect(await notificationTitles(w.memberA)).toContain("Vedlikehold i kveld");
    expect(await overviewTitles(w.memberB)).not.toContain("Vedlikehold i kveld");
    expect(await notificationTitles(w.memberB)).not.toContain("Vedlikehold i kveld");
    expect(await overviewTitles(w.respondentB)).not.toContain("Vedlikehold i kveld");
    const row = await db().selectFrom("admin_announcements").selectAll().where("title", "=", "Vedlikehold i kveld").executeTakeFirstOrThrow();
    expect([row.organization_id, row.body, row.mail_queued_at]).toEqual([w.orgA, "Tjenesten er nede\nkl. 22–23.", null]);
    const listed = (await (await page(w.admin)).json()).list.rows[0];
    expect(listed).toMatchObject({ title: "Vedlikehold i kveld", organizationName: "Alfa Kunngjøring AS", author: "admin@announce.test", status: "shown" });
  });

  it("publishes to everyone with a mail: every organisation sees it and one mailing job is queued", async () => {
    const jobsBefore = await db().selectFrom("jobs").select("id").where("type", "=", "announcements.mail").execute();
    const res = await post(w.admin, { intent: "create", audience: "everyone", title: "Ny versjon", body: "Nye skjermbilder.", mail: "on" });
    expect(res.status).toBe(302);
    for (const token of [w.memberA, w.memberB, w.respondentB]) expect(await overviewTitles(token)).toContain("Ny versjon");
    const row = await db().selectFrom("admin_announcements").selectAll().where("title", "=", "Ny versjon").executeTakeFirstOrThrow();
    expect(row.organization_id).toBeNull();
    expect(row.mail_queued_at).not.toBeNull();
    const jobs = await db().selectFrom("jobs").select(["payload"]).where("type", "=", "announcements.mail").execute();
    expect(jobs.length - jobsBefore.length).toBe(1);
    expect(JSON.parse(jobs.at(-1)!.payload)).toEqual({ announcementId: row.id });
  });

  it("refuses wrong input with 400 and the field's message, keeping what was typed, and writes nothing", async () => {
    const before = await count();
    const cases: Array<[Record<string, string>, string]> = [
      [{ intent: "create", audience: "everyone", title: "", body: "Text" }, "title"],
      [{ intent: "create", audience: "everyone", title: "x".repeat(201), body: "Text" }, "title"],
      [{ intent: "create", audience: "everyone", title: "Title", body: "   " }, "body"],
      [{ intent: "create", audience: "everyone", title: "Title", body: "y".repeat(2001) }, "body"],
      [{ intent: "create", audience: "somebody", title: "Title", body: "Text" }, "audience"],
    ];
    for (const [fields, field] of cases) {
      const res = await post(w.admin, fields);
      expect([field, res.status]).toEqual([field, 400]);
      const body = await res.json();
      expect(body.result.error[field]?.length).toBeGreaterThan(0);
      expect(body.result.initialValue.body).toBe(fields.body);
    }
    const unknown = await post(w.admin, { intent: "explode" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).result.error[""]).toEqual([expect.any(String)]);
    expect(await count()).toBe(before);
  });

  it("answers 404 for an organisation that cannot be addressed", async () => {
    const gone = await makeOrg("Deaktivert AS", "customer");
    await signedIn("gone@announce.test", gone, 3);
    await db().updateTable("organizations").set({ deactivated_at: new Date().toISOString() }).where("id", "=", gone).execute();
    for (const audience of [String(gone), "999999"]) {
      const res = await post(w.admin, { intent: "create", audience, title: "Til ingen", body: "Text" });
      expect([audience, res.status]).toEqual([audience, 404]);
      expect((await res.json()).result.error.audience).toEqual([expect.any(String)]);
    }
    expect(await db().selectFrom("admin_announcements").select("id").where("title", "=", "Til ingen").execute()).toEqual([]);
  });

  it("withdraws: users no longer see it; withdrawing again or an unknown one is 404", async () => {
    const row = await db().selectFrom("admin_announcements").select("id").where("title", "=", "Vedlikehold i kveld").executeTakeFirstOrThrow();
    const res = await post(w.admin, { intent: "withdraw", id: String(row.id), redirectTo: "/admin/notifications?page=1" });
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/admin/notifications?page=1"]);
    expect(await overviewTitles(w.memberA)).not.toContain("Vedlikehold i kveld");
    expect(await notificationTitles(w.memberA)).not.toContain("Vedlikehold i kveld");
    expect((await post(w.admin, { intent: "withdraw", id: String(row.id) })).status).toBe(404);
    expect((await post(w.admin, { intent: "withdraw", id: "abc" })).status).toBe(404);
    const listed = (await (await page(w.admin)).json()).list.rows.find((r: { id: number }) => r.id === row.id);
    expect(listed.status).toBe("withdrawn");
    const events = await db().selectFrom("security_events").select("detail").where("kind", "=", "admin_action").execute();
    const actions = events.map((e) => JSON.parse(e.detail ?? "{}").action);
    expect(actions).toEqual(expect.arrayContaining(["announcement_created", "announcement_withdrawn"]));
  });
});
