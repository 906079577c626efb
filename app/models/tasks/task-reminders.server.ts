import { db } from "@server/db";
import { CAMPAIGN_REFUSALS, createCampaign, remindItem } from "~/models/tasks/campaigns.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { DEFAULT_REMINDER_SETTINGS, OPEN_STATUSES, osloDate, reminderStepDue, type ReminderSettings } from "~/models/tasks/task-states";
import { customerTask } from "~/models/tasks/task-workflow.server";

/**
 * Reminders and yearly re-sends (decisions 031 and 035). The organisation's reminder settings; the daily
 * reminder run, which mails each open item's due step once (the primary key of supplier_task_reminders guards a second
 * worker); the daily recurring run, which sends a yearly campaign again on its date, exactly once. Both take the clock as
 * an argument so that tests can walk through the calendar.
 */

function dayList(text: string, fallback: number[]): number[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((d) => Number.isInteger(d)) ? (value as number[]) : fallback;
  } catch {
    return fallback;
  }
}

/** The organisation's reminder settings (the defaults until it saves its own). */
export async function reminderSettings(input: { organizationId: number }): Promise<ReminderSettings> {
  const row = await db().selectFrom("task_reminder_settings").selectAll().where("organization_id", "=", input.organizationId).executeTakeFirst();
  if (!row) return DEFAULT_REMINDER_SETTINGS;
  return {
    enabled: row.enabled === 1,
    daysBefore: dayList(row.days_before, DEFAULT_REMINDER_SETTINGS.daysBefore),
    daysAfter: dayList(row.days_after, DEFAULT_REMINDER_SETTINGS.daysAfter),
  };
}

export async function saveReminderSettings(input: { organizationId: number; settings: ReminderSettings; at?: Date }): Promise<void> {
  const values = {
    enabled: input.settings.enabled ? 1 : 0,
    days_before: JSON.stringify(input.settings.daysBefore),
    days_after: JSON.stringify(input.settings.daysAfter),
    updated_at: (input.at ?? new Date()).toISOString(),
  };
  await db()
    .insertInto("task_reminder_settings")
    .values({ organization_id: input.organizationId, ...values })
    .onConflict((oc) => oc.column("organization_id").doUpdateSet(values))
    .execute();
}

export interface ReminderRun {
  checked: number;
  sent: number;
  /** Items whose step another run sent first (the primary key refused the second). */
  raced: number;
}

/**
 * Mails every open item with a due date its reminder step due today (Oslo), once. Items of organisations that turned
 * reminders off, submitted, accepted or cancelled items, and steps already sent get nothing.
 */
export async function sendDueReminders(input: { at?: Date } = {}): Promise<ReminderRun> {
  const at = input.at ?? new Date();
  const today = osloDate(at);
  const items = await db()
    .selectFrom("supplier_tasks")
    .select(["id", "organization_id", "kind", "status", "due_date", "sent_at", "recipient_email"])
    .where("status", "in", [...OPEN_STATUSES])
    .where("due_date", "is not", null)
    .where("recipient_email", "is not", null)
    .orderBy("id")
    .execute();
  const settings = new Map<number, ReminderSettings>();
  const run: ReminderRun = { checked: items.length, sent: 0, raced: 0 };
  for (const item of items) {
    let orgSettings = settings.get(item.organization_id);
    if (!orgSettings) {
      orgSettings = await reminderSettings({ organizationId: item.organization_id });
      settings.set(item.organization_id, orgSettings);
    }
    if (!orgSettings.enabled) continue;
    const steps = await db().selectFrom("supplier_task_reminders").select("step").where("supplier_task_id", "=", item.id).execute();
    const step = reminderStepDue(
      { status: item.status, dueDate: item.due_date, sentOn: osloDate(new Date(item.sent_at)) },
      today,
      orgSettings,
      new Set(steps.map((s) => s.step)),
    );
    if (!step) continue;
    // A reminder goes to an address; when the address is a user's own, their setting decides (decision 040).
    if (await reminderTurnedOff(item.recipient_email!, item.kind)) continue;
    const task = await customerTask({ organizationId: item.organization_id, id: item.id });
    if (!task) continue;
    try {
      await remindItem({ task, party: { actor: "customer", userId: null, name: null }, step, at });
      run.sent++;
    } catch (error) {
      // Another worker sent this step, or the item changed state meanwhile: nothing is mailed twice.
      if (isConflict(error)) run.raced++;
      else throw error;
    }
  }
  return run;
}

