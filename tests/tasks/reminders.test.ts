import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { startWorker, type Worker } from "@server/jobs/worker";
import { enqueueJob } from "@server/jobs/queue";
import { validateSchedule } from "@server/jobs/schedule";
import { jobHandlers, jobSchedules } from "~/entry.server";
import { TASK_RECURRING_JOB, TASK_REMINDERS_JOB } from "~/models/tasks/task-reminder-jobs.server";
import { createCampaign, SEND_CAMPAIGN_JOB, sendCampaignJob } from "~/models/tasks/campaigns.server";
import { osloDate } from "~/models/tasks/task-states";
import { applyAction, customerTask, taskEvents } from "~/models/tasks/task-workflow.server";
import { nextYear, runRecurringCampaigns, saveReminderSettings, sendDueReminders } from "~/models/tasks/task-reminders.server";
import { follow, makeOrg, surveyTemplate } from "../helpers/fixtures";
import { until } from "../helpers/until";
import { createUser } from "../helpers/factory";

/**
 * The reminder job and the yearly re-send with a fake clock: 45 days walked one morning at a time (each morning run
 * twice, as if two workers raced), the outbox read after each: the right mails on the right days, each once, none after a
 * submit, none for an organisation that turned reminders off; the yearly campaign sent again on its date, once, to the
 * suppliers still followed, pre-filled with last year's answers.
 */

const TODAY = osloDate(new Date());
/** 06:00 UTC on the n-th day from today (07:00 or 08:00 in Oslo): when the daily job runs. */
const morning = (n: number) => new Date(Date.parse(`${TODAY}T06:00:00Z`) + n * 86_400_000);
const dayOf = (n: number) => osloDate(morning(n));
const DUE_IN = 20;

const w = {} as {
  customer: number;
  quiet: number;
  a: number;
  b: number;
  c: number;
  user: number;
  quietUser: number;
  template: number;
  quietTemplate: number;
  survey: number;
};
let worker: Worker;

async function user(email: string, organizationId: number) {
  return createUser({ email, organizationId, accessLevel: 2, createdAt: new Date().toISOString() });
}

async function contact(parent: number, child: number, email: string) {
  await db()
    .updateTable("organization_connections")
    .set({ contact_email: email })
    .where("parent_organization_id", "=", parent)
    .where("child_organization_id", "=", child)
    .execute();
}

const jobDone = (jobId: number) =>
  until(
    () => db().selectFrom("jobs").select("status").where("id", "=", jobId).executeTakeFirstOrThrow(),
    (j) => j.status === "done",
  );

async function send(input: {
  organizationId: number;
  userId: number;
  kind: "task" | "survey";
  templateId: number;
  suppliers: number[];
  recurrence?: "yearly";
}) {
  const { campaignId, jobId } = await createCampaign({
    organizationId: input.organizationId,
    userId: input.userId,
    kind: input.kind,
    templateId: input.templateId,
    message: null,
    dueDate: dayOf(DUE_IN),
    recurrence: input.recurrence ?? null,
    recipients: input.suppliers.map((s) => ({ supplierOrganizationId: s, email: null })),
    origin: "https://app.example",
  });
  await jobDone(jobId);
  return db()
    .selectFrom("supplier_tasks")
    .select(["id", "supplier_organization_id", "recipient_email"])
    .where("campaign_id", "=", campaignId)
    .orderBy("id")
    .execute();
}

const mailsTo = (email: string, from: number) =>
  outbox()
    .slice(from)
    .filter((m) => m.includes(`To: ${email}`));

