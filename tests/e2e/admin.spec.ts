import { expect, test } from "./test";
import { osloMonth, osloMonthRange } from "../../app/models/credit/credit";
import { formatMonth } from "../../app/models/shared/format";
import { createUser, expectAccessible, latestMailTo, queryDb, richCompanyOrgNumber, signIn, uniqueEmail } from "./helpers";

/**
 * The installation's administration: as is_admin create a customer organisation with its first
 * administrator, who accepts the mailed invitation; read the credit billing and export it; a non-admin gets 403 on
 * every admin page; in Norwegian at 360 px, accessible — with JavaScript and without.
 */

const ADMIN_PAGES = [
  "/admin/organizations",
  "/admin/users",
  "/admin/users?view=audit",
  "/admin/credit-reports",
  "/admin/suppliers-overview",
  "/admin/notifications",
  "/admin/send-old",
  "/admin/integrations",
  "/admin/integrations/registry",
];
/** The priority-supplier invitation page of an organisation (every admin page of the route map is in these two). */
const invitePage = (organizationId: number) => `/admin/organization/${organizationId}/priority-suppliers/invite`;

test("the operator creates an organisation whose administrator accepts the mailed invitation; the billing shows its order and exports it", async ({
  page,
  context,
  javaScriptEnabled,
}) => {
  const operator = await createUser({ accessLevel: 1, isAdmin: true });
  await signIn(context, operator);
  await page.goto("/admin/organizations");
  await expect(page.getByRole("heading", { name: "Organizations", level: 1 })).toBeVisible();

  const name = `Adminprøve ${Date.now().toString(36)} AS`;
  const email = uniqueEmail("first-admin");
  const form = page.getByRole("region", { name: "New customer organization" });
  await form.getByLabel("Organization name").fill(name);
  await form.getByLabel("Organization number (optional)").fill("123");
  await form.getByLabel("Administrator's email").fill(email);
  await form.getByRole("button", { name: "Create and invite" }).click();
  await expect(form.getByText("An organization number has 9 digits with a valid check digit.")).toBeVisible();
  expect(queryDb("select id from organizations where name = ?", name)).toEqual([]);

  await form.getByLabel("Organization number (optional)").fill("");
  await form.getByLabel("Organization name").fill(name);
  await form.getByLabel("Administrator's email").fill(email);
  await form.getByLabel("Language of the invitation").selectOption("en");
  await form.getByRole("button", { name: "Create and invite" }).click();
  await expect(page.getByText("The organization was created and its administrator invited.")).toBeVisible();
  const table = page.getByRole("table", { name: "Organizations" });
  await expect(table.getByRole("rowheader", { name })).toBeVisible();
  // The form is empty again, ready for the next one (with JavaScript too).
  await expect(page.getByLabel("Organization name")).toHaveValue("");
  await expect(page.getByLabel("Administrator's email")).toHaveValue("");
  const [org] = queryDb<{ id: number }>("select id from organizations where name = ? and kind = 'customer'", name);

  // The invitation arrives in the outbox; its link makes the first administrator (level 3) of the new organisation.
  const mail = latestMailTo(email);
  expect(mail).toContain(name);
  const link = /(\/invite-signup\?token=[^\s]+)/.exec(mail ?? "")![1];
  await context.clearCookies();
  await page.goto(link);
  await page.getByLabel("Password", { exact: true }).fill("Admin-prove-1");
  await page.getByLabel("Repeat password").fill("Admin-prove-1");
  await page.getByRole("button", { name: `Join ${name}` }).click();
  await expect(page).not.toHaveURL(/invite-signup/);
  const [firstAdmin] = queryDb<{ id: number; access_level: number; organization_id: number }>(
    "select id, access_level, organization_id from users where email = ?",
    email,
  );
  expect([firstAdmin.access_level, firstAdmin.organization_id]).toEqual([3, org.id]);

  // The new organisation orders a credit report (the local provider); the billing counts it.
  const token = await signIn(context, { id: firstAdmin.id });
  const auth = { Authorization: `Bearer ${token}` };
  const found = (await (await page.request.get(`/api/credit-safe/search?country=NO&regNo=${richCompanyOrgNumber()}`, { headers: auth })).json()) as {
    companies: { id: string }[];
  };
  const ordered = await page.request.post("/api/credit-safe/order", {
    headers: auth,
    data: { connectId: found.companies[0].id, countryCode: "NO", language: "EN" },
  });
  expect(ordered.status(), await ordered.text()).toBe(201);

  await context.clearCookies();
  await signIn(context, operator);
  // The newest billing month is shown first: the month of this order (Europe/Oslo), marked as the current one.
  const [ours] = queryDb<{ created_at: string }>("select r.created_at from credit_reports r where r.organization_id = ?", org.id);
  const month = osloMonth(ours.created_at);
  await page.goto("/admin/credit-reports");
  await expect(page.getByRole("heading", { name: "Credit billing", level: 1 })).toBeVisible();
  const months = page.getByRole("navigation", { name: "Billing months" });
  await expect(months.locator('a[aria-current="page"]')).toContainText(formatMonth(month, "en"));
  await expect(page.getByRole("heading", { name: formatMonth(month, "en"), exact: true, level: 2 })).toBeVisible();
  await expect(page.getByRole("rowheader", { name }).first()).toBeVisible();
  const readCsv = async (linkName: string) => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: linkName }).click()]);
    return (await (await import("node:fs")).promises.readFile((await download.path())!, "utf8")).trim().split(/\r\n/);
  };
  const range = osloMonthRange(month);
  const monthLines = await readCsv(`Export ${formatMonth(month, "en")} (CSV)`);
  const inMonth = queryDb<{ n: number }>("select count(*) as n from credit_reports where created_at >= ? and created_at < ?", range.start, range.end)[0].n;
  expect(monthLines).toHaveLength(inMonth + 1);
  expect(monthLines.filter((line) => line.includes(name))).toHaveLength(1);
  const allLines = await readCsv("Export all months (CSV)");
  const total = queryDb<{ n: number }>("select count(*) as n from credit_reports")[0].n;
  expect(allLines).toHaveLength(total + 1);
  expect(allLines.filter((line) => line.includes(name))).toHaveLength(1);
  if (javaScriptEnabled) await expectAccessible(page);

  // The change is in the security log.
  await page.goto(`/admin/users?view=audit&kind=admin_action&email=${encodeURIComponent(operator.email)}`);
  await expect(page.getByRole("table", { name: "Security events" }).getByText(`"organization_created"`, { exact: false })).toBeVisible();
});

