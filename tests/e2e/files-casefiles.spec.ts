import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { expect, test, type Page } from "./test";
import { createUser, expectAccessible, queryDb, signIn, type TestUser } from "./helpers";

/**
 * The file uploads panel and /files (shared/spec/01-shell-chat-lei.md §2.5, shared/spec/02-supplier-credit-connections.md "File upload
 * slide-over", §5, §8) and case files (/casefiles, /casefiles/{id}), with
 * JavaScript on and off. Each test has its own user in its own organisation.
 */

const CONFIRM = "Are you sure you want to delete this file? This cannot be undone.";

function uniqueName(ext: string): string {
  return `Kontrakt ${randomBytes(3).toString("hex")}; «utkast».${ext}`;
}

function filesPanel(page: Page) {
  return page.getByRole("dialog", { name: "Files" });
}

/** A supplier organisation the user's organisation follows; returns its id and name. */
function followSupplier(user: TestUser): { id: number; name: string } {
  const name = `E2E Supplier ${randomBytes(3).toString("hex")}`;
  const at = new Date().toISOString();
  const [org] = queryDb<{ id: number }>(
    "insert into organizations (name, kind, org_number, country_code, created_at) values (?, 'supplier', null, 'NO', ?) returning id",
    name,
    at,
  );
  queryDb(
    "insert into organization_connections (parent_organization_id, child_organization_id, is_deleted, created_at, updated_at) values (?, ?, 0, ?, ?) returning id",
    user.organizationId,
    org.id,
    at,
    at,
  );
  return { id: org.id, name };
}

