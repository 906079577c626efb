import fs from "node:fs";
import { expect, test } from "./test";
import { demoUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * The survey explorer (decision 032), with JavaScript and without: the demo analyst picks a seeded survey,
 * sees the counts of the submitted responses (equal to the database's), and exports the CSV.
 */

test("pick a seeded survey, see the counts, export the CSV", async ({ page, context, javaScriptEnabled }) => {
  const analyst = demoUser("analyst@demo.test");
  await signIn(context, analyst);
  const [template] = queryDb<{ id: number; title: string }>(
    "select id, title from survey_templates where organization_id = ? and title = 'Sustainability self-assessment'",
    analyst.organizationId,
  );
  const submitted = queryDb<{ answers: string }>(
    "select answers from survey_responses where organization_id = ? and survey_template_id = ? and status = 'submitted'",
    analyst.organizationId,
    template.id,
  );
  expect(submitted.length).toBeGreaterThan(0);
  await page.goto("/survey-explorer");
  await expect(page.getByRole("heading", { name: "Survey explorer", level: 1 })).toBeVisible();
  await page.getByLabel("Survey", { exact: true }).selectOption({ label: "Sustainability self-assessment" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByText(`${submitted.length} submitted response`)).toBeVisible();

  const firstQuestion = page.getByRole("region", { name: /^1\. / });
  const yes = submitted.filter((r) => Object.values(JSON.parse(r.answers) as Record<string, unknown>)[0] === "yes").length;
  await expect(firstQuestion.getByRole("row", { name: new RegExp(`^Yes ${yes} `) })).toBeVisible();

  const csv = page.getByRole("link", { name: "Export CSV" });
  let text: string;
  if (javaScriptEnabled) {
    const [file] = await Promise.all([page.waitForEvent("download"), csv.click()]);
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    text = fs.readFileSync(await file.path(), "utf8");
  } else {
    const response = await page.request.get((await csv.getAttribute("href")) ?? "");
    expect(response.status()).toBe(200);
    text = await response.text();
  }
  const lines = text
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r\n/);
  expect(lines[0]).toMatch(/^Supplier,Organization number,Country,Submitted,Score,/);
  expect(lines.length).toBe(1 + submitted.length);

  if (javaScriptEnabled) await expectAccessible(page);
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (javaScriptEnabled) await expectAccessible(page);
});

test("closed to level 1", async ({ page, context }) => {
  await signIn(context, demoUser("viewer@demo.test"));
  const response = await page.goto("/survey-explorer");
  expect(response?.status()).toBe(403);
});
