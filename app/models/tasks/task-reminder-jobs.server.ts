import type { JobContext } from "@server/jobs/types";
import type { Schedule } from "@server/jobs/schedule";
import { runRecurringCampaigns, sendDueReminders } from "~/models/tasks/task-reminders.server";

/**
 * The daily jobs of tasks and surveys (decision 035): `tasks.reminders` mails the reminder steps due today
 * (Oslo), `tasks.recurring` sends yearly campaigns again on their date. Both are re-runnable: a step is recorded once (its
 * primary key), a campaign is repeated once (its repeat is looked for first).
 */

export const TASK_REMINDERS_JOB = "tasks.reminders";
export const TASK_RECURRING_JOB = "tasks.recurring";

export async function taskReminders(ctx: JobContext): Promise<void> {
  const run = await sendDueReminders();
  await ctx.finish(async () => run);
}

export async function taskRecurring(ctx: JobContext): Promise<void> {
  const run = await runRecurringCampaigns();
  await ctx.finish(async () => run);
}

export const taskSchedules: Schedule[] = [
  // Before the working day, after the recurring run so that a campaign re-sent today is not reminded before it is sent.
  { name: TASK_RECURRING_JOB, dailyAt: "06:30", type: TASK_RECURRING_JOB },
  { name: TASK_REMINDERS_JOB, dailyAt: "07:00", type: TASK_REMINDERS_JOB },
];
