import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@server/db";
import { outbox } from "@server/mail";
import { saveNotificationMailSettings } from "~/models/notifications/notification-mail.server";
import { osloDate } from "~/models/tasks/task-states";
import { sendDueReminders } from "~/models/tasks/task-reminders.server";
import { readUnsubscribeToken } from "~/models/accounts/unsubscribe.server";
import { makeOrg, signedIn } from "../helpers/fixtures";

vi.hoisted(() => {
  process.env.APP_URL = "https://risk.example.test";
});

/**
 * The reminder settings of /account/email-settings (decision 040) as the reminder run honours them: a
 * reminder goes to an address; when the address is a user's own, their task or survey reminder setting decides, and the
 * mail carries the one-click link that turns exactly that setting off. An address without an account is reminded as
 * before, without a link.
 */

const AT = new Date();
const day = (offset: number) => osloDate(new Date(AT.getTime() + offset * 86_400_000));

async function item(organizationId: number, supplierId: number, kind: "task" | "survey", recipient: string, title: string): Promise<number> {
  const now = new Date(AT.getTime() - 10 * 86_400_000).toISOString();
  const task =
    kind === "task"
      ? await db()
          .insertInto("compliance_tasks")
          .values({
            organization_id: organizationId,
            supplier_organization_id: supplierId,
            title,
            is_custom: 1,
            is_submitted: 0,
            due_date: day(7),
            created_at: now,
            updated_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow()
      : null;
  const row = await db()
    .insertInto("supplier_tasks")
    .values({
      organization_id: organizationId,
      supplier_organization_id: supplierId,
      kind,
      compliance_task_id: task?.id ?? null,
      title,
      recipient_email: recipient,
      due_date: day(7),
      status: "sent",
      sent_at: now,
      updated_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

const mailsTo = (email: string) => outbox().filter((m) => m.includes(`\r\nTo: ${email}\r\n`));

let off: number;
let on: number;

beforeAll(async () => {
  const customer = await makeOrg("Reminding Customer", "customer");
  const supplier = await makeOrg("Reminded Supplier", "supplier");
  await signedIn("reminders-off@supplier.test", supplier, 1);
  await signedIn("reminders-on@supplier.test", supplier, 1);
  off = (await db().selectFrom("users").select("id").where("email", "=", "reminders-off@supplier.test").executeTakeFirstOrThrow()).id;
  on = (await db().selectFrom("users").select("id").where("email", "=", "reminders-on@supplier.test").executeTakeFirstOrThrow()).id;
  await saveNotificationMailSettings(off, { taskReminders: false, surveyReminders: true });
  await saveNotificationMailSettings(on, { taskReminders: true, surveyReminders: false });
  await item(customer, supplier, "task", "reminders-off@supplier.test", "Insurance certificate");
  await item(customer, supplier, "task", "reminders-on@supplier.test", "Code of conduct");
  await item(customer, supplier, "task", "no-account@supplier.test", "Quality certificate");
});

describe("reminders and the user's settings", () => {
  it("skips a user who turned task reminders off, reminds the others; a user's reminder links to turning exactly it off", async () => {
    await sendDueReminders({ at: AT });
    expect(mailsTo("reminders-off@supplier.test")).toHaveLength(0);
    const [mine] = mailsTo("reminders-on@supplier.test");
    expect(mine).toContain("Code of conduct");
    const link = /Stop reminders about tasks to your account with one click: (\S+)/.exec(mine!)?.[1];
    expect(link).toMatch(/^https:\/\/risk\.example\.test\/account\/unsubscribe\?token=/);
    expect(readUnsubscribeToken(new URL(link!).searchParams.get("token"))).toEqual({ ok: true, userId: on, setting: "taskReminders" });
    expect(mine).toContain(`\r\nList-Unsubscribe: <${link}>\r\n`);
    const [stranger] = mailsTo("no-account@supplier.test");
    expect(stranger).toContain("Quality certificate");
    expect(stranger).not.toContain("/account/unsubscribe");
    expect(stranger).not.toContain("List-Unsubscribe");
  });
});
