import { refuse } from "~/models/shared/refusal";
import { db, type Db } from "@server/db";
import { env } from "@server/env";
import { enqueueJob } from "@server/jobs/queue";
import { PermanentJobError, type JobHandler } from "@server/jobs/types";
import { osloDate } from "~/models/tasks/task-states";
import { publicTaskPath, sendSupplierTaskMail } from "~/models/tasks/task-mail.server";
import { userUnsubscribeUrl } from "~/models/accounts/unsubscribe.server";
import { applyAction, createLink, LINK_TTL_DAYS, recordEvent, type ActingParty, type TaskRow } from "~/models/tasks/task-workflow.server";

/**
 * Sending a task or survey to suppliers (decision 031). `createCampaign` checks what the customer asked for and
 * queues the sending; the job `tasks.send-campaign` creates each supplier's copy (the answer row the spec's calls read, the
 * supplier_tasks row, a link) in one transaction and then mails the links; the campaign's summary says what went to whom and what
 * could not (no contact e-mail). `remindItem` mails a fresh link for one open item.
 */

export const SEND_CAMPAIGN_JOB = "tasks.send-campaign";

/** At most this many suppliers per campaign: a filter of thousands is sent as several campaigns. */
export const MAX_CAMPAIGN_SUPPLIERS = 2000;

/**
 * Why a campaign is refused (a 400 to the user), as a Refusal's code: "no-suppliers", "too-many-suppliers" (details:
 * max), "due-date-in-past" (field dueDate), "template-not-found" (field template), "not-followed" (details:
 * count, the suppliers the organisation does not follow).
 */
export const CAMPAIGN_REFUSALS = ["template-not-found", "no-suppliers", "too-many-suppliers", "not-followed", "due-date-in-past"] as const;
export type CampaignRefusal = (typeof CAMPAIGN_REFUSALS)[number];

export interface CampaignInput {
  organizationId: number;
  userId: number;
  kind: "task" | "survey";
  /** A task template (kind task) or survey template (kind survey) of the organisation or a system-wide one. */
  templateId: number;
  message: string | null;
  /** YYYY-MM-DD; null: the task template's due-in days from today, else no due date. */
  dueDate: string | null;
  recurrence: "yearly" | null;
  /** The suppliers (local organisation ids) the organisation follows, each with the address to mail (null: the connection's contact e-mail). */
  recipients: Array<{ supplierOrganizationId: number; email: string | null }>;
  /** Where links point when APP_URL is not set (the address the server listens on). */
  origin: string;
  /** The campaign this one repeats (a yearly re-send). */
  previousCampaignId?: number | null;
  at?: Date;
}

interface SendPayload {
  campaignId: number;
  recipients: Array<{ supplierOrganizationId: number; email: string | null }>;
}

/** What the customer reads after sending (task_campaigns.summary). */
export interface CampaignSummary {
  sent: Array<{ supplierOrganizationId: number; name: string; email: string; supplierTaskId: number }>;
  skipped: Array<{ supplierOrganizationId: number; name: string; reason: "noContactEmail" }>;
}

