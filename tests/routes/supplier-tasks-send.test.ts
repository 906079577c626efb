import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { startWorker, type Worker } from "@server/jobs/worker";
import { MAX_CAMPAIGN_SUPPLIERS, SEND_CAMPAIGN_JOB, sendCampaignJob } from "~/models/tasks/campaigns.server";
import { action as sendAction, loader as sendLoader } from "~/routes/_app.supplier_tasks_.send/route";
import { loader as campaignLoader } from "~/routes/_app.supplier_tasks_.campaigns.$id";
import { action as remindersAction, loader as remindersLoader } from "~/routes/_app.supplier_tasks_.reminders";
import { loader as suppliersLoader } from "~/routes/_app.suppliers";
import { follow, makeOrg, signedIn, surveyTemplate } from "../helpers/fixtures";
import { BASE, call, get } from "../helpers/requests";
import { until } from "../helpers/until";
import { createConnection, createOrganization } from "../helpers/factory";

/**
 * The send page, the campaign page and the reminder settings against a real SQLite file: from one supplier, from chosen
 * rows and from a tag filter (resolved by the supplier list's own query); refusals that keep what was typed; another
 * organisation's suppliers, templates and campaigns; access from the wrong side.
 */

type Fn = (a: LoaderFunctionArgs) => unknown;
const w = {} as {
  customer: number;
  other: number;
  a: number;
  b: number;
  c: number;
  d: number;
  theirs: number;
  tag: number;
  analyst: string;
  viewer: string;
  otherAnalyst: string;
  respondent: string;
  taskTemplate: number;
  otherTemplate: number;
  survey: number;
};
let worker: Worker;

const cookie = (token?: string): Record<string, string> => (token ? { Cookie: `token=${token}` } : {});
const run = (fn: Fn, request: Request, params: Record<string, string> = {}) => call(fn, { request, params, context: {} });
const page = (fn: Fn, path: string, token?: string, params: Record<string, string> = {}) => run(fn, get(path, cookie(token)), params);
function post(path: string, fields: Array<[string, string]>, token?: string): Request {
  return new Request(BASE + path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...cookie(token) },
  });
}
type Reply = { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } };
const jobCount = async () =>
  Number(
    (
      await db()
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("type", "=", SEND_CAMPAIGN_JOB)
        .executeTakeFirstOrThrow()
    ).n,
  );
type SendData = { recipients: Array<{ supplierOrganizationId: number; name: string; contactEmail: string | null }>; unknown: number; byFilter: boolean };

