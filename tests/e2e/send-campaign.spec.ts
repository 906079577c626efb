import { expect, test } from "./test";
import { createUser, expectAccessible, queryDb, signIn, type TestUser } from "./helpers";

/**
 * Sending a survey to the suppliers of a tag, with and without JavaScript: /suppliers filtered by the tag →
 * "Send … to all 3 suppliers in this filter" → the send page (who gets it, one flagged without contact e-mail) → a
 * refused send keeps what was typed → Send → the campaign page: Sending…, then the summary with the skipped supplier
 * and a link to send again. Also the one-supplier link on the supplier screen, the reminder settings, 360 px and axe.
 */

interface World {
  user: TestUser;
  tag: string;
  suppliers: Array<{ id: number; name: string; org_number: string }>;
  survey: { id: number; title: string };
}

/** A fresh customer organisation following three demo suppliers, two with a contact e-mail, all three with a fresh tag. */
async function world(): Promise<World> {
  const user = await createUser({ accessLevel: 2 });
  const now = new Date().toISOString();
  const suppliers = queryDb<{ id: number; name: string; org_number: string }>(
    "select id, name, org_number from organizations where kind = 'supplier' and org_number is not null order by id limit 3",
  );
  const tag = `Survey wave ${user.organizationId}`;
  const [{ id: tagId }] = queryDb<{ id: number }>(
    "insert into organization_tags (organization_id, title, created_at) values (?, ?, ?) returning id",
    user.organizationId,
    tag,
    now,
  );
  for (const [i, s] of suppliers.entries()) {
    const [{ id }] = queryDb<{ id: number }>(
      "insert into organization_connections (parent_organization_id, child_organization_id, is_deleted, contact_email, created_at, updated_at) values (?, ?, 0, ?, ?, ?) returning id",
      user.organizationId,
      s.id,
      i < 2 ? `contact${i}-${user.organizationId}@supplier.example` : null,
      now,
      now,
    );
    queryDb("insert into organization_connection_tags (connection_id, tag_id, created_at) values (?, ?, ?) returning connection_id", id, tagId, now);
  }
  // The organisation's own survey: a copy of a seeded survey's questions.
  const [source] = queryDb<{ definition: string }>("select definition from survey_template_versions order by id limit 1");
  const [survey] = queryDb<{ id: number; title: string }>(
    "insert into survey_templates (organization_id, title, created_at) values (?, ?, ?) returning id, title",
    user.organizationId,
    "Supplier self-assessment 2026",
    now,
  );
  queryDb(
    "insert into survey_template_versions (template_id, version, definition, created_at) values (?, 1, ?, ?) returning id",
    survey.id,
    source.definition,
    now,
  );
  return { user, tag, suppliers: suppliers.sort((a, b) => a.name.localeCompare(b.name, "nb")), survey };
}

