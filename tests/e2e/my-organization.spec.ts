import { expect, test } from "./test";
import { createUser, expectAccessible, latestMailTo, queryDb, signIn, uniqueEmail } from "./helpers";

/**
 * /my-organization/users (issue 16): the organisation's administrator invites a colleague, who joins through the
 * mailed link; the administrator changes their level and deactivates them, and the colleague's open session ends —
 * with JavaScript and without. In Norwegian and at 360 px too.
 */

test("invite a colleague, who joins through the mail; change their level; deactivate them and their session ends", async ({
  page,
  context,
  browser,
  javaScriptEnabled,
}) => {
  const admin = await createUser({ accessLevel: 3 });
  await signIn(context, admin);
  await page.goto("/my-organization/users");
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
  await expect(page.getByText("No open invitations.")).toBeVisible();

  // A refused address is explained at the field.
  await page.getByLabel("Email", { exact: true }).fill(admin.email);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText("This address already has an account. A user can belong to one organization only.")).toBeVisible();

  const email = uniqueEmail("colleague");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Access level", { exact: true }).selectOption("2");
  await page.getByRole("button", { name: "Send invitation" }).click();
  const invitations = page.getByRole("region", { name: "Open invitations" });
  await expect(invitations.getByRole("row", { name: new RegExp(email) })).toContainText("Analyst");
  if (javaScriptEnabled) await expectAccessible(page);

  // The colleague opens the mailed link in their own browser and joins.
  const mail = latestMailTo(email);
  expect(mail).toContain(`You are invited to ${admin.organizationName}`);
  const link = mail!.match(/\/invite-signup\?token=[A-Za-z0-9_%-]+/)![0];
  const colleagueContext = await browser.newContext({ javaScriptEnabled });
  const colleague = await colleagueContext.newPage();
  await colleague.goto(link);
  await colleague.getByLabel("Password", { exact: true }).fill("Colleague-pass-1");
  await colleague.getByLabel("Repeat password").fill("Colleague-pass-1");
  await colleague.getByRole("button", { name: `Join ${admin.organizationName}` }).click();
  await expect(colleague).toHaveURL(/\/overview$/);
  const [{ id: colleagueId }] = queryDb<{ id: number }>("select id from users where email = ?", email);

  // The administrator sees the new member and makes them a viewer.
  await page.goto("/my-organization/users");
  await expect(page.getByText("No open invitations.")).toBeVisible();
  await page.getByLabel(`Access level for ${email}`).selectOption("1");
  await page.getByRole("button", { name: `Change the access level of ${email}` }).click();
  await expect.poll(() => queryDb("select access_level from users where id = ?", colleagueId)).toEqual([{ access_level: 1 }]);
  await page.reload();
  await expect(page.getByLabel(`Access level for ${email}`)).toHaveValue("1");

  // Deactivation asks first; then the colleague's open session ends.
  await page.getByRole("link", { name: `Deactivate ${email}` }).click();
  const dialog = page.getByRole("alertdialog", { name: "Please confirm" });
  await expect(dialog.getByText("Are you sure you want to deactivate this user?")).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);
  await dialog.getByRole("button", { name: "Deactivate" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("row", { name: new RegExp(email) }).getByText("Deactivated")).toBeVisible();
  await expect(page.getByRole("button", { name: `Reactivate ${email}` })).toBeVisible();
  await colleague.goto("/overview");
  await expect(colleague).toHaveURL(/\/$/);
  expect(queryDb("select count(*) as n from sessions where user_id = ?", colleagueId)).toEqual([{ n: 0 }]);
  await colleagueContext.close();

  // The last administrator cannot step down.
  await page.getByLabel(`Access level for ${admin.email}`).selectOption("2");
  await page.getByRole("button", { name: `Change the access level of ${admin.email}` }).click();
  await expect(page.getByText("The organization must keep at least one active administrator.")).toBeVisible();
  expect(queryDb("select access_level from users where id = ?", admin.id)).toEqual([{ access_level: 3 }]);

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/my-organization/users");
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(360);
});

test("in Norwegian; a viewer reads the members without the sign-ins and changes nothing", async ({ page, context, javaScriptEnabled }) => {
  const admin = await createUser({ accessLevel: 3, language: "no" });
  await signIn(context, admin);
  await page.goto("/my-organization/users");
  await expect(page.getByRole("heading", { name: "Brukere", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Inviter en kollega" })).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);

  const viewer = await createUser({ accessLevel: 1, organizationId: admin.organizationId });
  await context.clearCookies();
  await signIn(context, viewer);
  await page.goto("/my-organization/users");
  await expect(page.getByRole("row", { name: new RegExp(admin.email) })).toContainText("Administrator");
  await expect(page.getByRole("columnheader", { name: "Last sign-in" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: `Deactivate ${admin.email}` })).toHaveCount(0);
  if (javaScriptEnabled) await expectAccessible(page);
});