test.describe("file uploads", () => {
  test("open the panel from the top bar, upload, see the size, download, delete with the confirmation", async ({ page, context, javaScriptEnabled }) => {
    const user = await createUser({ accessLevel: 2 });
    await signIn(context, user);
    await page.goto("/overview");
    await page.getByRole("link", { name: "Files", exact: true }).click();
    await expect(page).toHaveURL(/[?&]panel=files/);
    const panel = filesPanel(page);
    await expect(panel).toBeVisible();
    const name = uniqueName("txt");
    const content = "supplier contract, draft 1\n";

    if (javaScriptEnabled) {
      await expect(panel.getByText("No files have been uploaded yet.")).toBeVisible();
      // No file chosen: the spec's message, not the browser's bubble.
      await panel.getByRole("button", { name: "Upload" }).click();
      await expect(panel.getByText("Please select a file first.")).toBeVisible();
      await panel.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "text/plain", buffer: Buffer.from(content) });
      await panel.getByRole("button", { name: "Upload" }).click();
      await expect(panel.getByRole("listitem").filter({ hasText: name })).toBeVisible();
      await expect(panel.getByText(`${Buffer.byteLength(content)} bytes`)).toBeVisible();
      await expect(panel.getByText("Please select a file first.")).toHaveCount(0);
      await page.screenshot({ path: ".cache/screenshots-files/files-panel-js.png", fullPage: true });
      await expectAccessible(page);

      const downloadPromise = page.waitForEvent("download");
      await panel.getByRole("link", { name: `Download ${name}` }).click();
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toBe(name);
      expect(fs.readFileSync(await download.path(), "utf8")).toBe(content);

      // The confirmation step is URL state over the panel, as on the page without JavaScript.
      await panel.getByRole("link", { name: `Delete ${name}` }).click();
      await expect(page).toHaveURL(/[?&]deleteFile=\d+/);
      const dialog = page.getByRole("alertdialog", { name: "Delete file" });
      await expect(dialog.getByText(CONFIRM)).toBeVisible();
      await expect(dialog.getByRole("link", { name: "Cancel" })).toBeFocused();
      await page.screenshot({ path: ".cache/screenshots-files/files-delete-dialog-js.png" });
      await dialog.getByRole("button", { name: "Delete", exact: true }).click();
      await expect(page).not.toHaveURL(/deleteFile=/);
      await expect(panel.getByText("No files have been uploaded yet.")).toBeVisible();
      await expect(panel.getByRole("listitem").filter({ hasText: name })).toHaveCount(0);
    } else {
      // Without JavaScript the panel cannot load its list; it leads to the full page.
      await page.screenshot({ path: ".cache/screenshots-files/files-panel-nojs.png", fullPage: true });
      await panel.getByRole("link", { name: "Open your files" }).first().click();
      await expect(page).toHaveURL(/\/files$/);
      await expect(page.getByRole("heading", { name: "File uploads" })).toBeVisible();
      await expect(page.getByText("No files have been uploaded yet.")).toBeVisible();
      await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "text/plain", buffer: Buffer.from(content) });
      await page.getByRole("button", { name: "Upload" }).click();
      await expect(page.getByRole("status").filter({ hasText: "File uploaded." })).toBeVisible();
      await expect(page.getByRole("listitem").filter({ hasText: name })).toBeVisible();
      await expect(page.getByText(`${Buffer.byteLength(content)} bytes`)).toBeVisible();
      await page.screenshot({ path: ".cache/screenshots-files/files-page-nojs.png", fullPage: true });

      const downloadPromise = page.waitForEvent("download");
      await page.getByRole("link", { name: `Download ${name}` }).click();
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toBe(name);
      expect(fs.readFileSync(await download.path(), "utf8")).toBe(content);

      await page.getByRole("link", { name: `Delete ${name}` }).click();
      await expect(page).toHaveURL(/\/files\?delete=\d+$/);
      await expect(page.getByText(CONFIRM)).toBeVisible();
      await page.screenshot({ path: ".cache/screenshots-files/files-delete-confirm-nojs.png", fullPage: true });
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
      await expect(page).toHaveURL(/\/files$/);
      await expect(page.getByRole("status").filter({ hasText: "File deleted." })).toBeVisible();
      await expect(page.getByText("No files have been uploaded yet.")).toBeVisible();
    }
    expect(queryDb("select id from file_uploads where organization_id = ?", user.organizationId)).toEqual([]);
  });

  test("the confirmation names the connections a file will be removed from", async ({ page, context, javaScriptEnabled }) => {
    const user = await createUser({ accessLevel: 2 });
    await signIn(context, user);
    const supplier = followSupplier(user);
    await page.goto("/files");
    const name = uniqueName("pdf");
    await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 test") });
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByRole("listitem").filter({ hasText: name })).toBeVisible();
    const [file] = queryDb<{ id: number }>("select id from file_uploads where organization_id = ?", user.organizationId);
    const [connection] = queryDb<{ id: number }>(
      "select id from organization_connections where parent_organization_id = ? and child_organization_id = ?",
      user.organizationId,
      supplier.id,
    );
    queryDb(
      "insert into organization_connection_files (connection_id, file_upload_id, created_at) values (?, ?, ?) returning connection_id",
      connection.id,
      file.id,
      new Date().toISOString(),
    );
    await page.reload();
    // The same confirmation step with and without JavaScript.
    await page.getByRole("link", { name: `Delete ${name}` }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete file" });
    await expect(dialog).toContainText(`${CONFIRM} This file is attached to 1 connection and will be removed from it.`);
    await expect(dialog).toContainText(name);
    if (javaScriptEnabled) {
      // Cancel leaves the file; Escape cancels too.
      await dialog.getByRole("link", { name: "Cancel" }).click();
      await expect(dialog).toHaveCount(0);
      await page.getByRole("link", { name: `Delete ${name}` }).click();
      await expect(dialog).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);
      await expect(page.getByRole("listitem").filter({ hasText: name })).toBeVisible();
      await page.getByRole("link", { name: `Delete ${name}` }).click();
    }
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page.getByText("No files have been uploaded yet.")).toBeVisible();
    await expect(page).toHaveURL(/\/files$/);
    const audit = queryDb<{ action: string }>("select action from connection_events where connection_id = ?", connection.id);
    expect(audit.map((a) => a.action)).toContain("file_detached");
  });
});

