import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Page } from "./test";
import { createUser, demoUser, expectAccessible, firstSupplier, latestMailTo, queryDb, signIn, type DemoOrg as Org, type TestUser } from "./helpers";
import { E2E_DATA_DIR } from "./env";

/**
 * The customer's side of sent tasks and surveys (decision 034), with and without JavaScript: the list with
 * its overdue filter, one item returned with a comment and another accepted, a reminder, a submitted survey read with
 * its score, and the supplier screen's tasks with due dates and the Remind button — at 360 px and axe-clean.
 */

/** Writes rows of a test's own organisation into the e2e server's database. */
function write<T = { id: number }>(sql: string, ...params: unknown[]): T {
  const db = new Database(path.join(E2E_DATA_DIR, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A task from the user's organisation to the supplier, in the given state. */
function sendTask(user: TestUser, supplier: Org, title: string, opts: { status?: string; due?: string; recipient: string; comment?: string }) {
  const now = new Date().toISOString();
  const submitted = opts.status === "submitted" ? 1 : 0;
  const task = write(
    "insert into compliance_tasks (organization_id, supplier_organization_id, title, is_custom, is_submitted, due_date, created_at, updated_at) values (?, ?, ?, 1, ?, ?, ?, ?) returning id",
    user.organizationId,
    supplier.id,
    title,
    submitted,
    opts.due ?? day(20),
    now,
    now,
  );
  if (submitted)
    write(
      "insert into compliance_task_responses (task_id, comment, created_at, updated_at) values (?, ?, ?, ?) returning id",
      task.id,
      opts.comment ?? "Done.",
      now,
      now,
    );
  const item = write(
    `insert into supplier_tasks (organization_id, supplier_organization_id, kind, compliance_task_id, title, recipient_email, due_date, status, answered_by_name, sent_at, submitted_at, updated_at)
     values (?, ?, 'task', ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
    user.organizationId,
    supplier.id,
    task.id,
    title,
    opts.recipient,
    opts.due ?? day(20),
    opts.status ?? "sent",
    submitted ? "Kari Nordmann" : null,
    now,
    submitted ? now : null,
    now,
  );
  write("insert into supplier_task_events (supplier_task_id, kind, created_at) values (?, 'sent', ?) returning id", item.id, now);
  return item.id;
}

/** A fresh level-2 customer that follows the demo's first supplier and has sent it a few tasks. */
async function setUp(context: Parameters<typeof signIn>[0]) {
  const user = await createUser({ accessLevel: 2 });
  const supplier = firstSupplier();
  const now = new Date().toISOString();
  write(
    "insert into organization_connections (parent_organization_id, child_organization_id, is_deleted, created_at, updated_at) values (?, ?, 0, ?, ?) returning id",
    user.organizationId,
    supplier.id,
    now,
    now,
  );
  const tag = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
  // Each test's own recipient: the outbox is shared by tests running in parallel.
  const recipient = `contact-${tag}@supplier.e2e.test`;
  const items = {
    open: sendTask(user, supplier, `Insurance certificate ${tag}`, { recipient }),
    overdue: sendTask(user, supplier, `Code of conduct ${tag}`, { due: day(-3), recipient }),
    toReturn: sendTask(user, supplier, `Transparency questionnaire ${tag}`, { status: "submitted", comment: "Our answers are in the comment.", recipient }),
    toAccept: sendTask(user, supplier, `Quality certificate ${tag}`, { status: "submitted", recipient }),
  };
  await signIn(context, user);
  return { user, supplier, items, tag, recipient };
}

async function hydrated(page: Page, jsOn: boolean) {
  if (jsOn) await page.waitForFunction(() => document.documentElement.dataset.js !== undefined);
}

test("the list shows what was sent, filters overdue, and an item is returned with a comment and another accepted", async ({ page, context }, testInfo) => {
  const jsOn = testInfo.project.name === "js-on";
  const { supplier, items, tag, recipient } = await setUp(context);
  await page.goto("/supplier_tasks");
  await expect(page.getByRole("heading", { level: 1, name: "Sent tasks and surveys" })).toBeVisible();
  const table = page.getByRole("table", { name: "Sent tasks and surveys" });
  await expect(table.getByRole("row")).toHaveCount(5);
  const overdueRow = table.getByRole("row", { name: new RegExp(`Code of conduct ${tag}`) });
  await expect(overdueRow).toContainText("Overdue");
  await expect(overdueRow.getByRole("link", { name: supplier.name })).toHaveAttribute("href", new RegExp(`externalId=${supplier.org_number}`));
  if (jsOn) await expectAccessible(page);

  // Filter: overdue only.
  await hydrated(page, jsOn);
  await page.getByLabel("Status").selectOption("overdue");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=overdue/);
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText(`Code of conduct ${tag}`);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", /^\/supplier_tasks\.csv\?status=overdue(&|$)/);

  // Open a submitted one and return it; an empty comment is refused first.
  await page.goto(`/supplier_tasks/${items.toReturn}`);
  await hydrated(page, jsOn);
  await expect(page.getByRole("heading", { level: 1, name: `Transparency questionnaire ${tag}` })).toBeVisible();
  await expect(page.getByText("Our answers are in the comment.")).toBeVisible();
  await expect(page.getByText("Kari Nordmann")).toBeVisible();
  if (jsOn) await expectAccessible(page);
  const comment = page.getByLabel("Comment for the supplier");
  await comment.fill("   ");
  await comment.evaluate((el) => el.removeAttribute("required"));
  await page.getByRole("button", { name: "Return to the supplier" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Write a comment that tells the supplier what to change." })).toBeVisible();
  await comment.fill("Please attach the signed copy.");
  await page.getByRole("button", { name: "Return to the supplier" }).click();
  await expect(page.getByText("Returned", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Return to the supplier" })).toHaveCount(0);
  await expect(page.getByText("Please attach the signed copy.").first()).toBeVisible();
  expect(latestMailTo(recipient)).toContain("Please attach the signed copy.");
  expect(queryDb<{ status: string }>("select status from supplier_tasks where id = ?", items.toReturn)[0].status).toBe("returned");

  // Accept another.
  await page.goto(`/supplier_tasks/${items.toAccept}`);
  await hydrated(page, jsOn);
  await page.getByRole("button", { name: "Accept" }).click();
  await expect(page.getByRole("button", { name: "Accept" })).toHaveCount(0);
  await expect(page.getByText("Nothing more to do: the item is accepted.")).toBeVisible();
  expect(queryDb<{ status: string }>("select status from supplier_tasks where id = ?", items.toAccept)[0].status).toBe("accepted");
});

test("remind now mails the recipient; cancel asks first and then closes the item", async ({ page, context }, testInfo) => {
  const jsOn = testInfo.project.name === "js-on";
  const { items, recipient } = await setUp(context);
  await page.goto(`/supplier_tasks/${items.open}`);
  await hydrated(page, jsOn);
  const before = queryDb<{ n: number }>("select count(*) as n from supplier_task_events where supplier_task_id = ? and kind = 'reminded'", items.open)[0].n;
  await page.getByRole("button", { name: "Remind now" }).click();
  await expect
    .poll(() => queryDb<{ n: number }>("select count(*) as n from supplier_task_events where supplier_task_id = ? and kind = 'reminded'", items.open)[0].n)
    .toBe(before + 1);
  await expect(page.getByText("Reminder sent").first()).toBeVisible();
  expect(latestMailTo(recipient)).toMatch(/Reminder/);

  await page.getByRole("link", { name: "Cancel the request" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Cancel this request?" });
  await expect(dialog).toBeVisible();
  if (jsOn) await expectAccessible(page);
  await dialog.getByRole("button", { name: "Cancel the request" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Cancelled", { exact: true }).first()).toBeVisible();
  expect(queryDb<{ status: string }>("select status from supplier_tasks where id = ?", items.open)[0].status).toBe("cancelled");
});

test("a submitted survey is read with its score, from the list", async ({ page, context }, testInfo) => {
  const jsOn = testInfo.project.name === "js-on";
  const analyst = demoUser("analyst@demo.test");
  const [survey] = queryDb<{ id: number; response_id: number; score: number | null; title: string }>(
    `select st.id, st.survey_response_id as response_id, r.score, st.title from supplier_tasks st join survey_responses r on r.id = st.survey_response_id
     where st.organization_id = ? and st.status = 'submitted' and r.score is not null order by st.id limit 1`,
    analyst.organizationId,
  );
  if (!survey) throw new Error("the demo world has no submitted scored survey");
  await signIn(context, analyst);
  await page.goto("/supplier_tasks?kind=survey&status=submitted");
  // Several suppliers answered the same survey: open this one by its address.
  await page.locator(`a[href="/supplier_tasks/${survey.id}"]`).click();
  await expect(page.getByRole("heading", { level: 1, name: survey.title })).toBeVisible();
  await expect(page.getByText(`${survey.score} / 100`)).toBeVisible();
  await hydrated(page, jsOn);
  await page.getByRole("link", { name: "Read the response" }).click();
  await expect(page).toHaveURL(new RegExp(`/tasks/surveys/${survey.response_id}/read$`));
  await expect(page.getByTestId("survey-score")).toHaveText(`${survey.score} / 100`);
  await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Print" })).toHaveCount(jsOn ? 1 : 0);
  if (jsOn) await expectAccessible(page);
  // On paper the shell is gone.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation").first()).toBeHidden();
});

test("the supplier screen shows due dates and overdue, and a task not yet submitted opens with a Remind button", async ({ page, context }, testInfo) => {
  const jsOn = testInfo.project.name === "js-on";
  const { supplier, items, tag, recipient } = await setUp(context);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/supplier?externalId=${supplier.org_number}`);
  const section = page.getByRole("region", { name: "Tasks", exact: true });
  const overdue = section.getByRole("listitem").filter({ hasText: `Code of conduct ${tag}` });
  await expect(overdue).toContainText("Due");
  await expect(overdue).toContainText("Overdue");
  await hydrated(page, jsOn);
  await overdue.getByRole("link", { name: `Code of conduct ${tag}` }).click();
  const dialog = page.getByRole("dialog", { name: `Code of conduct ${tag}` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Overdue");
  await expect(dialog).toContainText(recipient);
  if (jsOn) await expectAccessible(page);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(360);
  await dialog.getByRole("button", { name: "Remind" }).click();
  await expect
    .poll(() => queryDb<{ n: number }>("select count(*) as n from supplier_task_events where supplier_task_id = ? and kind = 'reminded'", items.overdue)[0].n)
    .toBe(1);
  await expect(page.getByText("Reminder sent.").first()).toBeVisible();
  await expect(page).toHaveURL(/\/supplier\?/);
});

test("the supplier's own user reads its submitted response, and not another supplier's", async ({ page, context }, testInfo) => {
  const jsOn = testInfo.project.name === "js-on";
  const respondent = demoUser("supplier@demo.test");
  const [own] = queryDb<{ id: number; score: number | null }>(
    "select id, score from survey_responses where supplier_organization_id = ? and status = 'submitted' order by id limit 1",
    respondent.organizationId,
  );
  const [other] = queryDb<{ id: number }>(
    "select id from survey_responses where supplier_organization_id != ? and status = 'submitted' order by id limit 1",
    respondent.organizationId,
  );
  await signIn(context, respondent);
  await page.goto(`/tasks/surveys/${own.id}/read`);
  await expect(page.getByText("Survey response", { exact: true })).toBeVisible();
  await expect(page.getByTestId("survey-score")).toHaveText(own.score === null ? "Not scored" : `${own.score} / 100`);
  // The customer's item page is not the supplier's: no link back to it.
  await expect(page.getByRole("link", { name: "Back to the item" })).toHaveCount(0);
  if (jsOn) await expectAccessible(page);
  const refused = await page.goto(`/tasks/surveys/${other.id}/read`);
  expect(refused?.status()).toBe(404);
});