beforeAll(async () => {
  w.customer = await makeOrg("Send Customer AS", "customer");
  w.other = await makeOrg("Send Other AS", "customer");
  w.a = await makeOrg("Alfa Leveranse AS", "supplier", "919300001");
  w.b = await makeOrg("Beta Leveranse AS", "supplier", "919300002");
  w.c = await makeOrg("Gamma Leveranse AS", "supplier", "919300003");
  w.d = await makeOrg("Delta Untagged AS", "supplier", "919300004");
  w.theirs = await makeOrg("Theirs Only AS", "supplier", "919300005");
  for (const s of [w.a, w.b, w.c, w.d]) await follow(w.customer, s);
  await follow(w.other, w.theirs);
  await db().updateTable("organization_connections").set({ contact_email: "post@alfa.example" }).where("child_organization_id", "=", w.a).execute();
  await db().updateTable("organization_connections").set({ contact_email: "post@beta.example" }).where("child_organization_id", "=", w.b).execute();
  const at = "2026-01-01T00:00:00.000Z";
  w.tag = (
    await db()
      .insertInto("organization_tags")
      .values({ organization_id: w.customer, title: "Survey 2026", created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const connections = await db()
    .selectFrom("organization_connections")
    .select(["id", "child_organization_id"])
    .where("parent_organization_id", "=", w.customer)
    .where("child_organization_id", "in", [w.a, w.b, w.c])
    .execute();
  for (const c of connections) await db().insertInto("organization_connection_tags").values({ connection_id: c.id, tag_id: w.tag, created_at: at }).execute();
  w.analyst = await signedIn("analyst@send.test", w.customer, 2);
  w.viewer = await signedIn("viewer@send.test", w.customer, 1);
  w.otherAnalyst = await signedIn("analyst@send-other.test", w.other, 2);
  w.respondent = await signedIn("respondent@send.test", w.a, 3);
  w.taskTemplate = (
    await db()
      .insertInto("compliance_task_templates")
      .values({ organization_id: w.customer, title: "Sign the supplier code", title_no: "Signer leverandørkoden", due_in_days: 30, created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  w.otherTemplate = (
    await db()
      .insertInto("compliance_task_templates")
      .values({ organization_id: w.other, title: "Their template", created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  w.survey = await surveyTemplate(w.customer, "Security basics");
  worker = startWorker({ db: db(), handlers: { [SEND_CAMPAIGN_JOB]: sendCampaignJob }, pollMs: 20, log: () => {} });
});

afterAll(async () => worker.stop());

describe("who may send", () => {
  it("a visitor is sent to sign in; level 1 and a supplier respondent are refused; another organisation's campaign is a 404", async () => {
    for (const [fn, path] of [
      [sendLoader, "/supplier_tasks/send"],
      [remindersLoader, "/supplier_tasks/reminders"],
    ] as const) {
      const visitor = await page(fn, path);
      expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
      expect((await page(fn, path, w.viewer)).status).toBe(403);
      expect((await page(fn, path, w.respondent)).status).toBe(403);
      expect((await page(fn, path, w.analyst)).status).toBe(200);
    }
    const before = await jobCount();
    for (const token of [w.viewer, w.respondent])
      expect(
        (
          await run(
            sendAction,
            post(
              "/supplier_tasks/send",
              [
                ["intent", "send"],
                ["template", `task:${w.taskTemplate}`],
                ["supplier", String(w.a)],
              ],
              token,
            ),
          )
        ).status,
      ).toBe(403);
    expect(await jobCount()).toBe(before);
    expect((await page(campaignLoader, "/supplier_tasks/campaigns/999999", w.analyst, { id: "999999" })).status).toBe(404);
    const visitor = await page(campaignLoader, "/supplier_tasks/campaigns/1", undefined, { id: "1" });
    expect([visitor.status, visitor.headers.get("Location")]).toEqual([302, "/"]);
    for (const token of [w.viewer, w.respondent]) expect((await page(campaignLoader, "/supplier_tasks/campaigns/1", token, { id: "1" })).status).toBe(403);
    expect((await page(campaignLoader, "/supplier_tasks/campaigns/abc", w.analyst, { id: "abc" })).status).toBe(400);
  });
});

describe("the send page", () => {
  it("from one supplier: lists it with its contact e-mail and the templates of the organisation only, in the user's language", async () => {
    const res = await page(sendLoader, `/supplier_tasks/send?supplier=${w.a}`, w.analyst);
    const data = (await res.json()) as SendData & { templates: Array<{ value: string; title: string }> };
    expect(data.recipients).toEqual([{ supplierOrganizationId: w.a, name: "Alfa Leveranse AS", orgNumber: "919300001", contactEmail: "post@alfa.example" }]);
    const values = data.templates.map((t) => t.value);
    expect(values).toContain(`task:${w.taskTemplate}`);
    expect(values).toContain(`survey:${w.survey}`);
    expect(values).not.toContain(`task:${w.otherTemplate}`);
  });

  it("chosen rows: another organisation's supplier and made-up ids are left out and counted", async () => {
    const res = await page(sendLoader, `/supplier_tasks/send?supplier=${w.b}&supplier=${w.theirs}&supplier=${w.a}&supplier=x&supplier=99999999`, w.analyst);
    const data = (await res.json()) as SendData;
    expect(data.recipients.map((r) => r.name)).toEqual(["Alfa Leveranse AS", "Beta Leveranse AS"]);
    expect(data.unknown).toBe(2);
  });

  it("every row of a tag filter: the supplier list's own filter, the same rows /suppliers shows", async () => {
    const res = await page(sendLoader, `/supplier_tasks/send?filter=1&tag=${w.tag}`, w.analyst);
    const data = (await res.json()) as SendData;
    expect(data.byFilter).toBe(true);
    expect(data.recipients.map((r) => r.supplierOrganizationId)).toEqual([w.a, w.b, w.c]);
    const list = (await (await page(suppliersLoader, `/suppliers?tag=${w.tag}`, w.analyst)).json()) as {
      list: { rows: Array<{ supplierOrganizationId: number }> };
    };
    expect(list.list.rows.map((r) => r.supplierOrganizationId)).toEqual(data.recipients.map((r) => r.supplierOrganizationId));
    // Another organisation's tag selects nothing of theirs.
    const theirs = (await (await page(sendLoader, `/supplier_tasks/send?filter=1&tag=${w.tag}`, w.otherAnalyst)).json()) as SendData;
    expect(theirs.recipients).toEqual([]);
  });
});

describe("sending", () => {
  it("by tag: queues a campaign, redirects to its page, which shows Sending… and then who got it and who was skipped", async () => {
    const before = outbox().length;
    const res = await run(
      sendAction,
      post(
        `/supplier_tasks/send?filter=1&tag=${w.tag}`,
        [
          ["intent", "send"],
          ["filter", "1"],
          ["tag", String(w.tag)],
          ["template", `survey:${w.survey}`],
          ["dueDate", "2099-03-01"],
          ["message", "Please answer before March."],
          ["yearly", "on"],
          [`email_${w.a}`, "post@alfa.example"],
          [`email_${w.b}`, "kari@beta.example"],
          [`email_${w.c}`, ""],
        ],
        w.analyst,
      ),
    );
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    const id = /^\/supplier_tasks\/campaigns\/(\d+)$/.exec(location)![1];
    const campaign = await db().selectFrom("task_campaigns").selectAll().where("id", "=", Number(id)).executeTakeFirstOrThrow();
    expect(campaign).toMatchObject({
      organization_id: w.customer,
      kind: "survey",
      due_date: "2099-03-01",
      recurrence: "yearly",
      message: "Please answer before March.",
    });

    const view = async () =>
      (
        (await (await page(campaignLoader, location, w.analyst, { id })).json()) as {
          campaign: { state: string; summary: { sent: Array<{ name: string; email: string }>; skipped: Array<{ name: string; reason: string }> } | null };
        }
      ).campaign;
    const done = await until(view, (c) => c.state === "sent");
    expect(done.summary!.sent.map((s) => [s.name, s.email])).toEqual([
      ["Alfa Leveranse AS", "post@alfa.example"],
      ["Beta Leveranse AS", "kari@beta.example"],
    ]);
    expect(done.summary!.skipped).toEqual([{ supplierOrganizationId: w.c, name: "Gamma Leveranse AS", reason: "noContactEmail" }]);
    expect(outbox().length - before).toBe(2);
    // Another organisation cannot read it.
    expect((await page(campaignLoader, location, w.otherAnalyst, { id })).status).toBe(404);
  });

  it("from one supplier with another address: the typed address wins, the due date comes from the template", async () => {
    const res = await run(
      sendAction,
      post(
        `/supplier_tasks/send?supplier=${w.d}`,
        [
          ["intent", "send"],
          ["supplier", String(w.d)],
          ["template", `task:${w.taskTemplate}`],
          [`email_${w.d}`, "ola@delta.example"],
        ],
        w.analyst,
      ),
    );
    expect(res.status).toBe(302);
    const id = Number(/(\d+)$/.exec(res.headers.get("Location")!)![1]);
    const campaign = await db().selectFrom("task_campaigns").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(campaign.due_date).not.toBeNull();
    expect(campaign.recurrence).toBeNull();
    const job = await db().selectFrom("jobs").select("payload").where("type", "=", SEND_CAMPAIGN_JOB).orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(JSON.parse(job.payload)).toEqual({ campaignId: id, recipients: [{ supplierOrganizationId: w.d, email: "ola@delta.example" }] });
  });

  const base: Array<[string, string]> = [
    ["intent", "send"],
    ["supplier", "0"],
    ["template", "task:0"],
    ["message", "Kept message"],
    ["dueDate", ""],
  ];
  const fields = (changes: Record<string, string | string[]>): Array<[string, string]> => {
    const out: Array<[string, string]> = [];
    for (const [name, value] of base) {
      if (name in changes) continue;
      out.push([name, name === "supplier" ? String(w.a) : name === "template" ? `task:${w.taskTemplate}` : value]);
    }
    for (const [name, value] of Object.entries(changes)) for (const v of Array.isArray(value) ? value : [value]) out.push([name, v]);
    return out;
  };

  it.each([
    ["no template", () => ({ template: "" }), "template", "Choose a task or survey template."],
    ["another organisation's template", () => ({ template: `task:${w.otherTemplate}` }), "template", "This template can no longer be sent"],
    ["a due date in the past", () => ({ dueDate: "2020-01-01" }), "dueDate", "The due date has passed."],
    ["a date that does not exist", () => ({ dueDate: "2099-02-30" }), "dueDate", "Write the date as YYYY-MM-DD"],
    ["a bad address", () => ({ [`email_${w.a}`]: "not an address" }), "email_a", "This is not an e-mail address."],
    ["a message too long", () => ({ message: "x".repeat(2001) }), "message", "Write at most 2000 characters."],
    ["another organisation's supplier", () => ({ supplier: [String(w.a), String(w.theirs)] }), "", "1 of the suppliers is not among your suppliers"],
    ["no supplier", () => ({ supplier: [] }), "", "No suppliers are chosen."],
  ])("refuses %s with 400, its message, what was typed kept, nothing queued", async (_, change, field, message) => {
    const before = await jobCount();
    const res = await run(sendAction, post("/supplier_tasks/send", fields(change()), w.analyst));
    expect(res.status).toBe(400);
    const reply = (await res.json()) as Reply;
    // The supplier ids are known only once the suppliers exist (after the table is built).
    const name = field === "email_a" ? `email_${w.a}` : field;
    expect((reply.result.error[name] ?? []).join(" ")).toContain(message);
    expect(reply.result.initialValue.message).toBe((change() as { message?: string }).message ?? "Kept message");
    expect(await jobCount()).toBe(before);
  });

  it("an unknown intent is a 400", async () => {
    expect((await run(sendAction, post("/supplier_tasks/send", [["intent", "nope"]], w.analyst))).status).toBe(400);
  });
});

describe("reminder settings", () => {
  it("show the defaults, save a valid change, refuse a bad one keeping what was typed; another organisation keeps its own", async () => {
    const read = async (token: string) => ((await (await page(remindersLoader, "/supplier_tasks/reminders", token)).json()) as { settings: unknown }).settings;
    expect(await read(w.analyst)).toEqual({ enabled: true, daysBefore: [7, 3, 1], daysAfter: [1] });
    const bad = await run(
      remindersAction,
      post(
        "/supplier_tasks/reminders",
        [
          ["intent", "save"],
          ["enabled", "on"],
          ["daysBefore", "7, 90"],
          ["daysAfter", "one"],
        ],
        w.analyst,
      ),
    );
    expect(bad.status).toBe(400);
    const reply = (await bad.json()) as Reply;
    expect(reply.result.error.daysBefore).toEqual(["Each day must be from 0 to 60."]);
    expect(reply.result.error.daysAfter).toEqual(["Write whole days separated by commas, for example 7, 3, 1."]);
    expect(reply.result.initialValue.daysBefore).toBe("7, 90");
    expect(await read(w.analyst)).toEqual({ enabled: true, daysBefore: [7, 3, 1], daysAfter: [1] });

    const ok = await run(
      remindersAction,
      post(
        "/supplier_tasks/reminders",
        [
          ["intent", "save"],
          ["daysBefore", "14 2"],
          ["daysAfter", ""],
        ],
        w.analyst,
      ),
    );
    expect([ok.status, ok.headers.get("Location")]).toEqual([302, "/supplier_tasks/reminders"]);
    expect(await read(w.analyst)).toEqual({ enabled: false, daysBefore: [14, 2], daysAfter: [] });
    expect(await read(w.otherAnalyst)).toEqual({ enabled: true, daysBefore: [7, 3, 1], daysAfter: [1] });
    for (const token of [w.viewer, w.respondent])
      expect(
        (
          await run(
            remindersAction,
            post(
              "/supplier_tasks/reminders",
              [
                ["intent", "save"],
                ["daysBefore", "1"],
              ],
              token,
            ),
          )
        ).status,
      ).toBe(403);
    expect((await run(remindersAction, post("/supplier_tasks/reminders", [["intent", "other"]], w.analyst))).status).toBe(400);
  });
});

describe("the campaign page", () => {
  it("says the sending failed when its job gave up, and nothing was sent", async () => {
    const at = new Date().toISOString();
    const campaign = await db()
      .insertInto("task_campaigns")
      .values({ organization_id: w.customer, kind: "task", task_template_id: w.taskTemplate, title: "Failed one", created_at: at, origin: BASE })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = String(campaign.id);
    const state = async () =>
      ((await (await page(campaignLoader, `/supplier_tasks/campaigns/${id}`, w.analyst, { id })).json()) as { campaign: { state: string } }).campaign.state;
    expect(await state()).toBe("sending");
    await db()
      .insertInto("jobs")
      .values({
        type: SEND_CAMPAIGN_JOB,
        organization_id: w.customer,
        user_id: null,
        payload: JSON.stringify({ campaignId: campaign.id, recipients: [] }),
        status: "failed",
        run_at: at,
        created_at: at,
      })
      .execute();
    expect(await state()).toBe("failed");
  });
});

describe("the cap", () => {
  it("a filter above MAX_CAMPAIGN_SUPPLIERS lists nothing and cannot be sent; chosen ids above it neither", async () => {
    const big = await makeOrg("Big Customer AS", "customer");
    const token = await signedIn("analyst@big.test", big, 2);
    const at = new Date().toISOString();
    await db()
      .transaction()
      .execute(async (trx) => {
        for (let i = 0; i <= MAX_CAMPAIGN_SUPPLIERS; i++) {
          const org = await createOrganization({ name: `Many ${i} AS`, kind: "supplier", createdAt: at }, trx);
          await createConnection({ parent: big, child: org, deleted: 0, contactEmail: `m${i}@many.example`, createdAt: at }, trx);
        }
      });
    const data = (await (await page(sendLoader, "/supplier_tasks/send?filter=1&q=many", token)).json()) as SendData & { tooMany: boolean; total: number };
    expect([data.tooMany, data.total, data.recipients.length]).toEqual([true, MAX_CAMPAIGN_SUPPLIERS + 1, 0]);
    const before = await jobCount();
    const res = await run(
      sendAction,
      post(
        "/supplier_tasks/send",
        [
          ["intent", "send"],
          ["filter", "1"],
          ["q", "many"],
          ["template", `task:${w.taskTemplate}`],
        ],
        token,
      ),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as Reply).result.error[""].join(" ")).toContain(`at most ${MAX_CAMPAIGN_SUPPLIERS}`);
    expect(await jobCount()).toBe(before);
    // Narrowed under the cap, the same filter lists its rows.
    const narrowed = (await (await page(sendLoader, "/supplier_tasks/send?filter=1&q=many%2019", token)).json()) as SendData;
    expect(narrowed.recipients.length).toBeGreaterThan(0);
    expect(narrowed.recipients.every((r) => r.name.startsWith("Many 19"))).toBe(true);
  });
});
