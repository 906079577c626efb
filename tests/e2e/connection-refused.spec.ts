import fs from "node:fs";
import { expect, test, type Page } from "./test";
import { createUser, queryDb, signIn } from "./helpers";

/**
 * A refused change on the supplier screen's connection ("Every form
 * the same way"): with JavaScript and without it, the message appears where
 * the user acted (role="alert", tied to the control), in the user's language,
 * what they typed is kept, and nothing is saved. Fixed, the same form saves.
 */

type Texts = typeof import("../../locales/en/connections.json");
const texts = (language: "en" | "no"): Texts => JSON.parse(fs.readFileSync(new URL(`../../locales/${language}/connections.json`, import.meta.url), "utf8"));
const en = texts("en");
const no = texts("no");

const COMPANY = "817209882";
const SUPPLIER_URL = `/supplier?externalId=${COMPANY}`;

// A console error (a hydration mismatch, a failed request) fails the test.
let consoleErrors: string[] = [];
test.beforeEach(({ page }) => {
  consoleErrors = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(e.message));
});
test.afterEach(() => {
  // The refused posts answer 400 or 403 on purpose; the browser logs those as failed resources.
  expect(consoleErrors.filter((e) => !/status of 40[03]/.test(e))).toEqual([]);
});

async function followedConnection(page: Page, texts: Texts) {
  await page.goto(SUPPLIER_URL);
  await page.locator("#supplier-overview").getByRole("button", { name: texts.card.addSupplier }).click();
  await expect(page.locator("#supplier-overview").getByText(texts.card.activeSupplier)).toBeVisible();
  await page.goto(`${SUPPLIER_URL}&edit=connection`);
  const panel = page.getByRole("dialog", { name: texts.edit.title });
  await expect(panel).toBeVisible();
  return panel;
}

function stored(organizationId: number) {
  const [row] = queryDb<{ contact_email: string | null; is_priority: number }>(
    "select contact_email, is_priority from organization_connections where parent_organization_id = ? and is_deleted = 0",
    organizationId,
  );
  return row;
}

for (const [language, texts] of [
  ["en", en],
  ["no", no],
] as const) {
  test(`an invalid contact email is refused where it was typed and kept, nothing saved (${language})`, async ({ page, context }, testInfo) => {
    test.setTimeout(60_000);
    const user = await createUser({ language });
    await signIn(context, user);
    const panel = await followedConnection(page, texts);

    // "contact@supplier" passes the browser's email check; the server's schema wants a domain with a dot.
    await panel.getByLabel(texts.edit.prioritySupplier).check();
    const email = panel.getByPlaceholder(texts.edit.contactEmailPlaceholder);
    await email.fill("contact@supplier");
    await panel.getByRole("button", { name: texts.edit.save }).click();

    const alert = panel.getByRole("alert").filter({ hasText: texts.errors.emailInvalid });
    await expect(alert).toBeVisible();
    await expect(alert).toHaveText(texts.errors.emailInvalid);
    // Tied to the control it is about, and what the user entered is still there.
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAttribute("aria-describedby", (await alert.getAttribute("id"))!);
    await expect(email).toHaveValue("contact@supplier");
    await expect(panel.getByLabel(texts.edit.prioritySupplier)).toBeChecked();
    await expect(panel.getByText(texts.edit.saved)).toHaveCount(0);
    fs.mkdirSync(".cache/screenshots", { recursive: true });
    await page.screenshot({ path: `.cache/screenshots/connection-refused-${language}-${testInfo.project.name}.png` });
    expect(stored(user.organizationId)).toEqual({ contact_email: null, is_priority: 0 });

    // Corrected, the same form saves and the message goes.
    await email.fill("contact@supplier.example");
    await panel.getByRole("button", { name: texts.edit.save }).click();
    await expect(panel.getByText(texts.edit.saved)).toBeVisible();
    await expect(panel.getByRole("alert")).toHaveCount(0);
    expect(stored(user.organizationId)).toEqual({ contact_email: "contact@supplier.example", is_priority: 1 });
  });
}

