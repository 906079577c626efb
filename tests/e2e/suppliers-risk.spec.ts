import { expect, test, type Page } from "./test";
import { demoUser, queryDb, risksComputed, signIn } from "./helpers";

/**
 * The overall risk on "My suppliers" (decision 036), with JavaScript on and off: the column with the number and its
 * level in words, the sort by risk (highest first on the first click) and the risk-band filter.
 */

const table = (page: Page) => page.getByRole("table", { name: "Your organization's suppliers" });
const filters = (page: Page) => page.getByRole("search", { name: "Search and filter suppliers" });

/** The risk cells' texts of the page shown, once the whole page is there. */
async function riskCells(page: Page): Promise<string[]> {
  await expect(page.getByRole("navigation", { name: "Pages" })).toBeVisible();
  const headers = await table(page).locator("thead th").allInnerTexts();
  const column = headers.findIndex((h) => h.startsWith("Risk")) + 1;
  expect(column).toBeGreaterThan(0);
  return (await table(page).locator(`tbody tr > :nth-child(${column})`).allInnerTexts()).map((s) => s.replace(/\s+/g, " ").trim());
}

const scoreOf = (cell: string) => (/^\d+/.test(cell) ? Number.parseInt(cell, 10) : null);

test("sorts by overall risk, highest first, and filters by risk band", async ({ page, context }) => {
  const analyst = demoUser("analyst@demo.test");
  await risksComputed(analyst.organizationId);
  const bands = queryDb<{ band: string | null; n: number; top: number | null }>(
    `select overall_risk_band as band, count(*) as n, max(overall_risk) as top from organization_connections
     where parent_organization_id = ? and is_deleted = 0 group by overall_risk_band`,
    analyst.organizationId,
  );
  const count = (band: string) => bands.find((b) => b.band === band)?.n ?? 0;
  const highest = Math.max(...bands.map((b) => b.top ?? -1));
  expect(highest).toBeGreaterThanOrEqual(0);
  await signIn(context, analyst);

  await page.goto("/suppliers");
  await table(page).getByRole("link", { name: "Risk" }).click();
  await expect(page).toHaveURL(/sort=risk&dir=desc/);
  await expect(table(page).getByRole("columnheader", { name: /Risk/ })).toHaveAttribute("aria-sort", "descending");
  const cells = await riskCells(page);
  // The number and the level in words, never colour alone.
  expect(cells[0]).toMatch(/^\d+ (Low|Medium|High)$/);
  const scores = cells.map(scoreOf).filter((s): s is number => s !== null);
  expect(scores[0]).toBe(highest);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));

  const high = count("red");
  await filters(page).getByLabel("Risk").selectOption("high");
  await filters(page).getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/risk=high/);
  // The demo world has suppliers in every band.
  expect(high).toBeGreaterThan(1);
  await expect(page.getByRole("status")).toHaveText(`${high} suppliers match`);
  for (const cell of await riskCells(page)) expect(cell).toMatch(/^\d+ High$/);

  await filters(page).getByLabel("Risk").selectOption("low");
  await filters(page).getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/risk=low/);
  const low = count("green");
  expect(low).toBeGreaterThan(1);
  await expect(page.getByRole("status")).toHaveText(`${low} suppliers match`);
  for (const cell of await riskCells(page)) expect(cell).toMatch(/^\d+ Low$/);
});

test("the supplier screen shows the same overall risk, and why, by keyboard", async ({ page, context }) => {
  const analyst = demoUser("analyst@demo.test");
  await risksComputed(analyst.organizationId);
  const [top] = queryDb<{ name: string; org_number: string; overall_risk: number; overall_risk_reasons: string }>(
    `select o.name, o.org_number, c.overall_risk, c.overall_risk_reasons from organization_connections c
     join organizations o on o.id = c.child_organization_id
     where c.parent_organization_id = ? and c.is_deleted = 0 and c.overall_risk is not null order by c.overall_risk desc, c.id limit 1`,
    analyst.organizationId,
  );
  const reasons = JSON.parse(top.overall_risk_reasons) as Array<{ kind: string; value: number }>;
  expect(reasons.length).toBeGreaterThan(0);
  await signIn(context, analyst);

  await page.goto(`/supplier?externalId=${top.org_number}`);
  const risk = page.getByRole("region", { name: "Risk overview", exact: true });
  const overall = risk.getByRole("listitem").filter({ hasText: "Overall risk" });
  await expect(overall).toContainText(String(top.overall_risk));
  await expect(overall).toContainText("High");

  const why = risk.getByText("Why this overall risk?");
  await expect(risk.getByText(/The overall risk is the highest line/)).toBeHidden();
  await why.focus();
  await page.keyboard.press("Enter");
  await expect(risk.getByText(/The overall risk is the highest line/)).toBeVisible();
  // The deciding line or flag, with its value, first.
  const first = risk.locator("details li").first();
  await expect(first).toBeVisible();
  if (reasons[0].kind === "line") await expect(first).toContainText(`: ${reasons[0].value}`);
  else await expect(first).toContainText(String(reasons[0].value));
});
