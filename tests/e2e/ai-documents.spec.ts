import { expect, test, type Page } from "./test";
import { createUser, expectAccessible, queryDb, signIn } from "./helpers";
import { makePdf } from "../fixtures/documents/make";

/**
 * /ai/documents: upload a PDF, see its text listed and opened, attach it to a question in the chat (the page
 * without JavaScript, the panel with it) and get an answer that names it. Norwegian once, 360 px, axe.
 */

const FACTS = {
  title: "Leverandørvurdering for Hvaler Båtbyggeri AS",
  finding: "The inspection found corroded welding on three hulls.",
};

async function pdf(): Promise<Buffer> {
  return makePdf([FACTS.title, `Page two\n${FACTS.finding}`]);
}

async function noSideScroll(page: Page) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

test("upload a PDF, see its text, ask the assistant about it and get an answer naming it", async ({ page, context, javaScriptEnabled }) => {
  const user = await createUser({ accessLevel: 2 });
  await signIn(context, user);
  await page.goto("/ai/documents");
  await expect(page.getByRole("heading", { level: 1, name: "AI documents" })).toBeVisible();
  await expect(page.getByText("No documents yet. Upload one above.")).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);

  await page.getByLabel("Document (PDF, spreadsheet or text file)").setInputFiles({ name: "inspeksjon.pdf", mimeType: "application/pdf", buffer: await pdf() });
  await page.getByRole("button", { name: "Upload and read" }).click();
  await expect(page).toHaveURL(/\/ai\/documents\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: "inspeksjon.pdf" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Page 1" })).toContainText(FACTS.title);
  await page.getByRole("link", { name: "Next" }).first().click();
  await expect(page.getByRole("region", { name: "Page 2" })).toContainText(FACTS.finding);
  if (javaScriptEnabled) await expectAccessible(page);
  const [{ id }] = queryDb<{ id: number }>("select id from file_uploads where user_id = ?", user.id);

  await page.getByRole("link", { name: "Back to AI documents" }).click();
  const row = page.getByRole("row").filter({ hasText: "inspeksjon.pdf" });
  await expect(row).toContainText("PDF");
  await expect(row).toContainText(/2 pages · \d+ characters/);

  await page.getByRole("link", { name: "Open inspeksjon.pdf" }).click();
  await page.getByRole("link", { name: "Ask the assistant about this document" }).click();
  await expect(page).toHaveURL(`/ai/chat?attach=${id}`);
  await expect(page.getByLabel("Attach a document")).toHaveValue(String(id));
  await page.getByLabel("Your question").fill("What did the inspection find?");
  await page.getByRole("button", { name: "Send" }).click();
  const answer = page.getByTestId("assistant-message").last();
  await expect(answer).toContainText("From «inspeksjon.pdf», page 2:");
  await expect(answer).toContainText(FACTS.finding);
  await expect(page.getByRole("link", { name: "Document: inspeksjon.pdf" })).toHaveAttribute("href", `/ai/documents/${id}`);
  expect(
    queryDb(
      "select m.file_upload_id from conversation_messages m join conversations c on c.id = m.conversation_id where c.user_id = ? and m.is_assistant = 0",
      user.id,
    ),
  ).toEqual([{ file_upload_id: id }]);
  if (javaScriptEnabled) await expectAccessible(page);
});

test("the panel attaches a document as a removable chip and the answer cites it", async ({ page, context, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "the panel is the JavaScript experience; the page's form is tested above");
  const user = await createUser({ accessLevel: 2 });
  await signIn(context, user);
  await page.goto("/ai/documents");
  await page.getByLabel("Document (PDF, spreadsheet or text file)").setInputFiles({ name: "panel.pdf", mimeType: "application/pdf", buffer: await pdf() });
  await page.getByRole("button", { name: "Upload and read" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "panel.pdf" })).toBeVisible();

  await page.getByRole("link", { name: "Open the AI assistant" }).click();
  const chat = page.getByRole("dialog", { name: "AI Assistant" });
  await chat.getByLabel("Attach a document").selectOption({ label: "panel.pdf" });
  const chip = chat.getByTestId("attached-document");
  await expect(chip).toContainText("panel.pdf");
  await chat.getByRole("button", { name: "Remove the attached document panel.pdf" }).click();
  await expect(chip).toHaveCount(0);
  await chat.getByLabel("Attach a document").selectOption({ label: "panel.pdf" });
  if (javaScriptEnabled) await expectAccessible(page);
  await chat.getByLabel("Your question").fill("What did the inspection find?");
  await chat.getByRole("button", { name: "Send" }).click();
  const answer = chat.getByTestId("assistant-message").last();
  await expect(answer).toContainText("From «panel.pdf», page 2:");
  await expect(answer).toContainText(FACTS.finding);
  await expect(chat.getByRole("link", { name: "Document: panel.pdf" })).toBeVisible();
  await expect(chip).toHaveCount(0);
});

test("Norwegian, at 360 px: a text document read and answered in Norwegian", async ({ page, context, javaScriptEnabled }) => {
  const user = await createUser({ accessLevel: 2, language: "no" });
  await signIn(context, user);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/ai/documents");
  await expect(page.getByRole("heading", { level: 1, name: "KI-dokumenter" })).toBeVisible();
  await noSideScroll(page);
  await page
    .getByLabel("Dokument (PDF, regneark eller tekstfil)")
    .setInputFiles({ name: "møtenotat.txt", mimeType: "text/plain", buffer: Buffer.from("Møtenotat\nLeveringstiden for Ørland Stål AS er åtte uker.\n") });
  await page.getByRole("button", { name: "Last opp og les" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "møtenotat.txt" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Del 1 av 1" })).toContainText("Leveringstiden for Ørland Stål AS er åtte uker.");
  await noSideScroll(page);
  if (javaScriptEnabled) await expectAccessible(page);
  await page.getByRole("link", { name: "Spør assistenten om dette dokumentet" }).click();
  await page.getByLabel("Spørsmålet ditt").fill("Hva er leveringstiden?");
  await page.getByRole("button", { name: "Send" }).click();
  const answer = page.getByTestId("assistant-message").last();
  await expect(answer).toContainText("Fra «møtenotat.txt»:");
  await expect(answer).toContainText("Leveringstiden for Ørland Stål AS er åtte uker.");
  await noSideScroll(page);
});

test("another user's document is not found", async ({ page, context }) => {
  const owner = await createUser({ accessLevel: 2 });
  await signIn(context, owner);
  await page.goto("/ai/documents");
  await page.getByLabel("Document (PDF, spreadsheet or text file)").setInputFiles({ name: "privat.pdf", mimeType: "application/pdf", buffer: await pdf() });
  await page.getByRole("button", { name: "Upload and read" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "privat.pdf" })).toBeVisible();
  const [{ id }] = queryDb<{ id: number }>("select id from file_uploads where user_id = ?", owner.id);
  await context.clearCookies();
  const other = await createUser({ accessLevel: 2 });
  await signIn(context, other);
  const response = await page.goto(`/ai/documents/${id}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByText(FACTS.title)).toHaveCount(0);
});