test("a blank comment is refused under the comment box, and nothing is saved", async ({ page, context }) => {
  const user = await createUser();
  await signIn(context, user);
  const panel = await followedConnection(page, en);
  const box = panel.getByLabel(en.edit.addComment);
  // Spaces pass the browser's `required`; the server trims them away.
  await box.fill("   ");
  await panel.getByRole("button", { name: en.edit.addComment }).click();
  const alert = panel.getByRole("alert").filter({ hasText: en.errors.commentRequired });
  await expect(alert).toBeVisible();
  await expect(box).toHaveAttribute("aria-describedby", (await alert.getAttribute("id"))!);
  await expect(panel.getByText(en.edit.noComments)).toBeVisible();
  const [{ count }] = queryDb<{ count: number }>(
    "select count(*) as count from organization_connection_comments cc join organization_connections c on c.id = cc.connection_id where c.parent_organization_id = ?",
    user.organizationId,
  );
  expect(count).toBe(0);
});

test("with JavaScript, Escape closes the innermost layer first: the confirmation, then Manage Tags, then the slide-over", async ({
  page,
  context,
}, testInfo) => {
  test.skip(testInfo.project.name !== "js-on", "keyboard behaviour of the enhanced dialogs");
  const user = await createUser();
  await signIn(context, user);
  const panel = await followedConnection(page, en);
  await panel.getByLabel(en.edit.addComment).fill("To be kept.");
  await panel.getByRole("button", { name: en.edit.addComment }).click();
  await expect(panel.getByText("To be kept.")).toBeVisible();

  await panel.getByRole("link", { name: en.edit.deleteComment, exact: true }).first().click();
  const step = page.getByRole("alertdialog");
  await expect(step).toContainText(en.confirm.deleteComment);
  // Focus starts on Cancel, so Enter does not delete by accident.
  await expect(step.getByRole("link", { name: en.confirm.cancel })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(step).toHaveCount(0);
  await expect(panel).toBeVisible();
  await expect(panel.getByText("To be kept.")).toBeVisible();

  await panel.getByRole("link", { name: en.edit.manageTags }).click();
  const tags = page.getByRole("dialog", { name: en.tags.title });
  await expect(tags).toBeVisible();
  await expect(tags).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(tags).toHaveCount(0);
  await expect(panel).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(page).not.toHaveURL(/edit=connection/);
});

test("a colleague's comment offers no Delete, and its confirmation step opened by address is refused; the comment stays", async ({ page, context }) => {
  const user = await createUser();
  await signIn(context, user);
  const panel = await followedConnection(page, en);
  // A colleague's comment: another member of the same organisation wrote it.
  const [colleague] = queryDb<{ id: number }>(
    "insert into users (email, password_hash, language, is_admin, organization_id, access_level, created_at) values (?, 'x', 'en', 0, ?, 2, ?) returning id",
    `colleague-${user.id}@e2e.test`,
    user.organizationId,
    new Date().toISOString(),
  );
  const [comment] = queryDb<{ id: number }>(
    "insert into organization_connection_comments (connection_id, user_id, text, created_at) select id, ?, 'By a colleague.', ? from organization_connections where parent_organization_id = ? and is_deleted = 0 returning id",
    colleague.id,
    new Date().toISOString(),
    user.organizationId,
  );
  await page.reload();
  await expect(panel.getByText("By a colleague.")).toBeVisible();
  // Only the author (or an administrator of the installation) is offered Delete.
  const colleagues = panel.getByRole("listitem").filter({ hasText: "By a colleague." });
  await expect(colleagues).toHaveCount(1);
  await expect(colleagues.getByRole("link", { name: en.edit.deleteComment, exact: true })).toHaveCount(0);
  // The step is URL state: opened by its address, the server still refuses, inside the step.
  const url = new URL(page.url());
  url.searchParams.set("confirm", "delete-comment");
  url.searchParams.set("comment", String(comment.id));
  await page.goto(url.pathname + url.search);
  const step = page.getByRole("alertdialog");
  await step.getByRole("button", { name: en.confirm.confirmDelete }).click();
  await expect(step.getByRole("alert")).toHaveText(en.errors.authorOnly);
  await step.getByRole("link", { name: en.confirm.cancel }).click();
  await expect(step).toHaveCount(0);
  await expect(panel.getByText("By a colleague.")).toBeVisible();
});
