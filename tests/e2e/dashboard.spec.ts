import fs from "node:fs";
import { expect, test, type Page } from "./test";
import { createUser, demoUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * /dashboard (decision 038), with JavaScript on and off: the charts (drawn with JavaScript) and their tables
 * (always there), the numbers as the database has them, the tag filter, a CSV download, Norwegian, 360 px, axe.
 */

/** The demo seed queues one recomputation, which ends with today's risk snapshot; the worker runs it shortly after start. */
async function snapshotTaken(organizationId: number) {
  await expect
    .poll(() => queryDb<{ n: number }>("select count(*) as n from risk_snapshots where organization_id = ? and tag_id = 0", organizationId)[0].n, {
      timeout: 30_000,
    })
    .toBeGreaterThan(0);
}

function counts(organizationId: number, tagId?: number) {
  const tag = tagId == null ? "" : "and exists (select 1 from organization_connection_tags ct where ct.connection_id = c.id and ct.tag_id = ?)";
  const params = tagId == null ? [organizationId] : [organizationId, tagId];
  const [row] = queryDb<{ total: number; dd: number; red: number; unknown: number }>(
    `select count(*) as total, coalesce(sum(is_due_diligence), 0) as dd, coalesce(sum(overall_risk_band = 'red'), 0) as red,
            coalesce(sum(overall_risk_band is null), 0) as unknown
       from organization_connections c where parent_organization_id = ? and is_deleted = 0 ${tag}`,
    ...params,
  );
  return row;
}

const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

test("dashboard charts and their tables, the tag filter and a CSV", async ({ page, context, javaScriptEnabled }) => {
  const analyst = demoUser("analyst@demo.test");
  await snapshotTaken(analyst.organizationId);
  await signIn(context, analyst);
  const all = counts(analyst.organizationId);
  expect(all.total).toBeGreaterThan(0);

  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText(`${all.total} suppliers`);
  const today = section(page, "Suppliers by risk level today");
  await expect(today.getByRole("row", { name: new RegExp(`^High ${all.red} `) })).toBeVisible();
  await expect(today.getByRole("row", { name: new RegExp(`^Not available ${all.unknown} `) })).toBeVisible();
  await expect(section(page, "Due diligence")).toContainText(`${all.dd} of ${all.total} suppliers are under due diligence`);

  // Every chart has its table; with JavaScript the chart is drawn on a canvas and the table folds under "Show as table".
  const charts = [
    ["Risk levels over time", "Suppliers by risk level per day"],
    ["By country", "Suppliers by country, with the country risk score"],
    ["By industry", "Suppliers by industry section"],
    ["By compliance regime", "Suppliers by compliance regime"],
  ];
  for (const [name, caption] of charts) {
    const part = section(page, name);
    // Folded away it is out of the accessibility tree until opened: look for it hidden or not (by its caption: uPlot's
    // legend is a table too, hidden from assistive technology with the chart).
    const table = part.getByRole("table", { name: caption, includeHidden: true });
    await expect(table).toHaveCount(1);
    if (javaScriptEnabled) {
      await expect(part.locator("[data-chart-ready] canvas")).toHaveCount(1);
      await expect(table).toBeHidden();
      await part.getByText("Show as table").click();
      await expect(table).toBeVisible();
    } else {
      await expect(part.locator("canvas")).toHaveCount(0);
      await expect(table).toBeVisible();
    }
  }
  // Today's snapshot is in the history table, with the day's total.
  const history = section(page, "Risk levels over time").getByRole("table", { name: "Suppliers by risk level per day", includeHidden: true });
  await expect(history.getByRole("row").nth(1)).toContainText(String(all.total));

  // The tag filter changes the numbers, to the database's.
  const [tag] = queryDb<{ id: number; title: string }>(
    `select t.id, t.title from organization_tags t where t.organization_id = ?
        and (select count(*) from organization_connection_tags ct join organization_connections c on c.id = ct.connection_id and c.is_deleted = 0 where ct.tag_id = t.id) > 0
      order by t.title limit 1`,
    analyst.organizationId,
  );
  const tagged = counts(analyst.organizationId, tag.id);
  expect(tagged.total).toBeLessThan(all.total);
  const filters = page.getByRole("form", { name: "Filter the dashboard" });
  await filters.getByLabel("Tag").selectOption({ label: tag.title });
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]tag=${tag.id}`));
  await expect(page.getByRole("status")).toHaveText(new RegExp(`^${tagged.total} suppliers? match`));
  await expect(section(page, "Due diligence")).toContainText(`${tagged.dd} of ${tagged.total} suppliers are under due diligence`);

  // The due-diligence CSV, under the same filter.
  const link = page.getByRole("link", { name: "Download the data of “Due diligence” as CSV" });
  let text: string;
  if (javaScriptEnabled) {
    const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(file.suggestedFilename()).toMatch(/^dashboard-due-diligence-\d{4}-\d{2}-\d{2}\.csv$/);
    text = fs.readFileSync(await file.path(), "utf8");
  } else {
    const response = await page.request.get((await link.getAttribute("href")) ?? "");
    expect(response.status()).toBe(200);
    text = await response.text();
  }
  const lines = text
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r\n/);
  expect(lines[0]).toBe("Under due diligence,Total,Share (%)");
  expect(lines[1].split(",").slice(0, 2)).toEqual([String(tagged.dd), String(tagged.total)]);

  if (javaScriptEnabled) await expectAccessible(page);
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (javaScriptEnabled) await expectAccessible(page);
});

test("in Norwegian", async ({ page, context }) => {
  const analyst = demoUser("analyst@demo.test");
  await snapshotTaken(analyst.organizationId);
  const user = await createUser({ language: "no" });
  // A Norwegian analyst of the demo organisation.
  queryDb("update users set organization_id = ? where id = ? returning id", analyst.organizationId, user.id);
  await signIn(context, user);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Dashbord", level: 1 })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText(`${counts(analyst.organizationId).total} leverandører`);
  await expect(section(page, "Risikonivå over tid")).toContainText("Historikken er registrert fra");
  await expect(section(page, "Etter regelverk").getByRole("table", { name: "Leverandører etter regelverk", includeHidden: true })).toContainText(
    "Åpenhetsloven",
  );
  await expect(page.getByRole("form", { name: "Filtrer dashbordet" }).getByLabel("Aktsomhetsvurdering")).toBeVisible();
});

test("an organization without suppliers gets the empty state, linking to My suppliers", async ({ page, context }) => {
  await signIn(context, await createUser());
  await page.goto("/dashboard");
  await expect(page.getByText("You are not following any suppliers yet.")).toBeVisible();
  await page.getByRole("link", { name: "Go to My suppliers" }).click();
  await expect(page).toHaveURL(/\/suppliers$/);
});

test("closed to level 1", async ({ page, context }) => {
  await signIn(context, demoUser("viewer@demo.test"));
  expect((await page.goto("/dashboard"))?.status()).toBe(403);
});
