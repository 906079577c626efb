import fs from "node:fs";
import { expect, test, type Page } from "./test";
import { formatDate, formatThousands } from "../../app/models/shared/format";
import { demoUser, expectAccessible, firstSupplier, queryDb, signIn, type DemoOrg as Org } from "./helpers";

/**
 * The organisation-owned sections of the supplier screen (shared/spec/02-supplier-credit-connections.md "Supplier
 * detail": Tasks, Survey responses, Sub-suppliers, and the Task response
 * modal), with and without JavaScript, on the demo seed's first supplier.
 */

/** The demo supplier that has sub-suppliers but does not share its data. */
function notSharingSupplier(customerId: number): Org {
  const [row] = queryDb<Org>(
    `select o.id, o.org_number, o.name from organizations o
     join organization_connections f on f.child_organization_id = o.id and f.parent_organization_id = ? and f.is_deleted = 0
     where o.data_sharing_enabled = 0
       and exists (select 1 from organization_connections c where c.parent_organization_id = o.id and c.is_deleted = 0)
     order by o.id limit 1`,
    customerId,
  );
  if (!row) throw new Error("no followed supplier with unshared sub-suppliers in the demo world");
  return row;
}

interface TaskRow {
  id: number;
  name: string;
  is_submitted: number;
  updated_at: string;
  response_id: number | null;
  comment: string | null;
  template_title: string | null;
  template_description: string | null;
  template_file_id: number | null;
  template_file_name: string | null;
  template_file_size: number | null;
}

function tasksOf(customerId: number, supplierId: number): TaskRow[] {
  return queryDb<TaskRow>(
    `select t.id, coalesce(tpl.title, t.title) as name, t.is_submitted, t.updated_at, r.id as response_id, r.comment,
            tpl.title as template_title, tpl.description as template_description,
            f.id as template_file_id, f.file_name as template_file_name, f.file_size as template_file_size
     from compliance_tasks t
     left join compliance_task_templates tpl on tpl.id = t.template_id
     left join file_uploads f on f.id = tpl.template_file_id
     left join compliance_task_responses r on r.task_id = t.id and t.is_submitted = 1
     where t.organization_id = ? and t.supplier_organization_id = ?
     order by t.updated_at desc, t.id desc`,
    customerId,
    supplierId,
  );
}

interface FileRow {
  id: number;
  file_name: string;
  file_size: number;
}

function responseFiles(responseId: number): FileRow[] {
  return queryDb<FileRow>(
    `select f.id, f.file_name, f.file_size from compliance_task_response_files rf join file_uploads f on f.id = rf.file_upload_id
     where rf.response_id = ? order by f.id`,
    responseId,
  );
}

/** The submitted task with the most response files, and a template file: the richest dialog. */
function richestSubmittedTask(customerId: number, supplierId: number): TaskRow & { files: FileRow[] } {
  const submitted = tasksOf(customerId, supplierId)
    .filter((t) => t.response_id != null && t.template_file_id != null)
    .map((t) => ({ ...t, files: responseFiles(t.response_id!) }))
    .sort((a, b) => b.files.length - a.files.length);
  if (!submitted[0] || submitted[0].files.length === 0) throw new Error("the first supplier has no submitted task with files and a template file");
  return submitted[0];
}

/** With JavaScript, waits until the page is hydrated (the page marks <html data-js>), so clicks reach the enhanced handlers. */
async function hydrated(page: Page, jsOn: boolean) {
  if (jsOn) await page.waitForFunction(() => document.documentElement.dataset.js !== undefined);
}

const supplierUrl = (orgNumber: string, extra = "") => `/supplier?externalId=${orgNumber}${extra}`;
const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const bytes = (n: number) => `${formatThousands(n, "en")} ${n === 1 ? "byte" : "bytes"}`;

