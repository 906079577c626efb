import path from "node:path";
import { expect, test } from "./test";
import { createUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * The supplier-list import, with JavaScript and without: upload a list, open View / analyse, see the
 * mapping guessed from the headers and the spec's message when a column is missing, analyse, watch the progress, read
 * the dry-run report, resolve the ambiguous line, confirm with a new tag, and find the new suppliers under that tag in
 * /suppliers and the result spreadsheet among the files. The worker runs in the e2e server (server/main.ts).
 */

const LIST = path.resolve("tests/fixtures/imports/supplier-list.xlsx");

test("a supplier list is analysed, resolved and imported with a tag", async ({ page, context, javaScriptEnabled }) => {
  test.setTimeout(60_000);
  const user = await createUser({ accessLevel: 2 });
  await signIn(context, user);

  await page.goto("/files");
  await page.getByLabel("File", { exact: true }).setInputFiles(LIST);
  await page.getByRole("button", { name: "Upload" }).click();
  await page.getByRole("link", { name: "View or analyse supplier-list.xlsx" }).click();

  const dialog = page.getByRole("dialog", { name: "Analyse supplier-list.xlsx" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Only the first 16 rows are shown.")).toBeVisible();
  await expect(dialog.getByRole("cell", { name: "TØNSBERGLIVET AS" })).toBeVisible();
  // Guessed from the headers.
  await expect(dialog.getByLabel("Org ID column")).toHaveValue("0");
  await expect(dialog.getByLabel("Org Name column")).toHaveValue("1");
  await expect(dialog.getByLabel("Country column (optional)")).toHaveValue("2");
  if (javaScriptEnabled) await expectAccessible(page);
  await page.screenshot({ path: `.cache/screenshots-imports/analyze-${javaScriptEnabled ? "js" : "nojs"}.png`, fullPage: true });

  await dialog.getByLabel("Org Name column").selectOption("");
  await page.getByRole("button", { name: "Analyze" }).click();
  await expect(page.getByText("Please select both an Org ID column and an Org Name column first.")).toBeVisible();
  expect(queryDb("select id from supplier_imports where organization_id = ?", user.organizationId)).toEqual([]);

  await page.getByLabel("Org Name column").selectOption("1");
  await page.getByRole("button", { name: "Analyze" }).click();

  if (javaScriptEnabled) {
    // The dialog closes and the progress shows; it asks until the analysis is done.
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Analysing supplier-list.xlsx" })).toBeVisible();
    await expect(page.getByText("The analysis is done.")).toBeVisible({ timeout: 20_000 });
    await page.getByRole("link", { name: "Open the report" }).click();
  } else {
    await expect(page).toHaveURL(/\/suppliers\/imports\/\d+$/);
    // Without JavaScript the page shows the state it is in — waiting or analysing, never nothing — with a link to look again.
    await expect(async () => {
      const refresh = page.getByRole("link", { name: "Refresh to see the progress" });
      if (await refresh.count()) await refresh.click();
      await expect(page.getByRole("navigation", { name: "Show lines by status" })).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 30_000 });
  }

  await expect(page.getByRole("heading", { name: "Import of supplier-list.xlsx" })).toBeVisible();
  const filters = page.getByRole("navigation", { name: "Show lines by status" });
  await expect(filters.getByRole("link", { name: "All 6" })).toBeVisible();
  await expect(filters.getByRole("link", { name: "Matched 2" })).toBeVisible();
  await expect(filters.getByRole("link", { name: "Ambiguous 1" })).toBeVisible();
  await expect(filters.getByRole("link", { name: "Invalid 1" })).toBeVisible();
  await expect(filters.getByRole("link", { name: "Duplicate 1" })).toBeVisible();
  await expect(filters.getByRole("link", { name: "Not found 1" })).toBeVisible();
  // The files list shows the analysis and its state, linking to the report.
  const report = page.url();
  await page.goto("/files");
  const analyses = page.getByRole("region", { name: "Supplier list analyses" });
  await expect(analyses.getByText("Ready: review the report and confirm the import")).toBeVisible();
  await analyses.getByRole("link", { name: "supplier-list.xlsx" }).click();
  await expect(page).toHaveURL(report);
  await expect(page.getByText("The organization number's check digit is wrong (a typing error?).")).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);
  await page.screenshot({ path: `.cache/screenshots-imports/report-${javaScriptEnabled ? "js" : "nojs"}.png`, fullPage: true });

  await filters.getByRole("link", { name: "Ambiguous 1" }).click();
  await expect(page).toHaveURL(/status=ambiguous/);
  await expect(page.getByRole("row")).toHaveCount(2);
  const choice = page.getByLabel("Company for row 5");
  const norge = await choice.locator("option", { hasText: "CIRCLE K NORGE AS" }).getAttribute("value");
  await choice.selectOption(norge!);
  await page.getByRole("button", { name: "Choose" }).click();
  await expect(page.getByText("Confirming adds 3 suppliers.")).toBeVisible();

  await page.getByLabel("Or a new tag").fill("Excel import");
  await page.getByRole("button", { name: "Confirm import" }).click();
  await expect(page).toHaveURL(/\/suppliers\?tag=\d+$/);
  await expect(page.getByText("The suppliers were imported.")).toBeVisible();
  for (const name of ["WAYS AS", "TØNSBERGLIVET AS", "CIRCLE K NORGE AS"]) await expect(page.getByRole("link", { name, exact: true }).first()).toBeVisible();
  const connections = queryDb<{ org_number: string }>(
    "select o.org_number from organization_connections c join organizations o on o.id = c.child_organization_id where c.parent_organization_id = ? order by 1",
    user.organizationId,
  );
  expect(connections.map((c) => c.org_number)).toEqual(["832175692", norgeOrgNumber(), "993020923"].sort());

  await page.goto("/files");
  await expect(page.getByText("supplier-list – analysis.xlsx")).toBeVisible();
  // A confirmed import leaves the list of analyses.
  await expect(page.getByRole("region", { name: "Supplier list analyses" })).toHaveCount(0);
});

function norgeOrgNumber(): string {
  return queryDb<{ org_number: string }>("select org_number from companies where legal_name = 'CIRCLE K NORGE AS'")[0].org_number;
}
