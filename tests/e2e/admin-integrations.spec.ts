import { expect, test } from "./test";
import { createUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * /admin/integrations (decision 043), with JavaScript and without: the installation's administrator, in
 * Norwegian, opens the list, goes to the registry, is refused a malformed organisation number, then tests the local
 * registry with a number from the store and sees the result and its duration; the pages fit 360 px and pass axe. A
 * level-3 member who is not the operator gets 403.
 */

test("as the operator, test the local registry connection in Norwegian", async ({ page, context, javaScriptEnabled }) => {
  const operator = await createUser({ accessLevel: 3, isAdmin: true, language: "no" });
  await signIn(context, operator);
  const [known] = queryDb<{ org_number: string; legal_name: string }>(
    "select org_number, legal_name from companies where length(org_number) = 9 order by id limit 1",
  );

  await page.goto("/admin/integrations");
  await expect(page.getByRole("heading", { name: "Integrasjoner", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Foretaksregister" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Kredittrapporter" })).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);

  await page.getByRole("link", { name: "Foretaksregister", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Foretaksregister", level: 1 })).toBeVisible();
  await page.getByLabel("Organisasjonsnummer (valgfritt)").fill("12345");
  await page.getByRole("button", { name: "Test tilkobling" }).click();
  await expect(page.getByText("Et organisasjonsnummer har ni sifre.")).toBeVisible();

  await page.getByLabel("Organisasjonsnummer (valgfritt)").fill(known.org_number);
  await page.getByRole("button", { name: "Test tilkobling" }).click();
  await expect(page.getByText("Testen var vellykket.")).toBeVisible();
  const result = page.getByTestId("test-result");
  await expect(result).toContainText("Vellykket");
  await expect(result).toContainText(`${known.org_number}: ${known.legal_name}`);
  await expect(result).toContainText(/\d+ ms/);
  if (javaScriptEnabled) await expectAccessible(page);

  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.goto("/admin/integrations/llm");
  await expect(page.getByRole("heading", { name: "Assistent (språkmodell)", level: 1 })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (javaScriptEnabled) await expectAccessible(page);
  await page.goto("/admin/integrations");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("an organisation's administrator who is not the operator is refused", async ({ page, context }) => {
  const member = await createUser({ accessLevel: 3 });
  await signIn(context, member);
  expect((await page.goto("/admin/integrations"))?.status()).toBe(403);
  expect((await page.goto("/admin/integrations/registry"))?.status()).toBe(403);
});
