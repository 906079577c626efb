import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, test, type Page } from "./test";
import { createUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * The file preview (shared/spec/02-supplier-credit-connections.md "File preview modal", §5 previewable types), with JavaScript on and off: a CSV, an xlsx and a PDF uploaded
 * on /files, each previewed from its "Preview" link; another organisation's
 * file is a 404.
 */

const FIXTURES = path.resolve("tests/fixtures/spreadsheets");

/** Uploads a fixture on /files and returns its id: the user's own upload (tests in parallel upload the same names). */
async function upload(page: Page, userId: number, fixture: string): Promise<number> {
  await page.getByLabel("File", { exact: true }).setInputFiles(path.join(FIXTURES, fixture));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: fixture })).toBeVisible();
  const [row] = queryDb<{ id: number }>("select id from file_uploads where file_name = ? and user_id = ? order by id desc limit 1", fixture, userId);
  return row.id;
}

function dialog(page: Page, name: string) {
  return page.getByRole("dialog", { name: `Preview: ${name}` });
}

test("upload a CSV, an xlsx and a PDF on /files and preview each", async ({ page, context, javaScriptEnabled }) => {
  const user = await createUser({ accessLevel: 1 });
  await signIn(context, user);
  await page.goto("/files");
  const csv = await upload(page, user.id, "suppliers-windows1252-tab.csv");
  const xlsx = await upload(page, user.id, "two-sheets-dates.xlsx");
  const pdf = await upload(page, user.id, "report.pdf");
  await upload(page, user.id, "fake.xlsx");

  // Offered by the sniffed kind: the fake workbook gets neither action; the PDF no analysis.
  await expect(page.getByRole("link", { name: "Preview fake.xlsx" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "View or analyse fake.xlsx" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "View or analyse report.pdf" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "View or analyse two-sheets-dates.xlsx" })).toHaveAttribute("href", `/files/${xlsx}/analyze`);

  // CSV (Windows-1252, tabs): the first rows as a table with the note.
  await page.getByRole("link", { name: "Preview suppliers-windows1252-tab.csv" }).click();
  await expect(page).toHaveURL(`/files/${csv}/preview`);
  const csvDialog = dialog(page, "suppliers-windows1252-tab.csv");
  await expect(csvDialog).toBeVisible();
  await expect(csvDialog.getByText("Only the first 16 rows are shown.")).toBeVisible();
  for (const place of ["Ørsta", "Bærum", "Å"]) await expect(csvDialog.getByRole("cell", { name: place, exact: true })).toBeVisible();
  await expect(csvDialog.getByRole("columnheader", { name: "D", exact: true })).toBeVisible();
  await expect(csvDialog.locator("abbr[title='Column D']")).toHaveText("D");
  if (javaScriptEnabled) await expectAccessible(page);
  await csvDialog.getByRole("link", { name: "Close" }).first().click();
  await expect(page).toHaveURL("/files");

  // xlsx: every sheet as a tab, dates and numbers as shown, the second sheet by its link.
  await page.getByRole("link", { name: "Preview two-sheets-dates.xlsx" }).click();
  const xlsxDialog = dialog(page, "two-sheets-dates.xlsx");
  await expect(xlsxDialog.getByRole("link", { name: "Leverandører" })).toHaveAttribute("aria-current", "page");
  await expect(xlsxDialog.getByRole("cell", { name: "2024-01-31" })).toBeVisible();
  await expect(xlsxDialog.getByRole("cell", { name: "1234.56" })).toBeVisible();
  await expect(xlsxDialog.getByRole("cell", { name: "0.3", exact: true })).toBeVisible();
  await expect(xlsxDialog.getByRole("cell", { name: "12.5%", exact: true })).toBeVisible();
  await xlsxDialog.getByRole("link", { name: "Notater" }).click();
  await expect(page).toHaveURL(`/files/${xlsx}/preview?sheet=1`);
  await expect(xlsxDialog.getByRole("cell", { name: "Bærum, Ørsta og Å" })).toBeVisible();
  await expect(xlsxDialog.getByRole("link", { name: "Notater" })).toHaveAttribute("aria-current", "page");
  if (javaScriptEnabled) await expectAccessible(page);

  // PDF: framed from our own origin, inline, with its own no-script policy (a refused frame would be a console error, failing the test).
  const framed = page.waitForResponse((r) => r.url().endsWith(`/files/${pdf}/inline`));
  await page.goto(`/files/${pdf}/preview`);
  const answer = await framed;
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("application/pdf");
  expect(answer.headers()["content-disposition"]).toMatch(/^inline;/);
  // The server's answer itself: Chromium reports the framed PDF's response with only its frame-ancestors part.
  const direct = await page.request.get(`/files/${pdf}/inline`);
  expect(direct.headers()["content-security-policy"]).toBe("default-src 'none'; object-src 'self'; frame-ancestors 'self'");
  expect(direct.headers()["x-content-type-options"]).toMatch(/^nosniff/);
  expect((await direct.body()).subarray(0, 5).toString()).toBe("%PDF-");
  const frame = dialog(page, "report.pdf").locator("iframe");
  await expect(frame).toHaveAttribute("src", `/files/${pdf}/inline`);
  await expect(frame).toHaveAttribute("title", "The PDF report.pdf");
  if (javaScriptEnabled) await expectAccessible(page);
  await page.screenshot({ path: `.cache/screenshots-files/preview-pdf-${javaScriptEnabled ? "js" : "nojs"}.png` });
});

