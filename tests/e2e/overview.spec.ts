import { expect, test, type Page } from "./test";
import { createUser, DEMO_PASSWORD, demoUser, expectAccessible, queryDb, risksComputed, signIn, signInWithForm } from "./helpers";

/**
 * /overview, where every user lands (decision 037), with JavaScript on and off: a customer's portfolio at a
 * glance with every item leading to where the user acts on it; a level 1 member's and a supplier respondent's own work.
 */

const card = (page: Page, name: string) => page.getByRole("region", { name });

test("signing in lands on the overview: counts by risk, the highest risks with their reasons, and each leads to its supplier", async ({ page }) => {
  const analyst = demoUser("analyst@demo.test");
  await risksComputed(analyst.organizationId);
  const bands = queryDb<{ band: string | null; n: number }>(
    "select overall_risk_band as band, count(*) as n from organization_connections where parent_organization_id = ? and is_deleted = 0 group by overall_risk_band",
    analyst.organizationId,
  );
  const count = (band: string | null) => bands.find((b) => b.band === band)?.n ?? 0;
  const [top] = queryDb<{ name: string; overall_risk: number; org_number: string }>(
    `select o.name, c.overall_risk, o.org_number from organization_connections c join organizations o on o.id = c.child_organization_id
     where c.parent_organization_id = ? and c.is_deleted = 0 and c.overall_risk is not null order by c.overall_risk desc, o.name, c.id limit 1`,
    analyst.organizationId,
  );

  await signInWithForm(page, "analyst@demo.test", DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  const risk = card(page, "Risk of your suppliers");
  await expect(risk.getByRole("link", { name: new RegExp(`^High risk ${count("red")} `) })).toBeVisible();
  await expect(risk.getByRole("link", { name: new RegExp(`^Medium risk ${count("yellow")} `) })).toBeVisible();
  await expect(risk.getByRole("link", { name: new RegExp(`^Low risk ${count("green")} `) })).toBeVisible();

  // The highest risk first, with its number and level in words and the reason.
  const highest = card(page, "Highest risk");
  const first = highest.getByRole("listitem").first();
  await expect(first.getByRole("link", { name: top.name })).toBeVisible();
  await expect(first).toContainText(new RegExp(`${top.overall_risk}\\s*High`));
  await expect(first).toContainText(/risk \d+|Bankrupt|wound up|Inactive/);

  // Following the item opens the supplier screen of that supplier.
  await first.getByRole("link", { name: top.name }).click();
  await expect(page).toHaveURL(new RegExp(`/supplier\\?externalId=${top.org_number}`));
  await expect(page.getByRole("heading", { level: 1, name: top.name })).toBeVisible();

  // A band's count leads to My suppliers filtered by that band.
  await page.goto("/overview");
  await card(page, "Risk of your suppliers")
    .getByRole("link", { name: /^High risk/ })
    .click();
  await expect(page).toHaveURL(/\/suppliers\?risk=high/);
  await expect(page.getByRole("table", { name: "Your organization's suppliers" }).locator("tbody tr")).toHaveCount(Math.min(count("red"), 25));
});

test("the overview's other parts lead to where the user acts: notifications, tasks, due diligence, activity", async ({ page, context }) => {
  const analyst = demoUser("analyst@demo.test");
  await signIn(context, analyst);
  await page.goto("/overview");
  const notifications = card(page, "Latest risk notifications");
  await expect(notifications).toBeVisible();
  await notifications.getByRole("link", { name: "All notifications" }).click();
  await expect(page).toHaveURL(/\/notifications$/);

  await page.goto("/overview");
  const dd = queryDb<{ n: number }>(
    "select count(*) as n from organization_connections where parent_organization_id = ? and is_deleted = 0 and is_due_diligence = 1",
    analyst.organizationId,
  )[0].n;
  await expect(page.getByRole("link", { name: new RegExp(`^Under due diligence ${dd}$`) })).toBeVisible();

  const tasks = card(page, "Tasks and surveys due");
  const taskLinks = tasks.getByRole("list").getByRole("link");
  if ((await taskLinks.count()) > 0) {
    const title = (await taskLinks.first().innerText()).trim();
    await taskLinks.first().click();
    await expect(page).toHaveURL(/\/supplier_tasks\/\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
  } else {
    await expect(tasks).toContainText("Nothing you sent is overdue");
  }

  // The portfolio's history and breakdowns are one link away.
  await page.goto("/overview");
  await card(page, "Risk of your suppliers")
    .getByRole("link", { name: /on the dashboard$/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

  // The team's newest change heads the activity, linking to its supplier.
  const [latest] = queryDb<{ name: string; email: string | null }>(
    `select o.name, u.email from connection_events e join organization_connections c on c.id = e.connection_id
     join organizations o on o.id = c.child_organization_id left join users u on u.id = e.user_id
     where e.organization_id = ? order by e.created_at desc, e.id desc limit 1`,
    analyst.organizationId,
  );
  await page.goto("/overview");
  const firstActivity = card(page, "Recent activity in your team").getByRole("listitem").first();
  await expect(firstActivity).toContainText(latest.email ?? "Someone");
  await firstActivity.getByRole("link", { name: latest.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: latest.name })).toBeVisible();
});

test("a new organization without suppliers gets a way to start", async ({ page, context }) => {
  await signIn(context, await createUser({ accessLevel: 2 }));
  await page.goto("/overview");
  await expect(page.getByRole("heading", { name: "You do not follow any suppliers yet" })).toBeVisible();
  await page.getByRole("link", { name: "Go to My suppliers" }).click();
  await expect(page).toHaveURL(/\/suppliers$/);
});

test("a level 1 member sees what the organization must answer, and nothing of the portfolio", async ({ page, context }) => {
  await signIn(context, await createUser({ accessLevel: 1 }));
  await page.goto("/overview");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "To answer" })).toBeVisible();
  await expect(page.getByText("0 open, 0 overdue.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Risk of your suppliers" })).toHaveCount(0);
  await page.getByRole("link", { name: "My Compliance" }).last().click();
  await expect(page).toHaveURL(/\/tasks\/overview$/);
});

