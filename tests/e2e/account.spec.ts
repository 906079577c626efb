import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "./test";
import { createUser, expectAccessible, firstSupplier, latestMailTo, queryDb, signIn, signInWithForm, type TestUser } from "./helpers";
import { E2E_DATA_DIR } from "./env";

/**
 * My account (decision 040), with JavaScript on and off: change the password (a wrong current one and a
 * common new one refused with their messages; then the other browser's session ends and a confirmation is mailed), the
 * list of one's sessions (sign out one other; sign out everywhere else after a confirmation step), the reminder and language e-mail settings, and unsubscribing through the
 * link of a mailed reminder without being signed in. Norwegian, 360 px, axe. No password is ever in a page.
 */

const NEW_PASSWORD = "Fresh-meadow-river-42";

function write<T = { id: number }>(sql: string, ...params: unknown[]): T {
  const db = new Database(path.join(E2E_DATA_DIR, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
}

test("change the password: refusals with their messages, then the other session ends and a mail confirms it", async ({ page, browser, javaScriptEnabled }) => {
  const user = await createUser({ accessLevel: 1 });
  // This browser signs in through the form (a real session with its browser); another one has a session too.
  await signInWithForm(page, user.email, user.password);
  await expect(page).not.toHaveURL(/\/login/);
  const other = await browser.newContext({ javaScriptEnabled });
  await signIn(other, user);
  const otherPage = await other.newPage();
  await otherPage.goto("/account/change-password");
  await expect(otherPage.getByRole("heading", { level: 1, name: "Change password" })).toBeVisible();

  await page.goto("/overview");
  await page.getByLabel("User menu").click();
  await page.getByRole("link", { name: "Change password" }).click();
  await expect(page).toHaveURL(/\/account\/change-password$/);
  const sessions = page.getByTestId("session");
  await expect(sessions).toHaveCount(2);
  await expect(sessions.first()).toContainText("This device");
  await expect(sessions.first()).toContainText(/Chrome.* on Linux/);
  if (javaScriptEnabled) await expectAccessible(page);

  const form = page.locator("form").filter({ has: page.getByLabel("Current password") });
  await form.getByLabel("Current password").fill("Not-my-password-1");
  await form.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel("Repeat new password").fill(NEW_PASSWORD);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("That is not your current password.")).toBeVisible();
  await expect(form.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Current password").fill(user.password);
  await form.getByLabel("New password", { exact: true }).fill("Sommer2024");
  await form.getByLabel("Repeat new password").fill("Sommer2024");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("This password is among the most common ones and is guessed first. Choose another.")).toBeVisible();
  for (const secret of [user.password, "Sommer2024", "Not-my-password-1"]) expect(await page.content()).not.toContain(secret);

  await form.getByLabel("Current password").fill(user.password);
  await form.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel("Repeat new password").fill(NEW_PASSWORD);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your password has been changed." })).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await expect(page.getByText("You are signed in only here.")).toBeVisible();
  expect(await page.content()).not.toContain(NEW_PASSWORD);

  // The other browser is signed out.
  await otherPage.goto("/account/change-password");
  await expect(otherPage).not.toHaveURL(/\/account\/change-password/);
  await other.close();

  const mail = latestMailTo(user.email);
  expect(mail).toContain("Subject: Your password was changed");
  expect(mail).toContain("/forgot-password");
  expect(mail).not.toContain(NEW_PASSWORD);
  expect(queryDb<{ kind: string }>("select kind from security_events where user_id = ? and kind = 'password_changed'", user.id)).toHaveLength(1);
});

test("sign out one other session; in Norwegian at 360 px", async ({ page, context, browser, javaScriptEnabled }) => {
  const user = await createUser({ accessLevel: 2, language: "no" });
  await signIn(context, user);
  const other = await browser.newContext({ javaScriptEnabled });
  await signIn(other, user);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/account/change-password");
  await expect(page.getByRole("heading", { level: 1, name: "Bytt passord" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Øktene dine" })).toBeVisible();
  const sessions = page.getByTestId("session");
  await expect(sessions).toHaveCount(2);
  await expect(sessions.first()).toContainText("Denne enheten");
  if (javaScriptEnabled) {
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  }
  await sessions.nth(1).getByRole("button", { name: "Logg ut" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Den økten er logget ut." })).toBeVisible();
  await expect(sessions).toHaveCount(1);
  const otherPage = await other.newPage();
  await otherPage.goto("/account/change-password");
  await expect(otherPage).not.toHaveURL(/\/account\/change-password/);
  await other.close();
});

test("sign out everywhere else asks first; cancelling keeps the sessions, confirming ends them", async ({ page, context, browser, javaScriptEnabled }) => {
  const user = await createUser({ accessLevel: 1 });
  await signIn(context, user);
  const others = [await browser.newContext({ javaScriptEnabled }), await browser.newContext({ javaScriptEnabled })];
  for (const other of others) await signIn(other, user);
  await page.goto("/account/change-password");
  const sessions = page.getByTestId("session");
  await expect(sessions).toHaveCount(3);

  // The first click only opens the step; Cancel leaves everything as it was.
  await page.getByRole("link", { name: "Sign out everywhere else (2 sessions)" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Please confirm" });
  await expect(dialog.getByText("Are you sure you want to sign out everywhere else? 2 other sessions end at once.")).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);
  expect(queryDb("select count(*) as n from sessions where user_id = ?", user.id)).toEqual([{ n: 3 }]);
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(sessions).toHaveCount(3);

  await page.getByRole("link", { name: "Sign out everywhere else (2 sessions)" }).click();
  await page.getByRole("alertdialog", { name: "Please confirm" }).getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByRole("status").filter({ hasText: "You have been signed out everywhere else." })).toBeVisible();
  await expect(page).toHaveURL(/\/account\/change-password$/);
  await expect(sessions).toHaveCount(1);
  await expect(page.getByText("You are signed in only here.")).toBeVisible();
  for (const other of others) {
    const otherPage = await other.newPage();
    await otherPage.goto("/account/change-password");
    await expect(otherPage).not.toHaveURL(/\/account\/change-password/);
    await other.close();
  }
});

test("set reminders and the language of mails, kept after saving", async ({ page, context, javaScriptEnabled }) => {
  const user = await createUser({ accessLevel: 1 });
  await signIn(context, user);
  await page.goto("/account/email-settings");
  // A viewer gets no notification mails, but sets reminders and language.
  await expect(page.getByRole("heading", { name: "Notification emails are not part of your access" })).toBeVisible();
  const reminders = page.getByRole("group", { name: "Reminders" });
  const language = page.getByRole("group", { name: "Language of my emails" });
  await expect(reminders.getByRole("checkbox", { name: "Reminders about tasks sent to me" })).toBeChecked();
  await expect(language.getByRole("radio", { name: "English" })).toBeChecked();
  if (javaScriptEnabled) await expectAccessible(page);
  await reminders.getByRole("checkbox", { name: "Reminders about surveys sent to me" }).uncheck();
  await language.getByRole("radio", { name: "Norwegian (bokmål)" }).check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Email settings saved." })).toBeVisible();
  await page.reload();
  await expect(reminders.getByRole("checkbox", { name: "Reminders about surveys sent to me" })).not.toBeChecked();
  await expect(language.getByRole("radio", { name: "Norwegian (bokmål)" })).toBeChecked();
  expect(
    queryDb<{ task_reminders: number; survey_reminders: number; mail_language: string }>(
      "select task_reminders, survey_reminders, mail_language from notification_settings where user_id = ?",
      user.id,
    ),
  ).toEqual([{ task_reminders: 1, survey_reminders: 0, mail_language: "no" }]);
});

/** A level-2 customer that follows the demo's first supplier and has sent it a task addressed to `recipient`'s email. */
function sendTaskTo(customer: TestUser, recipient: TestUser): number {
  const supplier = firstSupplier();
  const now = new Date().toISOString();
  const due = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
  write(
    "insert into organization_connections (parent_organization_id, child_organization_id, is_deleted, created_at, updated_at) values (?, ?, 0, ?, ?) returning id",
    customer.organizationId,
    supplier.id,
    now,
    now,
  );
  const task = write(
    "insert into compliance_tasks (organization_id, supplier_organization_id, title, is_custom, is_submitted, due_date, created_at, updated_at) values (?, ?, ?, 1, 0, ?, ?, ?) returning id",
    customer.organizationId,
    supplier.id,
    "Insurance certificate",
    due,
    now,
    now,
  );
  const item = write(
    `insert into supplier_tasks (organization_id, supplier_organization_id, kind, compliance_task_id, title, recipient_email, due_date, status, sent_at, updated_at)
     values (?, ?, 'task', ?, ?, ?, ?, 'sent', ?, ?) returning id`,
    customer.organizationId,
    supplier.id,
    task.id,
    "Insurance certificate",
    recipient.email,
    due,
    now,
    now,
  );
  write("insert into supplier_task_events (supplier_task_id, kind, created_at) values (?, 'sent', ?) returning id", item.id, now);
  return item.id;
}

test("unsubscribe from task reminders through the reminder mail's link, without signing in", async ({ page, context, browser, javaScriptEnabled }) => {
  const customer = await createUser({ accessLevel: 2 });
  const recipient = await createUser({ accessLevel: 1 });
  const item = sendTaskTo(customer, recipient);
  await signIn(context, customer);
  await page.goto(`/supplier_tasks/${item}`);
  await page.getByRole("button", { name: "Remind now" }).click();
  await expect(page.getByText("Reminder sent").first()).toBeVisible();
  await expect.poll(() => latestMailTo(recipient.email) ?? "").toContain("/account/unsubscribe?token=");
  const mail = latestMailTo(recipient.email)!;
  const header = /\r\nList-Unsubscribe: <([^>]+)>\r\n/.exec(mail)?.[1];
  const link = /Stop reminders about tasks to your account with one click: (\S+)/.exec(mail)?.[1];
  expect(link).toBeDefined();
  expect(header).toBe(link);

  const visitor = await browser.newContext({ javaScriptEnabled });
  const inbox = await visitor.newPage();
  await inbox.goto(link!);
  await expect(inbox.getByRole("heading", { level: 1, name: "Unsubscribe" })).toBeVisible();
  await expect(inbox.getByText("Turn off the reminder mails about tasks?")).toBeVisible();
  // Opening the link changed nothing (mail scanners follow links).
  expect(queryDb("select task_reminders from notification_settings where user_id = ?", recipient.id)).toEqual([]);
  if (javaScriptEnabled) await expectAccessible(inbox);
  await inbox.getByRole("button", { name: "Turn it off" }).click();
  await expect(inbox.getByText("Reminder mails about tasks are off. Your other email settings are unchanged.")).toBeVisible();
  expect(queryDb("select task_reminders, survey_reminders, digest from notification_settings where user_id = ?", recipient.id)).toEqual([
    { task_reminders: 0, survey_reminders: 1, digest: "weekly" },
  ]);

  // A tampered link is a clear page, not an error.
  await inbox.goto(link!.replace(/\.taskReminders\./, ".surveyReminders."));
  await expect(inbox.getByText("This unsubscribe link is not valid.")).toBeVisible();
  await visitor.close();
});
