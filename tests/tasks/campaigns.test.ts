import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { startWorker, type Worker } from "@server/jobs/worker";
import { campaignSummary, createCampaign, remindItem, SEND_CAMPAIGN_JOB, sendCampaignJob } from "~/models/tasks/campaigns.server";
import { customerTask, linkTask, taskEvents } from "~/models/tasks/task-workflow.server";
import { until } from "../helpers/until";
import { follow, makeOrg } from "../helpers/fixtures";
import { createUser } from "../helpers/factory";

const AT = "2026-11-01T09:00:00.000Z";
const w = {} as {
  customer: number;
  other: number;
  withMail: number;
  noMail: number;
  notFollowed: number;
  user: number;
  taskTemplate: number;
  otherTemplate: number;
  systemSurvey: number;
};
let worker: Worker;

beforeAll(async () => {
  w.customer = await makeOrg("Campaign Customer AS", "customer");
  w.other = await makeOrg("Campaign Other AS", "customer");
  w.withMail = await makeOrg("Has Mail AS", "supplier", "919200001");
  w.noMail = await makeOrg("No Mail AS", "supplier", "919200002");
  w.notFollowed = await makeOrg("Not Followed AS", "supplier", "919200003");
  await follow(w.customer, w.withMail);
  await follow(w.customer, w.noMail);
  await db().updateTable("organization_connections").set({ contact_email: "kari@hasmail.example" }).where("child_organization_id", "=", w.withMail).execute();
  w.user = await createUser({ email: "buyer@campaign.test", organizationId: w.customer, accessLevel: 2, createdAt: AT });
  w.taskTemplate = (
    await db()
      .insertInto("compliance_task_templates")
      .values({ organization_id: w.customer, title: "Sign the code", due_in_days: 14, created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  w.otherTemplate = (
    await db()
      .insertInto("compliance_task_templates")
      .values({ organization_id: w.other, title: "Theirs", created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const survey = (
    await db()
      .insertInto("survey_templates")
      .values({ organization_id: null, title: "System survey", created_at: AT })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const definition = {
    title: { en: "System survey", no: "Systemundersøkelse" },
    sections: [{ id: "s", title: { en: "S", no: "S" }, questions: [{ id: "q", type: "yes_no", text: { en: "Q?", no: "S?" }, required: true }] }],
  };
  await db()
    .insertInto("survey_template_versions")
    .values({ template_id: survey, version: 1, definition: JSON.stringify(definition), created_at: AT })
    .execute();
  await db()
    .insertInto("survey_template_versions")
    .values({ template_id: survey, version: 2, definition: JSON.stringify(definition), created_at: AT })
    .execute();
  w.systemSurvey = survey;
  worker = startWorker({ db: db(), handlers: { [SEND_CAMPAIGN_JOB]: sendCampaignJob }, pollMs: 20, log: () => {} });
});

afterAll(async () => worker.stop());

const base = () => ({
  organizationId: w.customer,
  userId: w.user,
  message: "Please answer.",
  dueDate: null,
  recurrence: null,
  origin: "https://app.example",
  at: new Date("2026-11-24T10:00:00Z"),
});

const jobDone = (jobId: number) =>
  until(
    () => db().selectFrom("jobs").select("status").where("id", "=", jobId).executeTakeFirstOrThrow(),
    (j) => j.status === "done",
  );

describe("sending", () => {
  it("creates each supplier's copy, mails a link to the contact and says who could not be reached", async () => {
    const before = outbox().length;
    const { campaignId, jobId } = await createCampaign({
      ...base(),
      kind: "task",
      templateId: w.taskTemplate,
      recipients: [
        { supplierOrganizationId: w.withMail, email: null },
        { supplierOrganizationId: w.noMail, email: null },
      ],
    });
    await jobDone(jobId);
    const summary = await campaignSummary({ organizationId: w.customer, campaignId });
    expect(summary?.summary?.sent).toEqual([
      { supplierOrganizationId: w.withMail, name: "Has Mail AS", email: "kari@hasmail.example", supplierTaskId: expect.any(Number) },
    ]);
    expect(summary?.summary?.skipped).toEqual([{ supplierOrganizationId: w.noMail, name: "No Mail AS", reason: "noContactEmail" }]);
    expect(await campaignSummary({ organizationId: w.other, campaignId })).toBeUndefined();

    const item = await customerTask({ organizationId: w.customer, id: summary!.summary!.sent[0].supplierTaskId });
    // Due in the template's 14 days from the day it was created.
    expect(item).toMatchObject({ status: "sent", dueDate: "2026-12-08", recipientEmail: "kari@hasmail.example", message: "Please answer.", kind: "task" });
    const compliance = await db().selectFrom("compliance_tasks").selectAll().where("id", "=", item!.complianceTaskId!).executeTakeFirstOrThrow();
    expect(compliance).toMatchObject({ organization_id: w.customer, supplier_organization_id: w.withMail, template_id: w.taskTemplate, is_submitted: 0 });

    const mails = outbox().slice(before);
    expect(mails).toHaveLength(1);
    const token = /\/tasks\/\d+\/public\?token=([A-Za-z0-9_-]+)/.exec(mails[0])![1];
    const opened = await linkTask(token);
    expect("task" in opened && opened.task.id).toBe(item!.id);
    expect((await taskEvents(item!.id)).map((e) => e.kind)).toEqual(["sent"]);
    // Neither the job's stored result nor the mail log holds the link's token: a copy of the database opens nothing.
    const job = await db().selectFrom("jobs").select(["result", "payload"]).where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(JSON.parse(job.result!)).toEqual({ sent: 1, skipped: 1 });
    const logged = await db().selectFrom("mail_log").select(["body", "headers"]).where("to_address", "=", "kari@hasmail.example").execute();
    expect(logged.length).toBeGreaterThan(0);
    for (const row of logged) expect(`${job.payload} ${row.body} ${row.headers}`).not.toContain(token);
  });

  it("a survey goes out with its latest version, and an override address wins over the contact", async () => {
    const { campaignId, jobId } = await createCampaign({
      ...base(),
      kind: "survey",
      templateId: w.systemSurvey,
      dueDate: "2026-12-24",
      recipients: [{ supplierOrganizationId: w.noMail, email: "ola@nomail.example" }],
    });
    await jobDone(jobId);
    const sent = (await campaignSummary({ organizationId: w.customer, campaignId }))!.summary!.sent[0];
    expect(sent.email).toBe("ola@nomail.example");
    const item = await customerTask({ organizationId: w.customer, id: sent.supplierTaskId });
    const response = await db()
      .selectFrom("survey_responses as r")
      .innerJoin("survey_template_versions as v", "v.id", "r.template_version_id")
      .select(["v.version", "r.status"])
      .where("r.id", "=", item!.surveyResponseId!)
      .executeTakeFirstOrThrow();
    expect(response).toEqual({ version: 2, status: "draft" });
    expect(outbox().at(-1)).toContain(`/tasks/surveys/${item!.surveyResponseId}/public?token=`);
  });

  it.each([
    ["another organization's template", { templateId: -1 }, "template-not-found"],
    ["a supplier it does not follow", { recipients: [{ supplierOrganizationId: -2, email: null }] }, "not-followed"],
    ["no suppliers", { recipients: [] }, "no-suppliers"],
    ["a due date in the past", { dueDate: "2026-11-23" }, "due-date-in-past"],
  ])("refuses %s and queues nothing", async (_, change, problem) => {
    const jobs = await db()
      .selectFrom("jobs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const input = {
      ...base(),
      kind: "task" as const,
      templateId: w.taskTemplate,
      recipients: [{ supplierOrganizationId: w.withMail, email: null }],
      ...change,
    };
    if (input.templateId === -1) input.templateId = w.otherTemplate;
    if (input.recipients[0]?.supplierOrganizationId === -2) input.recipients = [{ supplierOrganizationId: w.notFollowed, email: null }];
    const error = await createCampaign(input).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "Refusal", code: problem });
    expect(
      (
        await db()
          .selectFrom("jobs")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ).toBe(jobs.n);
  });
});

describe("reminding", () => {
  it("mails a fresh link, records the reminder and the step once", async () => {
    const item = await db()
      .selectFrom("supplier_tasks")
      .select("id")
      .where("organization_id", "=", w.customer)
      .where("kind", "=", "task")
      .executeTakeFirstOrThrow();
    const task = (await customerTask({ organizationId: w.customer, id: item.id }))!;
    const before = outbox().length;
    expect(await remindItem({ task, party: { actor: "customer", userId: null, name: "reminder" }, step: "before:7" })).toBe(true);
    expect(outbox().length).toBe(before + 1);
    expect(outbox().at(-1)).toContain("Reminder: Campaign Customer AS is waiting for your answer to Sign the code");
    expect((await taskEvents(item.id)).map((e) => e.kind)).toEqual(["sent", "reminded"]);
    await expect(remindItem({ task, party: { actor: "customer", userId: null, name: "reminder" }, step: "before:7" })).rejects.toThrow();
    expect(outbox().length).toBe(before + 1);
  });
});
