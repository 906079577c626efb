import { expect, test } from "./test";
import { createUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * Task templates (decision 032), with JavaScript and without: the organisation's administrator is told what
 * is wrong with a due-in value and keeps what they typed, creates a template, edits and archives it; the starter task
 * is listed, read-only. The survey template list is checked for accessibility on the way.
 */

test("create, correct, edit and archive a task template", async ({ page, context, javaScriptEnabled }) => {
  const admin = await createUser({ accessLevel: 3 });
  await signIn(context, admin);
  await page.goto("/admin/tasks/templates");
  await expect(page.getByRole("heading", { name: "Task templates", level: 1 })).toBeVisible();
  const starter = page.locator("article").filter({ has: page.getByRole("heading", { name: "Sign the supplier code of conduct" }) });
  await expect(starter.getByText("System-wide")).toBeVisible();
  await expect(starter.getByRole("link", { name: /^Edit/ })).toHaveCount(0);
  await expect(starter.locator("strong")).toHaveText("supplier code of conduct");

  await page.getByLabel("Title (English)").fill("Send the insurance certificate");
  await page.getByLabel("Description in English (markdown)").fill("Upload a **current** certificate.");
  await page.getByLabel("Days to answer (1–366, optional)").fill("400");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("Write a whole number of days from 1 to 366, or leave it empty.")).toBeVisible();
  await expect(page.getByLabel("Title (English)")).toHaveValue("Send the insurance certificate");
  await expect(page.getByLabel("Description in English (markdown)")).toHaveValue("Upload a **current** certificate.");
  await page.getByLabel("Days to answer (1–366, optional)").fill("21");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("The template was created.")).toBeVisible();
  const card = page.locator("article").filter({ has: page.getByRole("heading", { name: "Send the insurance certificate" }) });
  await expect(card.getByText("Due 21 days after sending")).toBeVisible();
  await expect(card.locator("strong")).toHaveText("current");
  if (javaScriptEnabled) await expectAccessible(page);

  await card.getByRole("link", { name: "Edit Send the insurance certificate" }).click();
  await expect(page.getByRole("heading", { name: "Edit “Send the insurance certificate”" })).toBeVisible();
  await page.getByLabel("Title (Norwegian)").fill("Send forsikringsattesten");
  await page.getByRole("button", { name: "Save template" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.getByRole("button", { name: "Archive Send the insurance certificate" }).click();
  await expect(page.getByText("The template was archived.")).toBeVisible();
  expect(
    queryDb<{ title_no: string; due_in_days: number; archived: number }>(
      "select title_no, due_in_days, archived_at is not null as archived from compliance_task_templates where organization_id = ?",
      admin.organizationId,
    ),
  ).toEqual([{ title_no: "Send forsikringsattesten", due_in_days: 21, archived: 1 }]);

  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.goto("/admin/surveys/surveys");
  await expect(page.getByRole("heading", { name: "Survey templates", level: 1 })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (javaScriptEnabled) await expectAccessible(page);
});