test.describe("case files", () => {
  test("create from /casefiles, open it, add a comment, change status and priority; another organisation gets 404", async ({
    page,
    context,
    browser,
    javaScriptEnabled,
  }) => {
    const user = await createUser({ accessLevel: 2 });
    await signIn(context, user);
    const supplier = followSupplier(user);
    await page.goto("/casefiles");
    await expect(page.getByRole("heading", { name: "Case files", exact: true })).toBeVisible();
    await expect(page.getByText("No case files yet.")).toBeVisible();

    const title = `Late deliveries ${javaScriptEnabled ? "js" : "nojs"}`;
    const form = page.getByRole("region", { name: "New case file" });
    await form.getByLabel("Title").fill(title);
    await form.getByLabel("Supplier").selectOption({ label: supplier.name });
    await form.getByLabel("Priority").selectOption("4");
    await form.getByRole("button", { name: "Create case file" }).click();
    await expect(page).toHaveURL(/\/casefiles\/\d+$/);
    await expect(page.getByRole("heading", { name: title })).toBeVisible();
    await expect(page.getByText("Case file created.")).toBeVisible();
    const id = Number(new URL(page.url()).pathname.split("/").pop());

    await page.goto("/casefiles");
    const row = page.getByRole("row", { name: new RegExp(title) });
    await expect(row).toContainText(supplier.name);
    await expect(row).toContainText("Open");
    await expect(row.locator("[data-priority='4']")).toHaveText("4");
    await page.screenshot({ path: `.cache/screenshots-files/casefiles-list-${javaScriptEnabled ? "js" : "nojs"}.png`, fullPage: true });
    await row.getByRole("link", { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`/casefiles/${id}$`));

    await page.getByRole("textbox", { name: "Comment" }).fill("Asked the supplier for a delivery plan.");
    await page.getByRole("button", { name: "Add Comment" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved!" })).toBeVisible();
    await expect(page.getByText("Asked the supplier for a delivery plan.")).toBeVisible();
    await expect(page.getByText(`Posted by ${user.email}`)).toBeVisible();

    await page.getByRole("combobox", { name: "Status" }).selectOption("in_progress");
    await page.getByRole("button", { name: "Save status" }).click();
    await expect(page.getByText("Status changed from Open to In progress")).toBeVisible();
    await page.getByRole("combobox", { name: "Priority" }).selectOption("2");
    await page.getByRole("button", { name: "Save priority" }).click();
    await expect(page.getByText("Priority changed from 4 to 2")).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Saved!" })).toBeVisible();
    await page.screenshot({ path: `.cache/screenshots-files/casefile-detail-${javaScriptEnabled ? "js" : "nojs"}.png`, fullPage: true });
    if (javaScriptEnabled) await expectAccessible(page);

    await page.reload();
    await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("in_progress");

    const other = await createUser({ accessLevel: 2 });
    const otherContext = await browser.newContext({ javaScriptEnabled });
    await signIn(otherContext, other);
    const otherPage = await otherContext.newPage();
    const response = await otherPage.goto(`/casefiles/${id}`);
    expect(response?.status()).toBe(404);
    await expect(otherPage.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    // Only the case file's place shows the 404: the shell and the way back to the list stay.
    await expect(otherPage.getByRole("search", { name: "Search" })).toBeVisible();
    await otherPage.getByRole("link", { name: /All case files/ }).click();
    await expect(otherPage).toHaveURL(/\/casefiles$/);
    await expect(otherPage.getByRole("heading", { name: "Case files", exact: true })).toBeVisible();
    await otherContext.close();
  });

  test("a refused change shows its message at the form and keeps the input", async ({ page, context, javaScriptEnabled }) => {
    const user = await createUser({ accessLevel: 2 });
    await signIn(context, user);
    followSupplier(user);
    await page.goto("/casefiles");
    const form = page.getByRole("region", { name: "New case file" });
    // Only spaces: the browser lets it through (the field is required but not empty), the schema refuses it.
    await form.getByLabel("Title").fill("   ");
    await form.getByRole("button", { name: "Create case file" }).click();
    await expect(form.getByText("Enter a title.")).toBeVisible();
    await expect(form.getByText("Choose a supplier.")).toBeVisible();
    await expect(page).toHaveURL(/\/casefiles$/);
    if (!javaScriptEnabled) expect(queryDb<{ n: number }>("select count(*) as n from casefiles where created_by = ?", user.id)[0].n).toBe(0);
  });

  test("a level-1 user may not open case files", async ({ page, context }) => {
    const viewer = await createUser({ accessLevel: 1 });
    await signIn(context, viewer);
    const response = await page.goto("/casefiles");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
  });
});