test("a customer sends a survey to the three suppliers of a tag and reads the summary", async ({ page, context }, testInfo) => {
  const js = testInfo.project.name === "js-on";
  const w = await world();
  await signIn(context, w.user);

  await page.goto("/suppliers");
  await page.getByLabel("Tag", { exact: true }).selectOption({ label: w.tag });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("3 suppliers match")).toBeVisible();
  await page.getByRole("link", { name: "Send task or survey to all 3 suppliers in this filter" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Send a task or survey" })).toBeVisible();
  const recipients = page.getByRole("list", { name: "Suppliers and the address each one is sent to" });
  await expect(recipients.getByRole("listitem")).toHaveCount(3);
  await expect(page.getByText("1 has no contact e-mail")).toBeVisible();
  const noMail = w.suppliers.find(
    (s) =>
      !queryDb<{ c: string | null }>(
        "select contact_email as c from organization_connections where parent_organization_id = ? and child_organization_id = ?",
        w.user.organizationId,
        s.id,
      )[0].c,
  )!;
  await expect(recipients.getByRole("listitem").filter({ hasText: noMail.name }).getByText("No contact e-mail")).toBeVisible();
  if (js) await expectAccessible(page);

  // Refused: no template chosen; the message and the typed address stay.
  await page.getByLabel("Message to the suppliers (optional)").fill("Please answer by the end of the month.");
  await page.getByRole("button", { name: "Send to 3 suppliers" }).click();
  await expect(page.getByText("Choose a task or survey template.")).toBeVisible();
  await expect(page.getByLabel("Message to the suppliers (optional)")).toHaveValue("Please answer by the end of the month.");
  await expect(recipients.getByRole("listitem")).toHaveCount(3);

  await page.getByLabel("Task or survey template").selectOption({ value: `survey:${w.survey.id}` });
  await page.getByRole("button", { name: "Send to 3 suppliers" }).click();

  await expect(page).toHaveURL(/\/supplier_tasks\/campaigns\/\d+$/);
  // Sending… then the summary (polling with JavaScript, a refresh without).
  await expect(page.getByText("Sent to 2, skipped 1.")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Sent to 2 suppliers" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "1 supplier was skipped" })).toBeVisible();
  await expect(page.getByRole("link", { name: `Add a contact e-mail for ${noMail.name}` })).toBeVisible();
  if (js) await expectAccessible(page);

  const campaignId = Number(/(\d+)$/.exec(new URL(page.url()).pathname)![1]);
  const items = queryDb<{ supplier_organization_id: number; recipient_email: string; message: string }>(
    "select supplier_organization_id, recipient_email, message from supplier_tasks where campaign_id = ? order by id",
    campaignId,
  );
  expect(items).toHaveLength(2);
  expect(items.every((i) => i.message === "Please answer by the end of the month.")).toBe(true);
  expect(items.map((i) => i.supplier_organization_id)).not.toContain(noMail.id);

  // Send again to the skipped one: the send page with it alone and the same survey chosen.
  await page.getByRole("link", { name: "Send again to the skipped supplier" }).click();
  await expect(page.getByRole("list", { name: "Suppliers and the address each one is sent to" }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByLabel("Task or survey template")).toHaveValue(`survey:${w.survey.id}`);
  await page.getByLabel(noMail.name).fill(`answers@${noMail.id}.example`);
  await page.getByRole("button", { name: "Send to 1 supplier" }).click();
  await expect(page.getByText("Sent to 1, skipped 0.")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(`answers@${noMail.id}.example`)).toBeVisible();
});

test("chosen rows, the supplier screen's link, and the reminder settings; usable at 360 px", async ({ page, context }, testInfo) => {
  const js = testInfo.project.name === "js-on";
  const w = await world();
  await signIn(context, w.user);
  await page.setViewportSize({ width: 360, height: 740 });

  await page.goto("/suppliers");
  await page.getByRole("checkbox", { name: `Choose ${w.suppliers[0].name}` }).check();
  await page.getByRole("checkbox", { name: `Choose ${w.suppliers[1].name}` }).check();
  await page.getByRole("button", { name: "Send task or survey to chosen suppliers" }).click();
  await expect(page.getByRole("list", { name: "Suppliers and the address each one is sent to" }).getByRole("listitem")).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (js) await expectAccessible(page);

  await page.goto(`/supplier?externalId=${w.suppliers[2].org_number}&localId=${w.suppliers[2].id}`);
  await page.locator("#tasks").getByRole("link", { name: "Send task or survey" }).click();
  await expect(page).toHaveURL(new RegExp(`/supplier_tasks/send\\?supplier=${w.suppliers[2].id}$`));
  await expect(page.getByRole("list", { name: "Suppliers and the address each one is sent to" }).getByRole("listitem")).toHaveText([
    new RegExp(w.suppliers[2].name),
  ]);

  await page.goto("/supplier_tasks/reminders");
  await expect(page.getByRole("heading", { level: 1, name: "Reminders" })).toBeVisible();
  await page.getByLabel("Days before the due date").fill("7, 99");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Each day must be from 0 to 60.")).toBeVisible();
  await expect(page.getByLabel("Days before the due date")).toHaveValue("7, 99");
  await page.getByLabel("Days before the due date").fill("10, 2");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("The reminder settings are saved.")).toBeVisible();
  await expect(page.getByText("Reminders are on. Days before the due date: 10, 2. Days after it: 1.")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (js) await expectAccessible(page);
});