test("a supplier respondent lands on its open tasks and surveys and opens one", async ({ page }) => {
  const respondent = demoUser("supplier@demo.test");
  const open = queryDb<{ title: string }>(
    "select title from supplier_tasks where supplier_organization_id = ? and status in ('sent','opened','draft','returned') order by id",
    respondent.organizationId,
  );
  await signInWithForm(page, "supplier@demo.test", DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/overview$/);
  // Other tests send this organisation more work: the overview shows the first ten and says how many are open.
  await expect(page.getByText(new RegExp(`${open.length} open, \\d+ overdue\\.`))).toBeVisible();
  const list = page.getByRole("region", { name: "To answer" });
  await expect(list.getByRole("link")).toHaveCount(Math.min(open.length, 10));
  if (open.length > 0) {
    const first = list.getByRole("link").first();
    const title = (await first.innerText()).trim();
    expect(open.map((o) => o.title)).toContain(title);
    await first.click();
    await expect(page).toHaveURL(/\/tasks\/(surveys\/)?\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
  }
});

test("the overview in Norwegian, on a phone, accessible", async ({ page, context, javaScriptEnabled }) => {
  // A Norwegian-speaking member of the demo analyst's organisation: its whole portfolio in Norwegian.
  const user = await createUser({ accessLevel: 2, language: "no", organizationId: demoUser("analyst@demo.test").organizationId });
  await signIn(context, user);
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/overview");
  await expect(page.getByRole("heading", { level: 1, name: "Oversikt" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Risiko hos leverandørene dine" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Høyest risiko" })).toBeVisible();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (javaScriptEnabled) await expectAccessible(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  if (javaScriptEnabled) await expectAccessible(page);
});
