import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "./test";
import { createUser, queryDb, signIn } from "./helpers";

/**
 * The supplier connection on the supplier screen (shared/spec/02-supplier-credit-connections.md "Supplier overview
 * card", "Edit Supplier Connection slide-over", "Manage Tags dialog"), with
 * JavaScript on and off, as a fresh user of a fresh organisation on a real
 * registry company. After each step a reload shows the change on the card.
 */

const COMPANY = "817209882";
const SUPPLIER_URL = `/supplier?externalId=${COMPANY}`;
const FILE_LABEL = "File";

const card = (page: Page) => page.locator("#supplier-overview");
const slideOver = (page: Page) => page.getByRole("dialog", { name: "Edit Supplier Connection" });
const confirmation = (page: Page) => page.getByRole("alertdialog");

/** The supplier's row in the My suppliers list (the fresh organisation follows only this one). */
const listRow = (page: Page) => page.getByRole("table").getByRole("row").filter({ hasText: "Aktieselskapet Vinmonopolet" });

/**
 * Reloads the supplier screen without the slide-over and checks the card, then
 * (when given) the /suppliers list, and returns to the slide-over.
 */
async function cardAfterReload(page: Page, check: () => Promise<void>, checkList?: () => Promise<void>) {
  await page.goto(SUPPLIER_URL);
  await check();
  if (checkList) {
    await page.goto("/suppliers");
    await checkList();
  }
  await page.goto(`${SUPPLIER_URL}&edit=connection`);
  await expect(slideOver(page)).toBeVisible();
}

