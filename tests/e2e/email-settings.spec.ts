import { expect, test } from "./test";
import { createUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * /account/email-settings (shared/spec/01-shell-chat-lei.md §2.2, the user menu), with JavaScript on and off: the defaults, saving
 * with a notice, the saved values shown again, Norwegian, a phone's width, axe; a viewer is told the mails do not
 * apply. Each test has its own user in its own organisation.
 */

test.describe("email settings", () => {
  test("reach it from the user menu, change the digest and the immediate mail, save, see them kept", async ({ page, context, javaScriptEnabled }) => {
    const user = await createUser({ accessLevel: 2 });
    await signIn(context, user);
    await page.goto("/overview");
    await page.getByLabel("User menu").click();
    await page.getByRole("link", { name: "Email settings" }).click();
    await expect(page).toHaveURL(/\/account\/email-settings$/);
    await expect(page.getByRole("heading", { level: 1, name: "Email settings" })).toBeVisible();
    const digest = page.getByRole("group", { name: "Digest of new notifications" });
    const immediate = page.getByRole("checkbox", { name: "Immediate mail for high-risk notifications (risk score 80 or more)" });
    await expect(digest.getByRole("radio", { name: "Weekly" })).toBeChecked();
    await expect(immediate).toBeChecked();
    await expect(page.getByText("You have not changed these yet: these are the defaults.")).toBeVisible();
    // axe-core runs inside the page; the markup is the same with JavaScript off.
    if (javaScriptEnabled) await expectAccessible(page);

    await digest.getByRole("radio", { name: "Daily" }).check();
    await immediate.uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Email settings saved." })).toBeVisible();
    await expect(digest.getByRole("radio", { name: "Daily" })).toBeChecked();
    await expect(immediate).not.toBeChecked();

    await page.reload();
    await expect(digest.getByRole("radio", { name: "Daily" })).toBeChecked();
    await expect(immediate).not.toBeChecked();
    await expect(page.getByText("You have not changed these yet")).toHaveCount(0);
    expect(queryDb<{ digest: string; immediate: number }>("select digest, immediate from notification_settings where user_id = ?", user.id)).toEqual([
      { digest: "daily", immediate: 0 },
    ]);
  });

  test("in Norwegian on a phone's width", async ({ page, context, javaScriptEnabled }) => {
    const user = await createUser({ accessLevel: 3, language: "no" });
    await signIn(context, user);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/account/email-settings");
    await expect(page.getByRole("heading", { level: 1, name: "E-postinnstillinger" })).toBeVisible();
    await page.getByRole("radio", { name: "Av" }).check();
    await page.getByRole("button", { name: "Lagre" }).click();
    await expect(page.getByRole("status").filter({ hasText: "E-postinnstillingene er lagret." })).toBeVisible();
    await expect(page.getByRole("radio", { name: "Av" })).toBeChecked();
    if (javaScriptEnabled) {
      // Nothing wider than the phone: no sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    }
    // axe-core runs inside the page; the markup is the same with JavaScript off.
    if (javaScriptEnabled) await expectAccessible(page);
  });

  test("a viewer without notification access is told the mails do not apply, and sets only reminders and language", async ({
    page,
    context,
    javaScriptEnabled,
  }) => {
    const user = await createUser({ accessLevel: 1 });
    await signIn(context, user);
    await page.goto("/account/email-settings");
    await expect(page.getByRole("heading", { name: "Notification emails are not part of your access" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Digest of new notifications" })).toHaveCount(0);
    await expect(page.getByRole("group", { name: "Reminders" })).toBeVisible();
    // axe-core runs inside the page; the markup is the same with JavaScript off.
    if (javaScriptEnabled) await expectAccessible(page);
  });
});