beforeAll(async () => {
  w.customer = await makeOrg("Reminder Customer AS", "customer");
  w.quiet = await makeOrg("Quiet Customer AS", "customer");
  w.a = await makeOrg("Remind Alfa AS", "supplier", "919400001");
  w.b = await makeOrg("Remind Beta AS", "supplier", "919400002");
  w.c = await makeOrg("Remind Gamma AS", "supplier", "919400003");
  for (const s of [w.a, w.b, w.c]) await follow(w.customer, s);
  await follow(w.quiet, w.c);
  await contact(w.customer, w.a, "alfa@remind.example");
  await contact(w.customer, w.b, "beta@remind.example");
  await contact(w.customer, w.c, "gamma@remind.example");
  await contact(w.quiet, w.c, "gamma-quiet@remind.example");
  w.user = await user("buyer@remind.test", w.customer);
  w.quietUser = await user("buyer@quiet.test", w.quiet);
  const at = new Date().toISOString();
  w.template = (
    await db()
      .insertInto("compliance_task_templates")
      .values({ organization_id: w.customer, title: "Sign the code", created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  w.quietTemplate = (
    await db()
      .insertInto("compliance_task_templates")
      .values({ organization_id: w.quiet, title: "Quiet task", created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  w.survey = await surveyTemplate(w.customer, "Yearly survey");
  await saveReminderSettings({ organizationId: w.quiet, settings: { enabled: false, daysBefore: [7, 3, 1], daysAfter: [1] } });
  worker = startWorker({ db: db(), handlers: { [SEND_CAMPAIGN_JOB]: sendCampaignJob }, pollMs: 20, log: () => {} });
});

afterAll(async () => worker.stop());

describe("the reminder job over 45 days", () => {
  it("mails 7, 3 and 1 days before and 1 day after the due date, each once; none after a submit; none with reminders off", async () => {
    const [alfa, beta] = await send({ organizationId: w.customer, userId: w.user, kind: "task", templateId: w.template, suppliers: [w.a, w.b] });
    const [quiet] = await send({ organizationId: w.quiet, userId: w.quietUser, kind: "task", templateId: w.quietTemplate, suppliers: [w.c] });
    const start = outbox().length;

    const days: Record<string, number[]> = { alfa: [], beta: [], quiet: [] };
    for (let n = 0; n <= 45; n++) {
      // Beta submits five days before the due date.
      if (n === DUE_IN - 5) {
        const task = (await customerTask({ organizationId: w.customer, id: beta.id }))!;
        await db()
          .transaction()
          .execute((trx) => applyAction(trx, task, "submit", { actor: "respondent", userId: null, name: "Kari" }, { at: morning(n) }));
      }
      const before = outbox().length;
      await sendDueReminders({ at: morning(n) });
      // The same morning again (a second worker, a retry): nothing more.
      const second = await sendDueReminders({ at: morning(n) });
      expect(second.sent).toBe(0);
      const today = outbox().slice(before);
      if (today.some((m) => m.includes("To: alfa@remind.example"))) days.alfa.push(n - DUE_IN);
      if (today.some((m) => m.includes("To: beta@remind.example"))) days.beta.push(n - DUE_IN);
      if (today.some((m) => m.includes("To: gamma-quiet@remind.example"))) days.quiet.push(n - DUE_IN);
      expect(today.length).toBeLessThanOrEqual(2);
    }
    // Days relative to the due date.
    expect(days.alfa).toEqual([-7, -3, -1, 1]);
    expect(days.beta).toEqual([-7]);
    expect(days.quiet).toEqual([]);
    expect(mailsTo("alfa@remind.example", start)).toHaveLength(4);
    for (const m of mailsTo("alfa@remind.example", start)) expect(m).toContain("Reminder: Reminder Customer AS is waiting for your answer to Sign the code");

    const steps = await db().selectFrom("supplier_task_reminders").select("step").where("supplier_task_id", "=", alfa.id).orderBy("sent_at").execute();
    expect(steps.map((s) => s.step)).toEqual(["before:7", "before:3", "before:1", "overdue:1"]);
    expect((await taskEvents(alfa.id)).filter((e) => e.kind === "reminded")).toHaveLength(4);
    expect(await db().selectFrom("supplier_task_reminders").selectAll().where("supplier_task_id", "=", quiet.id).execute()).toEqual([]);
  });

  it("a server down for days sends only the latest step that came, once", async () => {
    await saveReminderSettings({ organizationId: w.customer, settings: { enabled: true, daysBefore: [10, 5], daysAfter: [2] } });
    const [gamma] = await send({ organizationId: w.customer, userId: w.user, kind: "task", templateId: w.template, suppliers: [w.c] });
    const start = outbox().length;
    // Down from day 9 to day 16: the 10-day step (day 10) and the 5-day step (day 15) both came; only the 5-day one goes.
    await sendDueReminders({ at: morning(DUE_IN - 5 + 1) });
    await sendDueReminders({ at: morning(DUE_IN - 5 + 2) });
    expect(mailsTo("gamma@remind.example", start)).toHaveLength(1);
    const steps = await db().selectFrom("supplier_task_reminders").select("step").where("supplier_task_id", "=", gamma.id).execute();
    expect(steps.map((s) => s.step)).toEqual(["before:5"]);
  });
});

describe("the yearly re-send", () => {
  it("sends again on its date, once, to the suppliers still followed, due a year later, with last year's answers", async () => {
    const items = await send({ organizationId: w.customer, userId: w.user, kind: "survey", templateId: w.survey, suppliers: [w.a, w.b], recurrence: "yearly" });
    const old = await db()
      .selectFrom("task_campaigns")
      .selectAll()
      .where("id", "=", (await db().selectFrom("supplier_tasks").select("campaign_id").where("id", "=", items[0].id).executeTakeFirstOrThrow()).campaign_id!)
      .executeTakeFirstOrThrow();
    expect(old.next_run_on).not.toBeNull();
    // Alfa submits its answer; Beta is no longer followed by next year.
    const alfa = (await customerTask({ organizationId: w.customer, id: items[0].id }))!;
    await db()
      .updateTable("survey_responses")
      .set({ answers: JSON.stringify({ q: "yes" }) })
      .where("id", "=", alfa.surveyResponseId!)
      .execute();
    await db()
      .transaction()
      .execute((trx) => applyAction(trx, alfa, "submit", { actor: "respondent", userId: null, name: "Kari" }, {}));
    await db()
      .updateTable("organization_connections")
      .set({ is_deleted: 1 })
      .where("parent_organization_id", "=", w.customer)
      .where("child_organization_id", "=", w.b)
      .execute();

    const dayBefore = new Date(Date.parse(`${old.next_run_on}T06:00:00Z`) - 86_400_000);
    expect((await runRecurringCampaigns({ at: dayBefore })).created).toEqual([]);
    const onTheDay = new Date(Date.parse(`${old.next_run_on}T06:00:00Z`));
    const run = await runRecurringCampaigns({ at: onTheDay });
    expect(run.created).toHaveLength(1);
    expect(await runRecurringCampaigns({ at: onTheDay })).toEqual({ created: [], ended: [] });
    expect((await db().selectFrom("task_campaigns").select("next_run_on").where("id", "=", old.id).executeTakeFirstOrThrow()).next_run_on).toBeNull();

    const repeat = await db().selectFrom("task_campaigns").selectAll().where("id", "=", run.created[0].campaignId).executeTakeFirstOrThrow();
    expect(repeat).toMatchObject({ previous_campaign_id: old.id, recurrence: "yearly", due_date: nextYear(old.due_date!), kind: "survey" });
    const job = await db().selectFrom("jobs").select(["id", "payload"]).where("type", "=", SEND_CAMPAIGN_JOB).orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(JSON.parse(job.payload).recipients).toEqual([{ supplierOrganizationId: w.a, email: null }]);
    await jobDone(job.id);
    const answers = await db()
      .selectFrom("supplier_tasks as st")
      .innerJoin("survey_responses as r", "r.id", "st.survey_response_id")
      .select(["st.supplier_organization_id", "r.answers", "st.status"])
      .where("st.campaign_id", "=", repeat.id)
      .execute();
    expect(answers).toEqual([{ supplier_organization_id: w.a, answers: JSON.stringify({ q: "yes" }), status: "sent" }]);
  });

  it("a campaign after a crash between the repeat and clearing its date is not repeated twice", async () => {
    const items = await send({ organizationId: w.customer, userId: w.user, kind: "task", templateId: w.template, suppliers: [w.a], recurrence: "yearly" });
    const campaignId = (await db().selectFrom("supplier_tasks").select("campaign_id").where("id", "=", items[0].id).executeTakeFirstOrThrow()).campaign_id!;
    const old = await db().selectFrom("task_campaigns").selectAll().where("id", "=", campaignId).executeTakeFirstOrThrow();
    const at = new Date(Date.parse(`${old.next_run_on}T06:00:00Z`));
    const first = await runRecurringCampaigns({ at });
    expect(first.created.map((c) => c.previousCampaignId)).toEqual([campaignId]);
    // As if the run had died before clearing the date.
    await db().updateTable("task_campaigns").set({ next_run_on: old.next_run_on }).where("id", "=", campaignId).execute();
    const again = await runRecurringCampaigns({ at });
    expect(again.created).toEqual([]);
    expect(await db().selectFrom("task_campaigns").select("id").where("previous_campaign_id", "=", campaignId).execute()).toHaveLength(1);
  });

  it("moves a due date by a calendar year", () => {
    expect(nextYear("2026-03-31")).toBe("2027-03-31");
    expect(nextYear("2028-02-29")).toBe("2029-02-28");
  });
});

describe("the scheduled jobs", () => {
  it("are registered daily before the working day (Oslo), the re-send before the reminders, and run through the worker", async () => {
    const schedules = jobSchedules.filter((s) => s.type === TASK_REMINDERS_JOB || s.type === TASK_RECURRING_JOB);
    schedules.forEach(validateSchedule);
    expect(schedules.map((s) => [s.type, "dailyAt" in s ? s.dailyAt : null])).toEqual([
      [TASK_RECURRING_JOB, "06:30"],
      [TASK_REMINDERS_JOB, "07:00"],
    ]);
    const runner = startWorker({ db: db(), handlers: jobHandlers, pollMs: 20, log: () => {} });
    try {
      for (const type of [TASK_RECURRING_JOB, TASK_REMINDERS_JOB]) {
        const id = await enqueueJob(db(), { type, organizationId: null, userId: null, payload: null });
        const job = await until(
          () => db().selectFrom("jobs").select(["status", "result"]).where("id", "=", id).executeTakeFirstOrThrow(),
          (j) => j.status === "done" || j.status === "failed",
        );
        expect(job.status).toBe("done");
        expect(JSON.parse(job.result!)).toBeTypeOf("object");
      }
    } finally {
      await runner.stop();
    }
  });
});
