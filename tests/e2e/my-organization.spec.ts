import { expect, test } from "./test";
import { createUser, expectAccessible, latestMailTo, queryDb, signIn, uniqueEmail } from "./helpers";

/**
 * /my-organization/users: the organisation's administrator invites a colleague, who joins through the
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
  // The notice shows with JavaScript too (the fetcher follows the redirect), and the form is empty again.
  await expect(page.getByRole("status").filter({ hasText: "Invitation sent." })).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("");
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
  await expect(page.getByRole("status").filter({ hasText: "Access level changed." })).toBeVisible();
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
  await expect(page.getByRole("status").filter({ hasText: "User deactivated." })).toBeVisible();
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

test("the overview: profile, counts and credit spending; a viewer sees no spending and reaches it from the top bar", async ({
  page,
  context,
  javaScriptEnabled,
}) => {
  const admin = await createUser({ accessLevel: 3 });
  await signIn(context, admin);
  await page.goto("/my-organization/overview");
  await expect(page.getByRole("heading", { name: "Organization overview", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: admin.organizationName, level: 2 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Active members: 1" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Credit reports per month" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Credit reports per month" }).getByRole("row")).toHaveCount(13);
  if (javaScriptEnabled) await expectAccessible(page);

  const viewer = await createUser({ accessLevel: 1, organizationId: admin.organizationId });
  await context.clearCookies();
  await signIn(context, viewer);
  await page.goto("/my-organization/users");
  // Below level 2 the organisation's name in the top bar leads to the overview, not to the registry explorer.
  await page.getByRole("link", { name: admin.organizationName }).first().click();
  await expect(page).toHaveURL(/\/my-organization\/overview$/);
  await expect(page.getByText("Active members")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Credit reports per month" })).toHaveCount(0);
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("the explorer: find a company by number, open a holding's ownership tree, walk up to its owner", async ({ page, context, javaScriptEnabled }) => {
  // The demo registry's company with the most holdings that has a company owner.
  const [root] = queryDb<{ org_number: string; legal_name: string; owner: string }>(
    `select c.org_number, c.legal_name, o.legal_name as owner from companies c
       join shareholdings s on s.holder_company_id = c.id
       join shareholdings up on up.company_id = c.id join companies o on o.id = up.holder_company_id
     group by c.id order by count(distinct s.id) desc, c.org_number limit 1`,
  );
  const [holding] = queryDb<{ legal_name: string }>(
    `select c.legal_name from shareholdings s join companies c on c.id = s.company_id join companies h on h.id = s.holder_company_id
     where h.org_number = ? order by s.percent desc, c.legal_name limit 1`,
    root.org_number,
  );
  const analyst = await createUser({ accessLevel: 2 });
  await signIn(context, analyst);
  await page.goto("/my-organization/structure");
  await expect(page.getByRole("heading", { name: "Group structure", level: 1 })).toBeVisible();
  await expect(page.getByText("Your organization has no organization number registered")).toBeVisible();
  await page.getByRole("link", { name: "Explore other companies' groups" }).click();

  await expect(page.getByRole("heading", { name: "Organization structure explorer", level: 1 })).toBeVisible();
  const search = page.getByRole("search", { name: "Find a company" });
  await search.getByLabel("Organization number or name").fill(root.org_number);
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("heading", { name: root.legal_name, level: 2 })).toBeVisible();
  const owns = page.getByRole("list", { name: `Companies ${root.legal_name} owns` });
  await expect(owns.getByRole("link", { name: holding.legal_name }).first()).toBeVisible();

  const toggle = page.getByRole("link", { name: `Ownership tree of ${holding.legal_name}` }).first();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(page).toHaveURL(/tree=/);
  await expect(page.getByRole("link", { name: `Ownership tree of ${holding.legal_name}` }).first()).toHaveAttribute("aria-expanded", "true");
  if (javaScriptEnabled) await expectAccessible(page);

  await page
    .getByRole("list", { name: `Companies that own ${root.legal_name}` })
    .getByRole("link", { name: root.owner })
    .click();
  await expect(page.getByRole("heading", { name: root.owner, level: 2 })).toBeVisible();
  await expect(
    page
      .getByRole("list", { name: `Companies ${root.owner} owns` })
      .getByRole("link", { name: root.legal_name, exact: true })
      .first(),
  ).toBeVisible();

  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("many members: page through them, search one, act on them and stay on the searched list", async ({ page, context, javaScriptEnabled }) => {
  const admin = await createUser({ accessLevel: 3 });
  const prefix = uniqueEmail("paged").split("@")[0];
  // 60 colleagues besides the administrator: two pages of 50.
  queryDb(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < 60)
     insert into users (email, password_hash, language, is_admin, organization_id, access_level, created_at)
     select ? || '-' || printf('%02d', i) || '@paged.test', 'x', 'en', 0, ?, 1, ? from n returning id`,
    prefix,
    admin.organizationId,
    new Date().toISOString(),
  );
  const target = `${prefix}-37@paged.test`;
  await signIn(context, admin);
  await page.goto("/my-organization/users");
  await expect(page.getByRole("heading", { name: "61 members", level: 2 })).toBeVisible();
  const members = page.getByRole("region", { name: /members?/ });
  await expect(members.locator("tbody tr")).toHaveCount(50);
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("Page 1 of 2");
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/my-organization\/users\?page=2$/);
  await expect(members.locator("tbody tr")).toHaveCount(11);

  const search = page.getByRole("search").filter({ has: page.getByLabel("Search members and invitations by email") });
  await search.getByLabel("Search members and invitations by email").fill(`${prefix}-37`);
  await search.getByRole("button", { name: "Search" }).click();
  const searched = new RegExp(`/my-organization/users\\?q=${prefix}-37$`);
  await expect(page).toHaveURL(searched);
  await expect(page.getByRole("heading", { name: `1 member matches “${prefix}-37”` })).toBeVisible();
  await expect(members.locator("tbody tr")).toHaveCount(1);
  if (javaScriptEnabled) await expectAccessible(page);

  // A level change comes back to the searched list: the URL, the one row and the search field.
  await page.getByLabel(`Access level for ${target}`).selectOption("2");
  await page.getByRole("button", { name: `Change the access level of ${target}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Access level changed." })).toBeVisible();
  await expect.poll(() => queryDb("select access_level from users where email = ?", target)).toEqual([{ access_level: 2 }]);
  await expect(page).toHaveURL(searched);
  await expect(members.locator("tbody tr")).toHaveCount(1);
  await expect(search.getByLabel("Search members and invitations by email")).toHaveValue(`${prefix}-37`);

  // So do the deactivation (its step over the searched list) and the reactivation.
  await page.getByRole("link", { name: `Deactivate ${target}` }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=${prefix}-37&deactivate=\\d+$`));
  const dialog = page.getByRole("alertdialog", { name: "Please confirm" });
  await dialog.getByRole("button", { name: "Deactivate" }).click();
  await expect(page.getByRole("status").filter({ hasText: "User deactivated." })).toBeVisible();
  await expect(page).toHaveURL(searched);
  await expect(members.getByRole("row", { name: new RegExp(target) }).getByText("Deactivated")).toBeVisible();
  await expect(members.locator("tbody tr")).toHaveCount(1);
  await page.getByRole("button", { name: `Reactivate ${target}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "User reactivated." })).toBeVisible();
  await expect(page).toHaveURL(searched);
  await expect(members.getByRole("row", { name: new RegExp(target) }).getByText("Active")).toBeVisible();
  expect(queryDb("select deactivated_at from users where email = ?", target)).toEqual([{ deactivated_at: null }]);

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/my-organization/users?page=2");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (javaScriptEnabled) await expectAccessible(page);
});