test("the operator deactivates an organisation after confirming, and its member is signed out", async ({ page, context, browser, javaScriptEnabled }) => {
  const operator = await createUser({ accessLevel: 1, isAdmin: true });
  const member = await createUser({ accessLevel: 2 });
  const memberContext = await browser.newContext({ javaScriptEnabled });
  await signIn(memberContext, member);
  const memberPage = await memberContext.newPage();
  expect((await memberPage.goto("/overview"))?.status()).toBe(200);

  await signIn(context, operator);
  await page.goto(`/admin/organizations?q=${encodeURIComponent(member.organizationName)}`);
  await page.getByRole("link", { name: `Deactivate ${member.organizationName}` }).click();
  const dialog = page.getByRole("alertdialog", { name: "Deactivate the organization?" });
  await expect(dialog).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);
  await dialog.getByRole("button", { name: "Deactivate" }).click();
  await expect(page.getByText("The organization is deactivated; its members are signed out.")).toBeVisible();
  await expect(page.getByRole("table", { name: "Organizations" }).getByText("Deactivated")).toBeVisible();

  await memberPage.goto("/overview");
  await expect(memberPage).toHaveURL(/\/$|\/login/);
  await memberContext.close();

  await page.getByRole("button", { name: `Reactivate ${member.organizationName}` }).click();
  await expect(page.getByText("The organization is active again.")).toBeVisible();
});

test("a non-admin gets 403 on every admin page, at every level", async ({ page, context }) => {
  for (const level of [1, 2, 3]) {
    const user = await createUser({ accessLevel: level });
    await context.clearCookies();
    await signIn(context, user);
    for (const path of [...ADMIN_PAGES, invitePage(user.organizationId)]) expect([level, path, (await page.goto(path))?.status()]).toEqual([level, path, 403]);
    expect((await page.request.get("/admin/credit-reports.csv")).status()).toBe(403);
    expect((await page.request.get("/admin/credit-reports.csv?month=2026-01")).status()).toBe(403);
  }
});