/** Whether the user with this email address (if any) turned off reminders of this kind. */
async function reminderTurnedOff(email: string, kind: "task" | "survey"): Promise<boolean> {
  const row = await db()
    .selectFrom("users as u")
    .innerJoin("notification_settings as s", "s.user_id", "u.id")
    .select(["s.task_reminders", "s.survey_reminders"])
    .where("u.email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  if (!row) return false;
  return (kind === "task" ? row.task_reminders : row.survey_reminders) === 0;
}

function isConflict(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return isRefusalOf(error, ["transition-refused"]) || /UNIQUE constraint failed|PRIMARY KEY/i.test(error.message);
}

/** The same calendar day a year later (29 February becomes 28 February). */
export function nextYear(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  const day = m === 2 && d === 29 ? 28 : d;
  return `${y + 1}-${String(m).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export interface RecurringRun {
  created: Array<{ previousCampaignId: number; campaignId: number }>;
  /** Campaigns not sent again, and why (no supplier still followed, the template was archived or deleted). */
  ended: Array<{ previousCampaignId: number; reason: string }>;
}

/**
 * Sends every yearly campaign whose date has come again: the same template, message and recipients' suppliers that the
 * organisation still follows, due a year later, answers pre-filled from last year's submitted ones (the sending job does
 * that). Exactly once: a campaign that already has its repeat is not repeated again, and its `next_run_on` is cleared.
 */
export async function runRecurringCampaigns(input: { at?: Date } = {}): Promise<RecurringRun> {
  const at = input.at ?? new Date();
  const today = osloDate(at);
  const due = await db()
    .selectFrom("task_campaigns as c")
    .leftJoin("survey_template_versions as v", "v.id", "c.survey_template_version_id")
    .select([
      "c.id",
      "c.organization_id",
      "c.kind",
      "c.task_template_id",
      "v.template_id as survey_template_id",
      "c.message",
      "c.due_date",
      "c.created_by_user_id",
      "c.origin",
      "c.created_at",
    ])
    .where("c.recurrence", "=", "yearly")
    .where("c.next_run_on", "is not", null)
    .where("c.next_run_on", "<=", today)
    .where("c.sent_at", "is not", null)
    .orderBy("c.id")
    .execute();
  const run: RecurringRun = { created: [], ended: [] };
  for (const campaign of due) {
    const done = () => db().updateTable("task_campaigns").set({ next_run_on: null }).where("id", "=", campaign.id).execute();
    // A run that died after creating the repeat and before clearing the date: the repeat exists, so only clear.
    const existing = await db().selectFrom("task_campaigns").select("id").where("previous_campaign_id", "=", campaign.id).executeTakeFirst();
    if (existing) {
      await done();
      continue;
    }
    const recipients = await db()
      .selectFrom("supplier_tasks as st")
      .innerJoin("organization_connections as oc", (j) =>
        j
          .onRef("oc.child_organization_id", "=", "st.supplier_organization_id")
          .on("oc.parent_organization_id", "=", campaign.organization_id)
          .on("oc.is_deleted", "=", 0),
      )
      .select(["st.supplier_organization_id", "st.recipient_email", "oc.contact_email"])
      .where("st.campaign_id", "=", campaign.id)
      .where("st.organization_id", "=", campaign.organization_id)
      .orderBy("st.id")
      .execute();
    const templateId = campaign.kind === "task" ? campaign.task_template_id : campaign.survey_template_id;
    const userId = campaign.created_by_user_id;
    let dueDate = campaign.due_date ? nextYear(campaign.due_date) : null;
    if (dueDate && dueDate < today) dueDate = today;
    if (!templateId || userId === null || recipients.length === 0) {
      run.ended.push({ previousCampaignId: campaign.id, reason: !templateId ? "template-not-found" : userId === null ? "no-sender" : "no-suppliers" });
      await done();
      continue;
    }
    try {
      const { campaignId } = await createCampaign({
        organizationId: campaign.organization_id,
        userId,
        kind: campaign.kind,
        templateId,
        message: campaign.message,
        dueDate,
        recurrence: "yearly",
        // The connection's contact today; the address used last year when the contact has none.
        recipients: recipients.map((r) => ({ supplierOrganizationId: r.supplier_organization_id, email: r.contact_email ? null : r.recipient_email })),
        origin: campaign.origin ?? "",
        previousCampaignId: campaign.id,
        at,
      });
      run.created.push({ previousCampaignId: campaign.id, campaignId });
    } catch (error) {
      if (!isRefusalOf(error, CAMPAIGN_REFUSALS)) throw error;
      run.ended.push({ previousCampaignId: campaign.id, reason: error.code });
    }
    await done();
  }
  return run;
}
