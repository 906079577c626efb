import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "./test";
import { demoUser, expectAccessible, queryDb, signIn } from "./helpers";
import { E2E_DATA_DIR } from "./env";
import type { Page } from "@playwright/test";

/**
 * /ai/reports: generate a supplier report on a followed demo supplier, read it, download its PDF, delete it —
 * with JavaScript and without; once in Norwegian; at 360 px; axe; below level 2 refused.
 */

const VINMONOPOLET = "817209882";

/** A member of the demo analyst's organisation at level 2 who reads Norwegian (the demo accounts stay as they are). */
function norwegianAnalyst(): { id: number } {
  const analyst = demoUser("analyst@demo.test");
  const db = new Database(path.join(E2E_DATA_DIR, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    const email = `norsk-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@ai-reports.test`;
    return db
      .prepare(
        "insert into users (email, password_hash, language, is_admin, organization_id, access_level, created_at) values (?, 'x', 'no', 0, ?, 2, ?) returning id",
      )
      .get(email, analyst.organizationId, new Date().toISOString()) as { id: number };
  } finally {
    db.close();
  }
}

async function pdfBytes(page: Page, link: ReturnType<Page["getByRole"]>, javaScriptEnabled: boolean): Promise<Buffer> {
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/ai\/reports\/\d+\/pdf$/);
  if (javaScriptEnabled) {
    const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(file.suggestedFilename()).toMatch(/^Supplier report .+\.pdf$|^Leverandørrapport .+\.pdf$/);
    const fs = await import("node:fs");
    return fs.readFileSync(await file.path());
  }
  const response = await page.request.get(href ?? "");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  return response.body();
}

test("generates a report on a followed supplier, shows it, downloads the PDF and deletes it", async ({ page, context, javaScriptEnabled }) => {
  const analyst = demoUser("analyst@demo.test");
  const [supplier] = queryDb<{ legal_name: string }>("select legal_name from companies where org_number = ?", VINMONOPOLET);
  await signIn(context, analyst);
  await page.goto("/ai/reports");
  await expect(page.getByRole("heading", { level: 1, name: "AI reports" })).toBeVisible();

  // Narrow the followed suppliers with the search (a GET form), then choose and generate.
  const search = page.getByRole("search", { name: "Find a followed supplier" });
  await search.getByLabel("Find a followed supplier").fill("vinmonopolet");
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/ai\/reports\?q=vinmonopolet$/);
  const select = page.getByLabel("Supplier", { exact: true });
  await expect(select.locator("option")).toHaveCount(2);
  await select.selectOption(VINMONOPOLET);
  await page.getByRole("button", { name: "Generate report" }).click();

  await expect(page).toHaveURL(/\/ai\/reports\/\d+$/);
  const id = Number(page.url().split("/").pop());
  await expect(page.getByRole("heading", { level: 1, name: `Supplier report: ${supplier.legal_name}` })).toBeVisible();
  for (const section of [
    "Summary",
    "Registry facts and flags",
    "Risk overview",
    "Financials",
    "Board and management",
    "Announcements",
    "Notifications",
    "Tasks and surveys",
    "Comments",
  ])
    await expect(page.getByRole("heading", { level: 2, name: section, exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Operating income" })).toBeVisible();
  expect(queryDb<{ status: string; organization_id: number }>("select status, organization_id from ai_reports where id = ?", id)).toEqual([
    { status: "ready", organization_id: analyst.organizationId },
  ]);
  if (javaScriptEnabled) await expectAccessible(page);

  const pdf = await pdfBytes(page, page.getByRole("link", { name: "Download PDF" }), javaScriptEnabled);
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(pdf.length).toBeGreaterThan(2_000);

  // Listed for the organisation (other tests add reports to it meanwhile); delete through the confirmation step.
  await page.getByRole("link", { name: "All reports" }).click();
  await expect(page).toHaveURL(/\/ai\/reports$/);
  const row = page.locator("tbody tr").filter({ has: page.locator(`a[href="/ai/reports/${id}"]`) });
  await expect(row.getByRole("link", { name: `Open the report on ${supplier.legal_name}` })).toHaveAttribute("href", `/ai/reports/${id}`);
  if (javaScriptEnabled) await expectAccessible(page);
  await row.getByRole("link", { name: `Delete the report on ${supplier.legal_name}` }).click();
  const step = page.getByRole("alertdialog", { name: "Delete the report?" });
  await expect(step).toBeVisible();
  await step.getByRole("button", { name: "Delete" }).click();
  await expect(step).toHaveCount(0);
  await expect(page.getByText("Report deleted.")).toBeVisible();
  await expect(page.locator(`a[href="/ai/reports/${id}"]`)).toHaveCount(0);
  expect(queryDb("select id from ai_reports where id = ?", id)).toEqual([]);
  expect((await page.request.get(`/ai/reports/${id}/pdf`)).status()).toBe(404);
});

test("in Norwegian, from the supplier's number in the address", async ({ page, context, javaScriptEnabled }) => {
  const user = norwegianAnalyst();
  await signIn(context, user);
  await page.goto(`/ai/reports?orgNumber=${VINMONOPOLET}`);
  await expect(page.getByRole("heading", { level: 1, name: "KI-rapporter" })).toBeVisible();
  await expect(page.getByLabel("Leverandør", { exact: true })).toHaveValue(VINMONOPOLET);
  await page.getByRole("button", { name: "Lag rapport" }).click();
  await expect(page).toHaveURL(/\/ai\/reports\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: /^Leverandørrapport: / })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Risikooversikt" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Regnskap" })).toBeVisible();
  const pdf = await pdfBytes(page, page.getByRole("link", { name: "Last ned PDF" }), javaScriptEnabled);
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
});

test("at 360 px the list and the report fit the width", async ({ page, context }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await signIn(context, demoUser("analyst@demo.test"));
  await page.goto(`/ai/reports?orgNumber=${VINMONOPOLET}`);
  await page.getByRole("button", { name: "Generate report" }).click();
  await expect(page).toHaveURL(/\/ai\/reports\/\d+$/);
  await expect(page.getByRole("link", { name: "Download PDF" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.goto("/ai/reports");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("below level 2 the screen is refused", async ({ page, context }) => {
  await signIn(context, demoUser("viewer@demo.test"));
  const response = await page.goto("/ai/reports");
  expect(response?.status()).toBe(403);
});

test("the supplier screen of a followed supplier links its report", async ({ page, context }) => {
  await signIn(context, demoUser("analyst@demo.test"));
  await page.goto(`/supplier?externalId=${VINMONOPOLET}`);
  await page.getByRole("link", { name: "AI report", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/ai/reports\\?orgNumber=${VINMONOPOLET}$`));
  await expect(page.getByLabel("Supplier", { exact: true })).toHaveValue(VINMONOPOLET);
});