test("in Norwegian at 360 px, every admin page fits and is accessible", async ({ page, context, javaScriptEnabled }) => {
  // Ten pages, each checked by axe at a phone's width: a long walk, given the time of three.
  test.slow();
  const operator = await createUser({ accessLevel: 1, isAdmin: true, language: "no" });
  await signIn(context, operator);
  await page.setViewportSize({ width: 360, height: 800 });
  const headings: Record<string, string> = {
    "/admin/organizations": "Organisasjoner",
    "/admin/users": "Brukere",
    "/admin/users?view=audit": "Sikkerhetslogg",
    "/admin/credit-reports": "Kredittfakturering",
    "/admin/suppliers-overview": "Leverandøroversikt",
    "/admin/notifications": "Kunngjøringer",
    "/admin/send-old": "E-post som feilet",
    "/admin/integrations": "Integrasjoner",
    "/admin/integrations/registry": "Foretaksregister",
    [invitePage(operator.organizationId)]: "Inviter kontaktpersoner hos prioriterte leverandører",
  };
  for (const path of [...ADMIN_PAGES, invitePage(operator.organizationId)]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: headings[path], level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
    if (javaScriptEnabled) await expectAccessible(page);
  }
  await page.goto("/admin/users?view=audit");
  await expect(page.getByText(/Hendelsene lagres i \d+ dager/)).toBeVisible();
});

test("the operator changes a user's level, mails a reset link, and cannot deactivate their own account", async ({ page, context, javaScriptEnabled }) => {
  const operator = await createUser({ accessLevel: 1, isAdmin: true });
  const user = await createUser({ accessLevel: 1 });
  await signIn(context, operator);
  await page.goto(`/admin/users?q=${encodeURIComponent(user.email)}`);
  const table = page.getByRole("table", { name: "Users" });
  await table.getByLabel(`Access level of ${user.email}`, { exact: true }).selectOption("2");
  await table.getByRole("button", { name: `Set the access level of ${user.email}` }).click();
  await expect(page.getByText("The access level was changed.")).toBeVisible();
  expect(queryDb("select access_level from users where id = ?", user.id)).toEqual([{ access_level: 2 }]);
  // The change comes back to the searched list (with JavaScript too, where the form posts through a fetcher).
  await expect(page).toHaveURL(`/admin/users?q=${encodeURIComponent(user.email)}`);
  await expect(table.getByRole("rowheader")).toHaveText([user.email]);
  await expect(page.getByRole("searchbox", { name: "Search by email" })).toHaveValue(user.email);

  await page.getByRole("button", { name: `Mail ${user.email} a password-reset link` }).click();
  await expect(page.getByText("A password-reset link was mailed.")).toBeVisible();
  expect(latestMailTo(user.email)).toMatch(/\/reset-password\?token=/);
  if (javaScriptEnabled) await expectAccessible(page);

  await page.goto(`/admin/users?q=${encodeURIComponent(operator.email)}`);
  await page.getByRole("link", { name: `Deactivate ${operator.email}` }).click();
  const dialog = page.getByRole("alertdialog", { name: "Deactivate the user?" });
  await dialog.getByRole("button", { name: "Deactivate" }).click();
  await expect(page.getByText("You cannot deactivate your own account. Ask another administrator.")).toBeVisible();
  expect(queryDb("select deactivated_at from users where id = ?", operator.id)).toEqual([{ deactivated_at: null }]);

  await page.goto(`/admin/users?view=audit&email=${encodeURIComponent(user.email)}`);
  const log = page.getByRole("table", { name: "Security events" });
  await expect(log.getByRole("rowheader", { name: "Access level changed" })).toBeVisible();
  await expect(log.getByText(operator.email).first()).toBeVisible();

  // The search field shows the list's own search, also when a link leaves a typed search (with JavaScript no reload).
  await page.goto("/admin/users");
  const search = page.getByRole("searchbox", { name: "Search by email" });
  await search.fill(user.email);
  await page.getByRole("search").getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(`/admin/users?q=${encodeURIComponent(user.email)}`);
  await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Users", exact: true }).click();
  await expect(page).toHaveURL("/admin/users");
  await expect(search).toHaveValue("");
});
