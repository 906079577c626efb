import { expect, test, type Page } from "./test";
import { demoUser, expectAccessible, queryDb, risksComputed, signIn } from "./helpers";

/**
 * Scores that explain themselves, with JavaScript on and off, at 360 px: each score's "Why?" is a closed
 * <details> that opens from the keyboard and shows the inputs behind the score; search hits show their figures in NOK.
 */

test.use({ viewport: { width: 360, height: 780 } });

const noHorizontalScroll = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

test("a score's why opens by keyboard and shows its inputs", async ({ page, context, javaScriptEnabled }) => {
  const analyst = demoUser("analyst@demo.test");
  await risksComputed(analyst.organizationId);
  // The analyst's riskiest supplier whose reputation line decides, with a credit score.
  const [top] = queryDb<{ org_number: string; company_id: number }>(
    `select o.org_number, co.id as company_id from organization_connections c
     join organizations o on o.id = c.child_organization_id
     join companies co on co.org_number = o.org_number
     where c.parent_organization_id = ? and c.is_deleted = 0 and c.overall_risk_reasons like '%"reputation"%'
       and exists (select 1 from financial_statements f where f.company_id = co.id and f.financial_risk_score is not null)
     order by c.overall_risk desc, c.id limit 1`,
    analyst.organizationId,
  );
  const [newest] = queryDb<{ financial_year: number; financial_risk_score: string }>(
    "select financial_year, financial_risk_score from financial_statements where company_id = ? order by financial_year desc limit 1",
    top.company_id,
  );
  const finalScore = Math.round((JSON.parse(newest.financial_risk_score) as { finalScore: number }).finalScore);
  // What the reputation line counts: the organisation's and the registry's notifications of risk ≥ 20, not dismissed.
  const [news] = queryDb<{ n: number; top: number }>(
    `select count(*) as n, max(risk_score) as top from risk_notifications n
     where n.company_id = ? and n.risk_score >= 20 and (n.organization_id is null or n.organization_id = ?)
       and not exists (select 1 from notification_dismissals d where d.notification_id = n.id and d.organization_id = ?)`,
    top.company_id,
    analyst.organizationId,
    analyst.organizationId,
  );
  expect(news.n).toBeGreaterThan(0);
  await signIn(context, analyst);
  await page.goto(`/supplier?externalId=${top.org_number}`);

  const risk = page.getByRole("region", { name: "Risk overview", exact: true });
  const creditWhy = risk.getByRole("listitem").filter({ hasText: "Credit risk" }).locator("summary");
  const creditText = `Total score ${finalScore} of the newest financial statement, for ${newest.financial_year}.`;
  await expect(risk.getByText(creditText)).toBeHidden();
  // Keyboard only: from the overall risk's "why", Tab reaches the credit line's "Why?", Enter opens it.
  await risk.getByText("Why this overall risk?").focus();
  await page.keyboard.press("Tab");
  await expect(creditWhy).toBeFocused();
  await expect(creditWhy).toHaveAccessibleName("Why? Credit risk");
  await page.keyboard.press("Enter");
  await expect(risk.getByText(creditText)).toBeVisible();

  // Two more Tabs: geography's, then reputation's "Why?".
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  const reputationWhy = risk.getByRole("listitem").filter({ hasText: "Reputation risk" }).locator("summary");
  await expect(reputationWhy).toBeFocused();
  await page.keyboard.press("Enter");
  const counted = new RegExp(`^${news.n} notifications? of risk 20 or more \\(.+\\), the highest ${news.top}\\.`);
  await expect(risk.getByText(counted)).toBeVisible();
  await expect(risk.getByText(/Dismissed notifications do not count\./)).toBeVisible();

  // The credit section's parts say what they measure and the year.
  const credit = page.getByRole("region", { name: "Credit risk score", exact: true });
  const capital = credit.getByRole("listitem").filter({ has: page.getByText("Capital", { exact: true }) });
  await capital.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(capital.getByText(`Equity as a share of total assets; below 10 % is high risk. From the statement for ${newest.financial_year}.`)).toBeVisible();

  await noHorizontalScroll(page);
  // axe runs as a script in the page.
  if (javaScriptEnabled) await expectAccessible(page);
});

test("search hits show operating income and profit in NOK, compact", async ({ page, context, javaScriptEnabled }) => {
  // A company whose newest statement has a loss, so the minus sign is checked too. Statements are in NOK thousands.
  const [company] = queryDb<{ org_number: string; legal_name: string; income: number; profit: number }>(
    `select c.org_number, c.legal_name, f.operating_income as income, f.operating_profit as profit from companies c
     join financial_statements f on f.company_id = c.id
     where f.financial_year = (select max(f2.financial_year) from financial_statements f2 where f2.company_id = c.id)
       and f.operating_profit <= -1000 and f.operating_income >= 1000
     order by c.org_number limit 1`,
  );
  const nok = (thousands: number) =>
    new Intl.NumberFormat("en", { style: "currency", currency: "NOK", notation: "compact", maximumFractionDigits: 0 }).format(thousands * 1000);
  expect(nok(company.profit)).toMatch(/^-NOK\s\d+[KMB]$/);
  await signIn(context, demoUser("analyst@demo.test"));
  await page.goto("/overview");
  let hit;
  if (javaScriptEnabled) {
    // On a phone the search box opens from the top bar.
    await page.getByRole("link", { name: "Open search" }).click();
    await page.getByRole("search", { name: "Search" }).getByRole("combobox", { name: "Search" }).fill(company.org_number);
    hit = page.getByRole("listbox").getByRole("option", { name: new RegExp(company.org_number) });
  } else {
    await page.goto(`/search?q=${company.org_number}`);
    hit = page.getByRole("link", { name: new RegExp(company.org_number) });
  }
  await expect(hit).toContainText(`Operating income: ${nok(company.income)}`);
  await expect(hit).toContainText(`Operating profit: ${nok(company.profit)}`);
  await noHorizontalScroll(page);
  // axe runs as a script in the page.
  if (javaScriptEnabled) await expectAccessible(page);
});