test("a legacy xls shows the readers' message; the preview fits a 360 px phone", async ({ page, context, javaScriptEnabled }) => {
  const user = await createUser({ accessLevel: 1, language: "no" });
  await signIn(context, user);
  await page.goto("/files");
  await page.getByLabel("Fil", { exact: true }).setInputFiles(path.join(FIXTURES, "legacy.xls"));
  await page.getByRole("button", { name: "Last opp" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "legacy.xls" })).toBeVisible();
  await page.getByRole("link", { name: "Forhåndsvis legacy.xls" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "lagre den som Excel-arbeidsbok (.xlsx)" })).toBeVisible();

  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/files");
  await page.getByLabel("Fil", { exact: true }).setInputFiles(path.join(FIXTURES, "messy-quoted-empty-ragged.csv"));
  await page.getByRole("button", { name: "Last opp" }).click();
  await page.getByRole("link", { name: "Forhåndsvis messy-quoted-empty-ragged.csv" }).click();
  const preview = page.getByRole("dialog", { name: "Forhåndsvisning: messy-quoted-empty-ragged.csv" });
  await expect(preview.getByText("Bare de første 16 radene vises.")).toBeVisible();
  await expect(preview.getByRole("cell", { name: "Karmøy" })).toBeAttached();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (javaScriptEnabled) await expectAccessible(page);
  await page.screenshot({ path: `.cache/screenshots-files/preview-phone-${javaScriptEnabled ? "js" : "nojs"}.png` });
});

test("the files panel offers Preview and View / analyse, and the preview closes back to the page the panel was open on", async ({ page, context }) => {
  test.skip(!test.info().project.use.javaScriptEnabled, "without JavaScript the panel links to /files, covered above");
  const user = await createUser({ accessLevel: 1 });
  await signIn(context, user);
  await page.goto("/files");
  const id = await upload(page, user.id, "suppliers-utf8-bom-semicolon.csv");
  await page.goto("/overview?panel=files");
  const panel = page.getByRole("dialog", { name: "Files" });
  const preview = panel.getByRole("link", { name: "Preview suppliers-utf8-bom-semicolon.csv" });
  await expect(preview).toHaveAttribute("href", `/files/${id}/preview?returnTo=%2Foverview%3Fpanel%3Dfiles`);
  await expect(panel.getByRole("link", { name: "View or analyse suppliers-utf8-bom-semicolon.csv" })).toBeVisible();
  await preview.click();
  const dialog = page.getByRole("dialog", { name: "Preview: suppliers-utf8-bom-semicolon.csv" });
  await expect(dialog.getByRole("cell", { name: "TØNSBERGLIVET AS" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL("/overview?panel=files");

  // Escape pressed the moment the preview shows (before React's passive effects run) closes the preview, not the
  // panel it replaced: the key arrives right after the DOM changes, as a fast key press can.
  await page.evaluate(() => {
    const observer = new MutationObserver(() => {
      const shown = Array.from(document.querySelectorAll('[role="dialog"]')).some((d) =>
        document.getElementById(d.getAttribute("aria-labelledby") ?? "")?.textContent?.startsWith("Preview:"),
      );
      if (!shown) return;
      observer.disconnect();
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  await panel.getByRole("link", { name: "Preview suppliers-utf8-bom-semicolon.csv" }).click();
  await expect(page).toHaveURL("/overview?panel=files");
  await expect(panel).toBeVisible();
});

test("another organisation's file is a 404 for the preview, its PDF frame and the API", async ({ page, context, allowBrowserErrors }) => {
  allowBrowserErrors(/status of 404/);
  const owner = await createUser({ accessLevel: 1 });
  const [row] = queryDb<{ id: number }>(
    "insert into file_uploads (organization_id, user_id, file_name, file_size, mime_type, storage_key, created_at, content_kind) values (?, ?, 'theirs.pdf', 10, 'application/pdf', ?, ?, 'pdf') returning id",
    owner.organizationId,
    owner.id,
    randomBytes(16).toString("hex"),
    new Date().toISOString(),
  );
  const stranger = await createUser({ accessLevel: 1 });
  await signIn(context, stranger);
  const previewAnswer = await page.goto(`/files/${row.id}/preview`);
  expect(previewAnswer?.status()).toBe(404);
  expect((await page.request.get(`/files/${row.id}/inline`)).status()).toBe(404);
  const api = await page.request.get(`/api/supplier_upload/parseFile?fileId=${row.id}`);
  expect(api.status()).toBe(404);
  expect(await api.json()).toEqual({ error: "Not Found", message: "No file with this id." });
});
