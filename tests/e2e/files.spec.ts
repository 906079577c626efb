import { expect, test, type Page } from "./test";
import { createUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * Uploads the server refuses (/files, shared/spec/02-supplier-credit-connections.md §8): the reason is shown under
 * the file field in the user's language, with JavaScript (through the
 * fetcher) and without (the page comes back with the message), and nothing
 * is stored. The happy paths are in files-casefiles.spec.ts.
 */

/** Console errors other than the browser's own note of the 400/413 answers these tests provoke. */
function unexpectedConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !/status of (400|413)/.test(message.text())) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test("an empty file is refused with 'The file is empty.' in the user's language; a real file then uploads", async ({ page, context, javaScriptEnabled }) => {
  const errors = unexpectedConsoleErrors(page);
  const user = await createUser({ accessLevel: 1, language: "no" });
  await signIn(context, user);
  await page.goto("/files");
  await page.getByLabel("Fil", { exact: true }).setInputFiles({ name: "tom.txt", mimeType: "text/plain", buffer: Buffer.alloc(0) });
  await page.getByRole("button", { name: "Last opp" }).click();
  await expect(page.getByText("Filen er tom.")).toBeVisible();
  await expect(page.getByLabel("Fil", { exact: true })).toHaveAttribute("aria-invalid", "true");
  if (javaScriptEnabled) await expectAccessible(page);
  await page.screenshot({ path: `.cache/screenshots-files/files-empty-${javaScriptEnabled ? "js" : "nojs"}.png`, fullPage: true });
  expect(queryDb("select id from file_uploads where organization_id = ?", user.organizationId)).toEqual([]);

  await page.getByLabel("Fil", { exact: true }).setInputFiles({ name: "avtale.txt", mimeType: "text/plain", buffer: Buffer.from("signert") });
  await page.getByRole("button", { name: "Last opp" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "avtale.txt" })).toBeVisible();
  await expect(page.getByText("Filen er tom.")).toHaveCount(0);
  expect(queryDb("select file_name from file_uploads where organization_id = ?", user.organizationId)).toEqual([{ file_name: "avtale.txt" }]);
  expect(errors).toEqual([]);
});

test("a file above the limit is refused with the limit in the message; nothing is stored", async ({ page, context }) => {
  const errors = unexpectedConsoleErrors(page);
  const user = await createUser({ accessLevel: 2 });
  await signIn(context, user);
  await page.goto("/files");
  await expect(page.getByText("At most 25 MB per file.")).toBeVisible();
  await page
    .getByLabel("File", { exact: true })
    .setInputFiles({ name: "big.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(25 * 1024 * 1024 + 1) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("The file is larger than 25 MB. Upload a file of at most 25 MB.")).toBeVisible();
  expect(queryDb("select id from file_uploads where organization_id = ?", user.organizationId)).toEqual([]);
  expect(errors).toEqual([]);
});
