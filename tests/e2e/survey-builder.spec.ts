import { expect, test } from "./test";
import { createUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * The survey builder (decision 032), with JavaScript and without: the organisation's administrator creates a
 * survey template, adds a question of every type, gives the evidence question a condition on a yes/no question, sees
 * a refused change with its message and what they typed, and reads the preview in both languages.
 */

const TYPES = ["Short text", "Long text", "Yes or no", "One choice", "Several choices", "Number", "Date", "File upload (evidence)"];

test("create a survey with every question type and a condition, and see the preview", async ({ page, context, javaScriptEnabled }) => {
  // Every question type built through the forms, a condition, the preview and axe: a long flow, given the time of three.
  test.slow();
  const admin = await createUser({ accessLevel: 3 });
  await signIn(context, admin);
  await page.goto("/admin/surveys/surveys");
  await expect(page.getByRole("heading", { name: "Survey templates", level: 1 })).toBeVisible();
  // The starter templates are there in every installation.
  await expect(page.getByRole("link", { name: "Supplier code of conduct and human rights self-assessment" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Information security for suppliers" })).toBeVisible();

  await page.getByLabel("Title (English)").fill("E2E supplier check");
  await page.getByLabel("Title (Norwegian)").fill("E2E leverandørsjekk");
  await page.getByRole("button", { name: "Create and open the builder" }).click();
  await expect(page.getByRole("heading", { name: "E2E supplier check", level: 1 })).toBeVisible();
  await expect(page.getByText("Version 1 · 0 responses")).toBeVisible();

  for (const type of TYPES) {
    await page.getByLabel("Type of the new question").selectOption({ label: type });
    await page.getByRole("button", { name: "Add a question to New section" }).click();
    await expect(
      page
        .locator("article")
        .filter({ has: page.getByText(type, { exact: true }) })
        .first(),
    ).toBeVisible();
  }
  await expect(page.locator("#sections article")).toHaveCount(1 + TYPES.length);

  // The yes/no question (q4) gets its text; the evidence question (q9) is shown only when it is answered yes.
  const yesNo = page.locator("#q-q4");
  await yesNo.getByLabel("Question (English)").fill("Do you have a human rights policy?");
  await yesNo.getByLabel("Question (Norwegian)").fill("Har dere retningslinjer for menneskerettigheter?");
  await yesNo.getByRole("button", { name: /^Save the question/ }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  const file = page.locator("#q-q9");
  await file.getByLabel("Question (English)").fill("Upload the policy");
  await file.getByLabel("Show this question").selectOption({ label: "Only when “Do you have a human rights policy?” is answered “Yes”" });
  await file.getByLabel("Ask for the evidence's expiry date").check();
  await file.getByRole("button", { name: /^Save the question/ }).click();
  await expect(page.locator("#q-q9").getByLabel("Show this question")).toHaveValue("q4=yes");

  // A choice question left with one option is refused next to the options, and what was typed stays.
  const choice = page.locator("#q-q5");
  await choice.getByLabel("Question (English)").fill("Which certificate?");
  await choice.getByLabel("Option 2 (English)").fill("");
  await choice.getByLabel("Option 2 (Norwegian)").fill("");
  await choice.getByRole("button", { name: /^Save the question/ }).click();
  await expect(page.locator("#q-q5").getByText("A choice question needs at least two options.")).toBeVisible();
  await expect(page.locator("#q-q5").getByLabel("Question (English)")).toHaveValue("Which certificate?");

  // The preview, in both languages, says when the evidence question shows.
  const preview = page.locator("#preview");
  await expect(preview.getByText("Shown when “Do you have a human rights policy?” is answered “Yes”.")).toBeVisible();
  await expect(preview.getByText("Vises når «Har dere retningslinjer for menneskerettigheter?» er besvart «Ja».")).toBeVisible();
  await expect(preview.getByRole("heading", { name: "E2E leverandørsjekk" })).toBeVisible();

  // Deleting asks first; the question a condition refers to cannot go (the reason is shown in the step); the date question can.
  await page.locator("#q-q4").getByRole("link", { name: "Delete the question Do you have a human rights policy?" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Please confirm" });
  await expect(dialog.getByText("Are you sure you want to delete this question?")).toBeVisible();
  if (javaScriptEnabled) await expectAccessible(page);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(dialog.getByText(/The condition must refer to a question earlier in the survey/)).toBeVisible();
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await page
    .locator("#q-q8")
    .getByRole("link", { name: /^Delete the question/ })
    .click();
  await page.getByRole("alertdialog", { name: "Please confirm" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.locator("#q-q8")).toHaveCount(0);
  await expect(page.getByRole("alertdialog")).toHaveCount(0);

  const [row] = queryDb<{ definition: string; version: number }>(
    "select v.definition, v.version from survey_template_versions v join survey_templates t on t.id = v.template_id where t.organization_id = ? and t.title = ?",
    admin.organizationId,
    "E2E supplier check",
  );
  const definition = JSON.parse(row.definition) as { sections: { questions: { id: string; type: string; showIf?: unknown; askExpiry?: boolean }[] }[] };
  const questions = definition.sections[0].questions;
  expect(questions.map((q) => q.type)).toEqual(["short_text", "short_text", "long_text", "yes_no", "single_choice", "multiple_choice", "number", "file"]);
  expect(questions[7]).toMatchObject({ showIf: { question: "q4", equals: "yes" }, askExpiry: true });
  expect(row.version).toBe(1);

  if (javaScriptEnabled) await expectAccessible(page);
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (javaScriptEnabled) await expectAccessible(page);
});

test("level 2 is refused, and the builder is in Norwegian for a Norwegian user", async ({ page, context }) => {
  const analyst = await createUser({ accessLevel: 2 });
  await signIn(context, analyst);
  const refused = await page.goto("/admin/surveys/surveys");
  expect(refused?.status()).toBe(403);
  await context.clearCookies();
  const admin = await createUser({ accessLevel: 3, language: "no" });
  await signIn(context, admin);
  await page.goto("/admin/surveys/surveys");
  await expect(page.getByRole("heading", { name: "Maler for undersøkelser", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Egenvurdering av etiske retningslinjer og menneskerettigheter for leverandører" }).click();
  await expect(page.getByText("Dette er en mal som er felles for alle")).toBeVisible();
  await expect(page.locator("#preview").getByText("Vises når «Har dere skriftlige retningslinjer").first()).toBeVisible();
});