test.describe("as an analyst of the customer that follows the supplier", () => {
  test.beforeEach(async ({ context }) => {
    await signIn(context, demoUser("analyst@demo.test"));
  });

  test("tasks show a submitted or not-submitted indicator; submitted ones open their response, the others their state", async ({ page }) => {
    const supplier = firstSupplier();
    const tasks = tasksOf(demoUser("analyst@demo.test").organizationId, supplier.id);
    expect(tasks.some((t) => t.is_submitted === 1)).toBe(true);
    expect(tasks.some((t) => t.is_submitted === 0)).toBe(true);

    await page.goto(supplierUrl(supplier.org_number));
    const section = region(page, "Tasks");
    const items = section.getByRole("listitem");
    await expect(items).toHaveCount(tasks.length);
    for (const [i, task] of tasks.entries()) {
      const item = items.nth(i);
      await expect(item).toContainText(task.name);
      await expect(item).toContainText(formatDate(task.updated_at));
      if (task.is_submitted) {
        await expect(item.getByText("Submitted", { exact: true })).toHaveCount(1);
        await expect(item.locator('svg[data-indicator="submitted"]')).toBeVisible();
        await expect(item.getByRole("link", { name: task.name })).toHaveAttribute("href", new RegExp(`[?&]task=${task.response_id}(&|$)`));
      } else {
        await expect(item.getByText("Not submitted", { exact: true })).toHaveCount(1);
        await expect(item.locator('svg[data-indicator="not-submitted"]')).toBeVisible();
        // One not yet submitted opens its state, not a response.
        await expect(item.getByRole("link", { name: task.name })).toHaveAttribute("href", /[?&]item=\d+(&|$)/);
      }
    }
  });

  test("a submitted task opens its response with comment, template and files; files download; the dialog closes", async ({ page }, testInfo) => {
    const jsOn = testInfo.project.name === "js-on";
    const supplier = firstSupplier();
    const task = richestSubmittedTask(demoUser("analyst@demo.test").organizationId, supplier.id);

    await page.goto(supplierUrl(supplier.org_number));
    await hydrated(page, jsOn);
    const link = region(page, "Tasks").getByRole("link", { name: task.name });
    await link.click();
    await expect(page).toHaveURL(new RegExp(`[?&]task=${task.response_id}(&|$)`));

    const dialog = page.getByRole("dialog", { name: task.name });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAttribute("aria-modal", "true");
    await expect(dialog.getByText(task.comment!, { exact: true })).toBeVisible();
    await expect(dialog.getByText(supplier.name, { exact: true })).toBeVisible();
    await expect(dialog.getByText(formatDate(task.updated_at), { exact: true })).toBeVisible();
    const template = dialog.getByRole("region", { name: "Task template" });
    await expect(template.getByText(task.template_title!, { exact: true })).toBeVisible();
    await expect(template.getByText(task.template_description!, { exact: true })).toBeVisible();
    await expect(template.getByRole("listitem")).toHaveCount(1);
    await expect(template.getByRole("listitem")).toContainText(task.template_file_name!);
    await expect(template.getByRole("listitem")).toContainText(bytes(task.template_file_size!));
    const files = dialog.getByRole("region", { name: "Files from the supplier" });
    await expect(files.getByRole("listitem")).toHaveCount(task.files.length);
    for (const [i, file] of task.files.entries()) {
      await expect(files.getByRole("listitem").nth(i)).toContainText(file.file_name);
      await expect(files.getByRole("listitem").nth(i)).toContainText(bytes(file.file_size));
    }

    // The downloads: a response file and the template file.
    const targets = [
      { region: files, file: task.files[0] },
      { region: template, file: { id: task.template_file_id!, file_name: task.template_file_name!, file_size: task.template_file_size! } },
    ];
    for (const { region: where, file } of targets) {
      const download = where.getByRole("link", { name: `Download ${file.file_name}` });
      await expect(download).toHaveAttribute("href", `/api/tasks/files/${file.id}/download`);
      if (jsOn) {
        const [event] = await Promise.all([page.waitForEvent("download"), download.click()]);
        expect(event.suggestedFilename()).toBe(file.file_name);
        const saved = await event.path();
        const size = fs.statSync(saved).size;
        expect(size).toBeGreaterThan(0);
        expect(size).toBe(file.file_size);
      } else {
        const res = await page.request.get((await download.getAttribute("href"))!);
        expect(res.status()).toBe(200);
        // The name a browser saves it under.
        expect(res.headers()["content-disposition"]).toContain(`attachment; filename="${file.file_name}"`);
        const body = await res.body();
        expect(body.length).toBeGreaterThan(0);
        expect(body.length).toBe(file.file_size);
      }
    }
    await expect(dialog.getByRole("alert")).toHaveCount(0);

    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).not.toHaveURL(/[?&]task=/);
    await expect(region(page, "Tasks").getByRole("link", { name: task.name })).toBeVisible();
  });

  test("with JavaScript: focus moves into the dialog, Escape closes it and focus returns to the task", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== "js-on", "keyboard behaviour of the enhanced dialog");
    const supplier = firstSupplier();
    const task = richestSubmittedTask(demoUser("analyst@demo.test").organizationId, supplier.id);
    await page.goto(supplierUrl(supplier.org_number));
    await hydrated(page, true);
    const link = region(page, "Tasks").getByRole("link", { name: task.name });
    await link.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: task.name });
    await expect(dialog.getByText(task.comment!, { exact: true })).toBeVisible();
    await expect(dialog).toBeFocused();
    // The page behind is out of reach while the dialog is open.
    await expect(page.locator("#tasks")).toBeVisible();
    expect(await page.locator("#tasks").evaluate((el) => el.closest("[inert]") !== null)).toBe(true);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null)).toBe(true);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).not.toHaveURL(/[?&]task=/);
    await expect(link).toBeFocused();
  });

  test("with JavaScript: a failed download shows the spec's message for the template and for a supplier file", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== "js-on", "the download is fetched first only with JavaScript");
    const supplier = firstSupplier();
    const task = richestSubmittedTask(demoUser("analyst@demo.test").organizationId, supplier.id);
    // The file store answering with an error, as when a stored file has gone missing.
    await page.route("**/api/tasks/files/*/download", (route) =>
      route.fulfill({ status: 404, contentType: "application/json", body: '{"error":"No file with this id."}' }),
    );
    await page.goto(supplierUrl(supplier.org_number, `&task=${task.response_id}`));
    await hydrated(page, true);
    const dialog = page.getByRole("dialog", { name: task.name });
    await dialog.getByRole("link", { name: `Download ${task.template_file_name}` }).click();
    await expect(dialog.getByRole("region", { name: "Task template" }).getByRole("alert")).toHaveText("Template file download failed.");
    await dialog.getByRole("link", { name: `Download ${task.files[0].file_name}` }).click();
    await expect(dialog.getByRole("region", { name: "Files from the supplier" }).getByRole("alert")).toHaveText("Supplier file download failed.");
    // Still on the screen, dialog open: no error page.
    await expect(page).toHaveURL(new RegExp(`[?&]task=${task.response_id}(&|$)`));
  });

  test("the open task dialog has no serious accessibility violations", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name !== "js-on", "axe runs in the browser");
    const supplier = firstSupplier();
    const task = richestSubmittedTask(demoUser("analyst@demo.test").organizationId, supplier.id);
    await page.goto(supplierUrl(supplier.org_number, `&task=${task.response_id}`));
    await expect(page.getByRole("dialog", { name: task.name }).getByText(task.comment!, { exact: true })).toBeVisible();
    await expectAccessible(page);
  });

  test("survey responses: the submitted ones, each linking to its read view", async ({ page }) => {
    const supplier = firstSupplier();
    const customer = demoUser("analyst@demo.test").organizationId;
    const surveys = queryDb<{ id: number; title: string; updated_at: string; status: string }>(
      `select sr.id, st.title, sr.updated_at, sr.status from survey_responses sr join survey_templates st on st.id = sr.survey_template_id
       where sr.organization_id = ? and sr.supplier_organization_id = ? order by sr.updated_at desc, sr.id desc`,
      customer,
      supplier.id,
    );
    const submitted = surveys.filter((s) => s.status === "submitted");
    const drafts = surveys.filter((s) => s.status !== "submitted");
    expect(submitted.length).toBeGreaterThan(0);

    await page.goto(supplierUrl(supplier.org_number));
    const section = region(page, "Survey responses");
    await expect(section.getByRole("listitem")).toHaveCount(submitted.length);
    for (const [i, survey] of submitted.entries()) {
      const item = section.getByRole("listitem").nth(i);
      await expect(item.getByRole("link", { name: survey.title })).toHaveAttribute("href", `/tasks/surveys/${survey.id}/read`);
      await expect(item).toContainText(formatDate(survey.updated_at));
    }
    for (const draft of drafts) await expect(section.getByText(draft.title)).toHaveCount(0);

    await section.getByRole("link", { name: submitted[0].title }).click();
    await expect(page).toHaveURL(new RegExp(`/tasks/surveys/${submitted[0].id}/read$`));
  });

  test("sub-suppliers: the list, and a search that narrows it while keeping the page state", async ({ page }, testInfo) => {
    const jsOn = testInfo.project.name === "js-on";
    const supplier = firstSupplier();
    const subs = queryDb<{ id: number; name: string; org_number: string }>(
      `select o.id, o.name, o.org_number from organization_connections c join organizations o on o.id = c.child_organization_id
       where c.parent_organization_id = ? and c.is_deleted = 0`,
      supplier.id,
    );
    expect(subs.length).toBeGreaterThan(1);
    // A piece of one name that matches fewer than all of them.
    const words = subs.flatMap((s) => s.name.split(/\s+/)).filter((w) => w.length >= 4);
    const term = words
      .map((w) => w.slice(0, 4).toLowerCase())
      .find((w) => {
        const n = subs.filter((s) => s.name.toLowerCase().includes(w)).length;
        return n >= 1 && n < subs.length;
      });
    if (!term) throw new Error("no search term narrows the sub-suppliers");
    const expected = subs.filter((s) => s.name.toLowerCase().includes(term) || s.org_number.includes(term));

    await page.goto(supplierUrl(supplier.org_number, "&announcements=all"));
    await hydrated(page, jsOn);
    const section = region(page, "Sub-suppliers");
    const list = section.getByRole("list", { name: "Sub-supplier list" });
    await expect(list.getByRole("listitem")).toHaveCount(subs.length);
    expect(await list.evaluate((el) => getComputedStyle(el).maxHeight)).toBe("224px");
    expect(await list.evaluate((el) => getComputedStyle(el).overflowY)).toBe("auto");
    const first = subs[0];
    await expect(list.getByRole("link", { name: first.name, exact: true })).toHaveAttribute(
      "href",
      `/supplier?externalId=${first.org_number}&localId=${first.id}`,
    );

    const input = section.getByRole("searchbox", { name: "Search sub-suppliers" });
    if (jsOn) {
      // Typed, not submitted: the search runs on each change of the text.
      await input.pressSequentially(term, { delay: 30 });
    } else {
      await input.fill(term);
      await section.getByRole("button", { name: "Search" }).click();
    }
    await expect(page).toHaveURL(new RegExp(`[?&]subSearch=${encodeURIComponent(term)}(&|#|$)`));
    await expect(page).toHaveURL(/[?&]announcements=all/);
    await expect(page).toHaveURL(new RegExp(`[?&]externalId=${supplier.org_number}`));
    await expect(list.getByRole("listitem")).toHaveCount(expected.length);
    for (const s of expected) await expect(list.getByRole("link", { name: s.name, exact: true })).toBeVisible();
    await expect(section.getByRole("searchbox", { name: "Search sub-suppliers" })).toHaveValue(term);

    // Nothing matches.
    if (jsOn) {
      await input.fill("zzqx-no-such-company");
    } else {
      await input.fill("zzqx-no-such-company");
      await section.getByRole("button", { name: "Search" }).click();
    }
    await expect(section.getByText("No sub-suppliers found.")).toBeVisible();
    await expect(section.getByRole("list", { name: "Sub-supplier list" })).toHaveCount(0);
  });

  test("a supplier that does not share its data: its sub-suppliers are not shown", async ({ page }) => {
    const supplier = notSharingSupplier(demoUser("analyst@demo.test").organizationId);
    await page.goto(supplierUrl(supplier.org_number));
    const section = region(page, "Sub-suppliers");
    await expect(section.getByText("This organization has not shared access to its data.")).toBeVisible();
    await expect(section.getByRole("listitem")).toHaveCount(0);
    await expect(section.getByRole("searchbox")).toHaveCount(0);
  });
});