test("a user adds a supplier and edits its connection: flags, email, tags, comments, files, soft delete", async ({ page, context }, testInfo) => {
  test.setTimeout(90_000);
  const user = await createUser();
  await signIn(context, user);
  const shots = path.resolve(".cache/screenshots");
  fs.mkdirSync(shots, { recursive: true });

  // Not yet a supplier: the card offers to add it.
  await page.goto(SUPPLIER_URL);
  await expect(card(page).getByText("This company is not in your suppliers yet.")).toBeVisible();
  await card(page).getByRole("button", { name: "Add to my suppliers" }).click();
  await expect(card(page).getByText("Active Supplier")).toBeVisible();
  await expect(card(page).getByText(/^Added \d{1,2} [A-Z][a-z]{2} \d{4}$/)).toBeVisible();
  await expect(card(page).getByText("No tags added.")).toBeVisible();
  await expect(card(page).getByText("No comments yet.")).toBeVisible();
  await expect(card(page).getByText("No files attached.")).toBeVisible();
  await expect(card(page).getByText("No case files for this supplier.")).toBeVisible();
  await page.goto("/suppliers");
  await expect(listRow(page)).toHaveCount(1);
  await expect(listRow(page).getByRole("link", { name: "Aktieselskapet Vinmonopolet" })).toHaveAttribute("href", /externalId=817209882/);
  await page.goto(SUPPLIER_URL);
  await page.screenshot({ path: path.join(shots, `connection-card-${testInfo.project.name}.png`), fullPage: false });

  // The edit icon opens the slide-over (URL state).
  await card(page).getByRole("link", { name: "Edit supplier connection" }).click();
  await expect(page).toHaveURL(/edit=connection/);
  const panel = slideOver(page);
  await expect(panel).toBeVisible();
  for (const label of ["Status", "Contact Info", "Tags", "Comments", "Files"])
    await expect(panel.getByRole("heading", { name: label, exact: true })).toBeVisible();

  // Flags and contact email, saved together.
  await panel.getByLabel("Priority Supplier").check();
  await panel.getByLabel("Under Due Diligence").check();
  await expect(panel.getByPlaceholder("Supplier contact email")).toHaveAttribute("type", "email");
  await panel.getByPlaceholder("Supplier contact email").fill("contact@supplier.example");
  await panel.getByRole("button", { name: "Save Changes" }).click();
  await expect(panel.getByText("Saved!")).toBeVisible();
  await expect(panel.getByText("Priority", { exact: true })).toBeVisible();
  await expect(panel.getByText("Under Consideration", { exact: true })).toBeVisible();
  await cardAfterReload(
    page,
    async () => {
      await expect(card(page).getByText("Priority Supplier")).toBeVisible();
      await expect(card(page).getByText("Under Due Diligence")).toBeVisible();
      await expect(card(page).getByText("contact@supplier.example")).toBeVisible();
    },
    async () => {
      await expect(listRow(page).getByText("Priority Supplier")).toBeVisible();
      await expect(listRow(page).getByText("Under Due Diligence")).toBeVisible();
    },
  );

  // Create two tags, remove one, add it back from the existing tags, remove it again.
  const tagA = `Critical ${randomBytes(2).toString("hex")}`;
  const tagB = `Spare ${randomBytes(2).toString("hex")}`;
  for (const title of [tagA, tagB]) {
    await panel.getByLabel("Create New Tag").fill(title);
    await panel.getByRole("button", { name: "Create & Add" }).click();
    await expect(panel.getByRole("button", { name: `Remove tag ${title}` })).toBeVisible();
  }
  await cardAfterReload(
    page,
    async () => {
      await expect(card(page).getByText(tagA)).toBeVisible();
      await expect(card(page).getByText(tagB)).toBeVisible();
    },
    async () => {
      await expect(listRow(page).getByText(tagA)).toBeVisible();
      await expect(listRow(page).getByText(tagB)).toBeVisible();
    },
  );
  await panel.getByRole("button", { name: `Remove tag ${tagB}` }).click();
  await expect(panel.getByRole("button", { name: `Remove tag ${tagB}` })).toHaveCount(0);
  await cardAfterReload(
    page,
    async () => {
      await expect(card(page).getByText(tagA)).toBeVisible();
      await expect(card(page).getByText(tagB)).toHaveCount(0);
    },
    async () => {
      await expect(listRow(page).getByText(tagB)).toHaveCount(0);
    },
  );
  await panel.getByLabel("Add Existing Tag").selectOption({ label: tagB });
  await panel.getByRole("button", { name: "Add Selected Tag" }).click();
  await expect(panel.getByRole("button", { name: `Remove tag ${tagB}` })).toBeVisible();
  await cardAfterReload(page, async () => {
    await expect(card(page).getByText(tagB)).toBeVisible();
  });

  // Delete tag B from Manage Tags, with its confirmation.
  await panel.getByRole("link", { name: "Manage Tags" }).click();
  const tagsDialog = page.getByRole("dialog", { name: "Manage Tags" });
  await expect(tagsDialog).toBeVisible();
  await expect(tagsDialog.getByText("Deleting a tag permanently removes it and all its connections to suppliers.")).toBeVisible();
  await expect(tagsDialog.getByText("Used in 1 connection(s)")).toHaveCount(2);
  await tagsDialog.getByRole("link", { name: `Delete ${tagB}` }).click();
  await expect(confirmation(page)).toContainText(
    `Are you sure you want to delete the tag "${tagB}"? This will remove it from 1 connection(s). This action cannot be undone.`,
  );
  await confirmation(page).getByRole("button", { name: "Delete" }).click();
  await expect(tagsDialog.getByText(tagB)).toHaveCount(0);
  await expect(tagsDialog.getByText(tagA)).toBeVisible();
  await tagsDialog.getByRole("link", { name: "Close" }).last().click();
  await expect(tagsDialog).toHaveCount(0);
  await cardAfterReload(
    page,
    async () => {
      await expect(card(page).getByText(tagA)).toBeVisible();
      await expect(card(page).getByText(tagB)).toHaveCount(0);
    },
    async () => {
      await expect(listRow(page).getByText(tagA)).toBeVisible();
      await expect(listRow(page).getByText(tagB)).toHaveCount(0);
    },
  );

  // A comment: add, then delete with its confirmation.
  await panel.getByLabel("Add Comment").fill("Signed the supplier code of conduct.");
  await panel.getByRole("button", { name: "Add Comment" }).click();
  await expect(panel.getByText("Signed the supplier code of conduct.")).toBeVisible();
  await expect(panel.getByText(`Posted by ${user.email}`)).toBeVisible();
  // When, relative to the server's time of the render (shared/spec/01-shell-chat-lei.md §9), with the full date and time on hover.
  const postedAt = panel.locator("time").filter({ hasText: /^(now|\d+ seconds? ago)$/ });
  await expect(postedAt).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  await expect(postedAt).toHaveAttribute("title", /^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2}$/);
  await cardAfterReload(page, async () => {
    await expect(card(page).getByText("Signed the supplier code of conduct.")).toBeVisible();
    await expect(card(page).getByText(user.email)).toBeVisible();
  });
  await expect(postedAt).toBeVisible();
  await panel.getByRole("link", { name: "Delete", exact: true }).first().click();
  await expect(confirmation(page)).toContainText("Are you sure you want to delete this comment?");
  await confirmation(page).getByRole("button", { name: "Delete" }).click();
  await expect(confirmation(page)).toHaveCount(0);
  await expect(panel.getByText("Signed the supplier code of conduct.")).toHaveCount(0);
  await cardAfterReload(page, async () => {
    await expect(card(page).getByText("No comments yet.")).toBeVisible();
  });

  // Upload a file on the files page, attach it, then remove it with its confirmation.
  const fileName = `contract-${randomBytes(2).toString("hex")}.pdf`;
  const bytes = Buffer.from("%PDF-1.4\n% supplier contract\n");
  await page.goto("/files");
  await page.getByLabel(FILE_LABEL, { exact: true }).setInputFiles({ name: fileName, mimeType: "application/pdf", buffer: bytes });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByRole("paragraph").filter({ hasText: fileName }).first()).toBeVisible();
  const [{ id: fileId }] = queryDb<{ id: number }>("select id from file_uploads where user_id = ? and file_name = ?", user.id, fileName);
  await page.goto(`${SUPPLIER_URL}&edit=connection`);
  await panel.getByLabel("Attach Existing File").selectOption({ label: fileName });
  await panel.getByRole("button", { name: "Attach File" }).click();
  await expect(panel.getByRole("link", { name: `Remove ${fileName}` })).toBeVisible();
  await expect(panel.getByText(`${bytes.length} bytes`)).toBeVisible();
  await page.screenshot({ path: path.join(shots, `connection-slide-over-${testInfo.project.name}.png`), fullPage: false });
  await cardAfterReload(page, async () => {
    await expect(card(page).getByText(fileName)).toBeVisible();
    await expect(card(page).getByRole("link", { name: `Download ${fileName}` })).toHaveAttribute("href", `/api/file-uploads/${fileId}/download`);
    await page.screenshot({ path: path.join(shots, `connection-card-filled-${testInfo.project.name}.png`), fullPage: false });
  });
  await panel.getByRole("link", { name: `Remove ${fileName}` }).click();
  await expect(confirmation(page)).toContainText("Are you sure you want to remove this file?");
  await page.screenshot({ path: path.join(shots, `connection-confirm-${testInfo.project.name}.png`), fullPage: false });
  await confirmation(page).getByRole("button", { name: "Remove" }).click();
  await expect(panel.getByRole("link", { name: `Remove ${fileName}` })).toHaveCount(0);
  // Detached, it is offered for attaching again.
  await expect(panel.getByLabel("Attach Existing File").locator("option", { hasText: fileName })).toHaveCount(1);
  await cardAfterReload(page, async () => {
    await expect(card(page).getByText("No files attached.")).toBeVisible();
  });

  // Soft delete with its confirmation: the slide-over closes, the card offers to add the supplier again.
  await panel.getByRole("link", { name: "Delete", exact: true }).last().click();
  await expect(confirmation(page)).toContainText("Are you sure you want to soft delete this connection?");
  await confirmation(page).getByRole("button", { name: "Delete" }).click();
  await expect(slideOver(page)).toHaveCount(0);
  await expect(page).not.toHaveURL(/edit=connection/);
  await page.reload();
  await expect(card(page).getByRole("button", { name: "Add to my suppliers" })).toBeVisible();
  // Gone from the list too.
  await page.goto("/suppliers");
  await expect(listRow(page)).toHaveCount(0);
  await expect(page.getByText("You are not following any suppliers yet.")).toBeVisible();
  const [row] = queryDb<{ is_deleted: number }>("select is_deleted from organization_connections where parent_organization_id = ?", user.organizationId);
  expect(row.is_deleted).toBe(1);
});