/** The template as the organisation may use it: its own or a system-wide one, not archived. */
async function usableTemplate(database: Db, input: Pick<CampaignInput, "organizationId" | "kind" | "templateId">) {
  if (input.kind === "task") {
    return database
      .selectFrom("compliance_task_templates")
      .select(["id", "title", "due_in_days as dueInDays"])
      .where("id", "=", input.templateId)
      .where((eb) => eb.or([eb("organization_id", "=", input.organizationId), eb("organization_id", "is", null)]))
      .where("archived_at", "is", null)
      .executeTakeFirst()
      .then((t) => (t ? { ...t, versionId: null as number | null } : undefined));
  }
  const row = await database
    .selectFrom("survey_templates as t")
    .innerJoin("survey_template_versions as v", "v.template_id", "t.id")
    .select(["t.id", "t.title", "v.id as versionId"])
    .where("t.id", "=", input.templateId)
    .where((eb) => eb.or([eb("t.organization_id", "=", input.organizationId), eb("t.organization_id", "is", null)]))
    .where("t.archived_at", "is", null)
    .orderBy("v.version", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { id: row.id, title: row.title, dueInDays: null as number | null, versionId: row.versionId as number | null } : undefined;
}

/** Checks the request and queues the sending; returns the campaign and its job. Throws a Refusal with one of CAMPAIGN_REFUSALS. */
export async function createCampaign(input: CampaignInput): Promise<{ campaignId: number; jobId: number }> {
  const at = input.at ?? new Date();
  const today = osloDate(at);
  const ids = [...new Set(input.recipients.map((r) => r.supplierOrganizationId))];
  if (ids.length === 0) throw refuse("invalid", "no-suppliers");
  if (ids.length > MAX_CAMPAIGN_SUPPLIERS) throw refuse("invalid", "too-many-suppliers", { details: { max: MAX_CAMPAIGN_SUPPLIERS } });
  if (input.dueDate !== null && input.dueDate < today) throw refuse("invalid", "due-date-in-past", { field: "dueDate" });
  return db()
    .transaction()
    .execute(async (trx) => {
      const template = await usableTemplate(trx, input);
      if (!template) throw refuse("invalid", "template-not-found", { field: "template" });
      const followed = new Set<number>();
      // Chunked: SQLite limits the number of bound values.
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await trx
          .selectFrom("organization_connections")
          .select("child_organization_id")
          .where("parent_organization_id", "=", input.organizationId)
          .where("is_deleted", "=", 0)
          .where("child_organization_id", "in", ids.slice(i, i + 500))
          .execute();
        for (const r of rows) followed.add(r.child_organization_id);
      }
      const notFollowed = ids.filter((id) => !followed.has(id));
      if (notFollowed.length) throw refuse("invalid", "not-followed", { details: { count: notFollowed.length } });
      const dueDate = input.dueDate ?? (template.dueInDays ? osloDate(new Date(at.getTime() + template.dueInDays * 86_400_000)) : null);
      const campaign = await trx
        .insertInto("task_campaigns")
        .values({
          organization_id: input.organizationId,
          kind: input.kind,
          task_template_id: input.kind === "task" ? template.id : null,
          survey_template_version_id: template.versionId,
          title: template.title,
          message: input.message,
          due_date: dueDate,
          recurrence: input.recurrence,
          previous_campaign_id: input.previousCampaignId ?? null,
          next_run_on: input.recurrence === "yearly" ? osloDate(new Date(at.getTime() + 365 * 86_400_000)) : null,
          created_by_user_id: input.userId,
          origin: input.origin,
          created_at: at.toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const seen = new Set<number>();
      const recipients = input.recipients.filter((r) => !seen.has(r.supplierOrganizationId) && seen.add(r.supplierOrganizationId));
      const jobId = await enqueueJob(trx, {
        type: SEND_CAMPAIGN_JOB,
        organizationId: input.organizationId,
        userId: input.userId,
        payload: { campaignId: campaign.id, recipients } satisfies SendPayload,
      });
      return { campaignId: campaign.id, jobId };
    });
}

/** The absolute address of the public page (APP_URL, else the origin the campaign was sent from). */
export function publicTaskUrl(origin: string | null, path: string): string {
  const base = env().APP_URL?.replace(/\/+$/, "") ?? origin ?? "";
  return `${base}${path}`;
}

/** The job: every supplier's copy in one transaction, then the mails. Re-runnable: a campaign already sent is not sent again. */
export const sendCampaignJob: JobHandler<SendPayload> = async (ctx) => {
  const { campaignId, recipients } = ctx.job.payload;
  const campaign = await db().selectFrom("task_campaigns").selectAll().where("id", "=", campaignId).executeTakeFirst();
  if (!campaign) throw new PermanentJobError("common:errors.notFound");
  if (campaign.sent_at) return;
  const customer = await db().selectFrom("organizations").select("name").where("id", "=", campaign.organization_id).executeTakeFirstOrThrow();

  // The links' tokens leave the transaction here, not as the job's stored result (which keeps only counts).
  const mails: Array<{ item: Parameters<typeof publicTaskPath>[0]; email: string; token: string }> = [];
  await ctx.finish(async (trx) => {
    const at = new Date().toISOString();
    const summary: CampaignSummary = { sent: [], skipped: [] };
    const out: typeof mails = [];
    for (const r of recipients) {
      const supplier = await trx
        .selectFrom("organizations as o")
        .leftJoin("organization_connections as c", (j) =>
          j.onRef("c.child_organization_id", "=", "o.id").on("c.parent_organization_id", "=", campaign.organization_id).on("c.is_deleted", "=", 0),
        )
        .select(["o.id", "o.name", "c.contact_email"])
        .where("o.id", "=", r.supplierOrganizationId)
        .executeTakeFirst();
      if (!supplier) continue;
      const email = r.email ?? supplier.contact_email;
      if (!email) {
        summary.skipped.push({ supplierOrganizationId: supplier.id, name: supplier.name, reason: "noContactEmail" });
        continue;
      }
      let complianceTaskId: number | null = null;
      let surveyResponseId: number | null = null;
      if (campaign.kind === "task") {
        complianceTaskId = (
          await trx
            .insertInto("compliance_tasks")
            .values({
              organization_id: campaign.organization_id,
              supplier_organization_id: supplier.id,
              template_id: campaign.task_template_id,
              title: campaign.title,
              due_date: campaign.due_date,
              created_at: at,
              updated_at: at,
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      } else {
        const version = await trx
          .selectFrom("survey_template_versions")
          .select(["id", "template_id"])
          .where("id", "=", campaign.survey_template_version_id ?? -1)
          .executeTakeFirstOrThrow();
        surveyResponseId = (
          await trx
            .insertInto("survey_responses")
            .values({
              survey_template_id: version.template_id,
              template_version_id: version.id,
              organization_id: campaign.organization_id,
              supplier_organization_id: supplier.id,
              answers: await previousAnswers(trx, campaign.previous_campaign_id, supplier.id),
              created_at: at,
              updated_at: at,
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      }
      const supplierTaskId = (
        await trx
          .insertInto("supplier_tasks")
          .values({
            organization_id: campaign.organization_id,
            supplier_organization_id: supplier.id,
            campaign_id: campaign.id,
            kind: campaign.kind,
            compliance_task_id: complianceTaskId,
            survey_response_id: surveyResponseId,
            title: campaign.title,
            recipient_email: email,
            message: campaign.message,
            due_date: campaign.due_date,
            sent_at: at,
            updated_at: at,
          })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
      await recordEvent(trx, { supplierTaskId, kind: "sent", party: { userId: campaign.created_by_user_id, name: null }, detail: email, at });
      const token = await createLink({ supplierTaskId, email }, trx);
      out.push({ item: { kind: campaign.kind, complianceTaskId, surveyResponseId }, email, token });
      summary.sent.push({ supplierOrganizationId: supplier.id, name: supplier.name, email, supplierTaskId });
    }
    await trx
      .updateTable("task_campaigns")
      .set({ sent_at: at, summary: JSON.stringify(summary) })
      .where("id", "=", campaign.id)
      .execute();
    mails.push(...out);
    return { sent: summary.sent.length, skipped: summary.skipped.length };
  });

  // After the commit: a crash here leaves items without their first mail, which "Remind now" sends (decision 031);
  // mailing inside the transaction would instead mail links whose tokens a retry never stored.
  const expires = new Date(Date.now() + LINK_TTL_DAYS * 86_400_000).toISOString();
  for (const m of mails) {
    await sendSupplierTaskMail({
      kind: "request",
      to: m.email,
      customerName: customer.name,
      itemKind: campaign.kind,
      title: campaign.title,
      message: campaign.message,
      dueDate: campaign.due_date,
      url: publicTaskUrl(campaign.origin, publicTaskPath(m.item, m.token)),
      linkExpiresAt: expires,
    });
  }
};

/** A yearly re-send starts from the supplier's last submitted answers, for them to confirm or change. */
async function previousAnswers(trx: Db, previousCampaignId: number | null, supplierOrganizationId: number): Promise<string> {
  if (previousCampaignId === null) return "{}";
  const row = await trx
    .selectFrom("supplier_tasks as st")
    .innerJoin("survey_responses as r", "r.id", "st.survey_response_id")
    .select("r.answers")
    .where("st.campaign_id", "=", previousCampaignId)
    .where("st.supplier_organization_id", "=", supplierOrganizationId)
    .where("r.status", "=", "submitted")
    .executeTakeFirst();
  return row?.answers ?? "{}";
}

/** The campaign's summary once sent; undefined for another organisation's campaign. */
export async function campaignSummary(input: {
  organizationId: number;
  campaignId: number;
}): Promise<{ title: string; sentAt: string | null; summary: CampaignSummary | null } | undefined> {
  const row = await db()
    .selectFrom("task_campaigns")
    .select(["title", "sent_at", "summary"])
    .where("id", "=", input.campaignId)
    .where("organization_id", "=", input.organizationId)
    .executeTakeFirst();
  if (!row) return undefined;
  return { title: row.title, sentAt: row.sent_at, summary: row.summary ? (JSON.parse(row.summary) as CampaignSummary) : null };
}

/** What a mail about an item needs besides the item: the customer's name and the origin its campaign was sent from. */
export async function mailContext(task: Pick<TaskRow, "organizationId" | "campaignId">): Promise<{ name: string; origin: string | null }> {
  return db()
    .selectFrom("organizations as o")
    .leftJoin("task_campaigns as c", (j) => j.on("c.id", "=", task.campaignId ?? -1))
    .select(["o.name", "c.origin"])
    .where("o.id", "=", task.organizationId)
    .executeTakeFirstOrThrow();
}

/**
 * Mails a fresh link for an open item to its recipient and records the reminder (a customer's "Remind now", or the
 * reminder job with its step). Returns false when the item has no recipient address. The item was found by a scoped reader.
 */
export async function remindItem(input: { task: TaskRow; party: ActingParty; step?: string; at?: Date; fallbackOrigin?: string }): Promise<boolean> {
  const { task } = input;
  if (!task.recipientEmail) return false;
  const at = input.at ?? new Date();
  const context = await mailContext(task);
  const token = await db()
    .transaction()
    .execute(async (trx) => {
      await applyAction(trx, task, "remind", input.party, { at, comment: input.step ?? null });
      if (input.step)
        await trx.insertInto("supplier_task_reminders").values({ supplier_task_id: task.id, step: input.step, sent_at: at.toISOString() }).execute();
      return createLink({ supplierTaskId: task.id, email: task.recipientEmail, at }, trx);
    });
  await mailFreshLink({ kind: "reminder", task, to: task.recipientEmail, token, at, context, fallbackOrigin: input.fallbackOrigin });
  return true;
}

/**
 * Mails an item's recipient the fresh link just created for it: a reminder, or a return for rework with the customer's
 * comment. `context` when the caller has it (mailContext); `fallbackOrigin` when the item has no campaign origin.
 */
export async function mailFreshLink(input: {
  kind: "reminder" | "returned";
  task: TaskRow;
  to: string;
  token: string;
  at: Date;
  returnComment?: string;
  context?: { name: string; origin: string | null };
  fallbackOrigin?: string;
}): Promise<void> {
  const { task } = input;
  const context = input.context ?? (await mailContext(task));
  // A reminder to a user's own address carries the link that turns these reminders off (decision 040).
  const unsubscribe =
    input.kind === "reminder"
      ? await userUnsubscribeUrl(
          publicTaskUrl(context.origin ?? input.fallbackOrigin ?? null, ""),
          input.to,
          task.kind === "task" ? "taskReminders" : "surveyReminders",
          input.at,
        )
      : null;
  await sendSupplierTaskMail({
    unsubscribe,
    kind: input.kind,
    to: input.to,
    customerName: context.name,
    itemKind: task.kind,
    title: task.title,
    message: null,
    dueDate: task.dueDate,
    returnComment: input.returnComment ?? null,
    url: publicTaskUrl(context.origin ?? input.fallbackOrigin ?? null, publicTaskPath(task, input.token)),
    linkExpiresAt: new Date(input.at.getTime() + LINK_TTL_DAYS * 86_400_000).toISOString(),
  });
}
