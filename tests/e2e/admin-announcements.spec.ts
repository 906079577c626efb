import { expect, test } from "./test";
import { createUser, expectAccessible, latestMailTo, signIn } from "./helpers";

/**
 * Announcements (decision 045), JavaScript on and off: the installation's administrator publishes one to a
 * single organisation with a mail; its member reads it on the overview and the notifications and gets the mail (the
 * outbox, sent by the job); another organisation's member sees nothing; withdrawn, it is gone. Norwegian at a
 * phone's width, axe. Announcements for everyone are left to the integration tests: the e2e server is shared.
 */

test("publish to one organisation with a mail; its member reads it and gets the mail; withdraw it", async ({ page, context, browser, javaScriptEnabled }) => {
  const admin = await createUser({ accessLevel: 3, isAdmin: true });
  const member = await createUser({ accessLevel: 2 });
  const outsider = await createUser({ accessLevel: 2 });
  const title = `Maintenance ${member.organizationName}`;
  await signIn(context, admin);
  await page.goto("/admin/notifications");
  await expect(page.getByRole("heading", { level: 1, name: "Announcements" })).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);
  await page.getByLabel("To", { exact: true }).selectOption({ label: member.organizationName });
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Text", { exact: true }).fill("The service is down on Sunday 22:00–23:00.\nSave your work before.");
  await page.getByLabel("Also send it by e-mail to each active user of the audience").check();
  await page.getByRole("button", { name: "Publish announcement" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The announcement is published. The e-mails are being sent in the background." })).toBeVisible();
  const item = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
  await expect(item).toContainText(member.organizationName);
  await expect(item).toContainText("Shown to users");
  await expect(page.getByLabel("Title")).toHaveValue("");

  await expect.poll(() => latestMailTo(member.email), { timeout: 15_000 }).toContain("The service is down on Sunday");
  expect(latestMailTo(outsider.email)).toBeNull();
  await page.reload();
  await expect(page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) })).toContainText("Sent to 1 user");

  const memberContext = await browser.newContext({ javaScriptEnabled });
  const memberPage = await memberContext.newPage();
  await signIn(memberContext, member);
  await memberPage.goto("/overview");
  const card = memberPage.getByRole("region", { name: "Announcements" });
  await expect(card.getByRole("heading", { name: title })).toBeVisible();
  await expect(card).toContainText("Save your work before.");
  await memberPage.goto("/notifications");
  await expect(memberPage.getByRole("region", { name: "From the administrator" }).getByRole("heading", { name: title })).toBeVisible();

  const outsiderContext = await browser.newContext({ javaScriptEnabled });
  const outsiderPage = await outsiderContext.newPage();
  await signIn(outsiderContext, outsider);
  await outsiderPage.goto("/overview");
  await expect(outsiderPage.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(outsiderPage.getByRole("heading", { name: title })).toHaveCount(0);

  await page.getByRole("button", { name: `Withdraw “${title}”` }).click();
  await expect(page.getByRole("status").filter({ hasText: "The announcement is withdrawn. Users no longer see it." })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) })).toContainText("Withdrawn");
  await memberPage.goto("/overview");
  await expect(memberPage.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(memberPage.getByRole("heading", { name: title })).toHaveCount(0);
  await memberContext.close();
  await outsiderContext.close();
});

test("in Norwegian at a phone's width", async ({ page, context, javaScriptEnabled }) => {
  const admin = await createUser({ accessLevel: 3, isAdmin: true, language: "no" });
  await page.setViewportSize({ width: 360, height: 800 });
  await signIn(context, admin);
  await page.goto("/admin/notifications");
  await expect(page.getByRole("heading", { level: 1, name: "Kunngjøringer" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Publiser kunngjøringen" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (javaScriptEnabled) await expectAccessible(page);
});

test("a refused announcement says why next to the field and keeps what was typed", async ({ page, context }) => {
  const admin = await createUser({ accessLevel: 3, isAdmin: true });
  await signIn(context, admin);
  await page.goto("/admin/notifications");
  // The browser's own check (required) is what most people meet; the server's is what a script or an old browser meets.
  await page
    .locator("form")
    .filter({ has: page.getByLabel("Title") })
    .evaluate((form) => form.setAttribute("novalidate", ""));
  await page.getByLabel("Title").fill("   ");
  await page.getByLabel("Text", { exact: true }).fill("A text that must not be lost.");
  await page.getByRole("button", { name: "Publish announcement" }).click();
  await expect(page.getByText("Write a title.")).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Text", { exact: true })).toHaveValue("A text that must not be lost.");
});