test.describe("as a user of a customer that does not follow the supplier", () => {
  test.beforeEach(async ({ context }) => {
    await signIn(context, demoUser("other@demo.test"));
  });

  test("sees none of the first customer's tasks, surveys or sub-suppliers", async ({ page }) => {
    const supplier = firstSupplier();
    const analystOrg = demoUser("analyst@demo.test").organizationId;
    const tasks = tasksOf(analystOrg, supplier.id);
    const subs = queryDb<{ name: string }>(
      "select o.name from organization_connections c join organizations o on o.id = c.child_organization_id where c.parent_organization_id = ? and c.is_deleted = 0",
      supplier.id,
    );
    await page.goto(supplierUrl(supplier.org_number));
    await expect(region(page, "Tasks").getByText("No tasks found for this supplier.")).toBeVisible();
    await expect(region(page, "Tasks").getByRole("listitem")).toHaveCount(0);
    await expect(region(page, "Survey responses").getByText("No submitted survey responses found for this supplier.")).toBeVisible();
    await expect(region(page, "Survey responses").getByRole("listitem")).toHaveCount(0);
    await expect(region(page, "Sub-suppliers").getByText("No sub-suppliers found.")).toBeVisible();
    await expect(region(page, "Sub-suppliers").getByRole("listitem")).toHaveCount(0);
    for (const task of tasks) await expect(page.getByText(task.name, { exact: true })).toHaveCount(0);
    for (const s of subs.slice(0, 5)) await expect(page.getByText(s.name, { exact: true })).toHaveCount(0);
  });

  test("another customer's task response id shows 'Error loading response.' and nothing of it", async ({ page }) => {
    const supplier = firstSupplier();
    const task = richestSubmittedTask(demoUser("analyst@demo.test").organizationId, supplier.id);
    await page.goto(supplierUrl(supplier.org_number, `&task=${task.response_id}`));
    const dialog = page.getByRole("dialog", { name: "Task response" });
    await expect(dialog.getByText("Error loading response.")).toBeVisible();
    await expect(page.getByText(task.comment!, { exact: true })).toHaveCount(0);
    await expect(page.getByText(task.files[0].file_name, { exact: true })).toHaveCount(0);
    // Nor can the files be fetched directly.
    const res = await page.request.get(`/api/tasks/files/${task.files[0].id}/download`);
    expect(res.status()).toBe(404);

    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page).not.toHaveURL(/[?&]task=/);
  });
});
