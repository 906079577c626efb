import fs from "node:fs";
import { expect, test, type Page } from "./test";
import { demoUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * "My suppliers" (/suppliers) on the demo world, with JavaScript on and off:
 * paging, search, the tag filter, sorting, opening a supplier, the CSV
 * export, and organisation scoping.
 */

interface Row {
  id: number;
  name: string;
  org_number: string | null;
}

function activeSuppliersOf(organizationId: number): Row[] {
  return queryDb<Row>(
    `select o.id, o.name, o.org_number from organization_connections c join organizations o on o.id = c.child_organization_id
     where c.parent_organization_id = ? and c.is_deleted = 0`,
    organizationId,
  );
}

const table = (page: Page) => page.getByRole("table", { name: "Your organization's suppliers" });
const filters = (page: Page) => page.getByRole("search", { name: "Search and filter suppliers" });
const searchBox = (page: Page) => filters(page).getByLabel("Search", { exact: true });
/** The names on the page, once the whole page is there (without JavaScript the document streams in; the page links come last). */
async function rowNames(page: Page): Promise<string[]> {
  await expect(page.getByRole("navigation", { name: "Pages" })).toBeVisible();
  return table(page).locator("tbody tr th").allInnerTexts();
}

/** Submits the filter form: with JavaScript the search also submits itself, the button works in both. */
async function applyFilters(page: Page) {
  await filters(page).getByRole("button", { name: "Filter" }).click();
}

test.describe("My suppliers", () => {
  test("lists the organisation's suppliers with paging", async ({ page, context }) => {
    const analyst = demoUser("analyst@demo.test");
    await signIn(context, analyst);
    const total = activeSuppliersOf(analyst.organizationId).length;
    expect(total).toBeGreaterThan(25);
    const pages = Math.ceil(total / 25);

    await page.goto("/suppliers");
    await expect(page.getByRole("heading", { level: 1, name: "My suppliers" })).toBeVisible();
    await expect(page.getByRole("status")).toHaveText(`${total} suppliers`);
    await expect(table(page).locator("tbody tr")).toHaveCount(25);
    const nav = page.getByRole("navigation", { name: "Pages" });
    await expect(nav).toContainText(`Page 1 of ${pages}`);
    await expect(nav).toContainText(`1–25 of ${total}`);
    const first = await rowNames(page);

    await nav.getByRole("link", { name: "Next" }).click();
    await expect(nav).toContainText(`Page 2 of ${pages}`);
    await expect(page).toHaveURL(/page=2/);
    const second = await rowNames(page);
    expect(second.filter((n) => first.includes(n))).toEqual([]);

    await nav.getByRole("link", { name: "Last" }).click();
    await expect(nav).toContainText(`Page ${pages} of ${pages}`);
    await expect(table(page).locator("tbody tr")).toHaveCount(total - (pages - 1) * 25);
    await expect(nav.getByRole("link", { name: "Next" })).toHaveCount(0);

    // Badges and dates as the overview card shows them.
    await page.goto("/suppliers?priority=yes");
    await expect(table(page).locator("tbody tr").first()).toContainText("Priority Supplier");
    await expect(table(page).locator("tbody tr").first().locator("td").last()).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
  });

  test("search narrows the list, Norwegian letters included", async ({ page, context }, testInfo) => {
    const analyst = demoUser("analyst@demo.test");
    await signIn(context, analyst);
    const expected = activeSuppliersOf(analyst.organizationId).filter((r) => r.name.toLocaleLowerCase("nb").includes("ø"));
    expect(expected.length).toBeGreaterThan(0);

    await page.goto("/suppliers");
    if (testInfo.project.name === "js-on") await expect(page.locator("html[data-js]")).toHaveCount(1);
    await searchBox(page).fill("ø");
    if (testInfo.project.name === "js-on") {
      // The search submits itself after a pause, replacing the history entry.
      await expect(page).toHaveURL(/[?&]q=%C3%B8/);
    } else {
      await applyFilters(page);
    }
    await expect(page.getByRole("status")).toHaveText(`${expected.length} ${expected.length === 1 ? "supplier matches" : "suppliers match"}`);
    await expect(table(page).locator("tbody tr")).toHaveCount(Math.min(25, expected.length));
    const shown = await rowNames(page);
    for (const name of shown) expect(name.toLocaleLowerCase("nb")).toContain("ø");

    // By organisation number.
    const target = expected[0];
    await searchBox(page).fill(target.org_number ?? "");
    await applyFilters(page);
    await expect(table(page).locator("tbody tr")).toHaveCount(1);
    await expect(table(page).locator("tbody tr th")).toHaveText(target.name);

    await searchBox(page).fill("no such supplier anywhere");
    await applyFilters(page);
    await expect(page.getByText("No results found.")).toBeVisible();
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(table(page).locator("tbody tr")).toHaveCount(25);
  });

  test("filters by tag", async ({ page, context }) => {
    const analyst = demoUser("analyst@demo.test");
    await signIn(context, analyst);
    const [{ n }] = queryDb<{ n: number }>(
      `select count(*) as n from organization_connections c
       join organization_connection_tags ct on ct.connection_id = c.id join organization_tags t on t.id = ct.tag_id
       where c.parent_organization_id = ? and c.is_deleted = 0 and t.title = 'Logistics'`,
      analyst.organizationId,
    );
    expect(n).toBeGreaterThan(0);
    await page.goto("/suppliers");
    await filters(page).getByLabel("Tag", { exact: true }).selectOption({ label: "Logistics" });
    await applyFilters(page);
    await expect(page.getByRole("status")).toHaveText(`${n} ${n === 1 ? "supplier matches" : "suppliers match"}`);
    const rows = table(page).locator("tbody tr");
    // Retried: without JavaScript the status line arrives before the rest of the streamed table.
    await expect(rows).toHaveCount(Math.min(25, n));
    const count = await rows.count();
    for (let i = 0; i < count; i++) await expect(rows.nth(i).getByRole("list")).toContainText("Logistics");
    await expect(filters(page).getByLabel("Tag", { exact: true })).toHaveValue(/\d+/);
  });

  test("sorts by name both ways", async ({ page, context }) => {
    await signIn(context, demoUser("analyst@demo.test"));
    await page.goto("/suppliers");
    const nameHeader = table(page).getByRole("columnheader", { name: /Name/ });
    await expect(nameHeader).toHaveAttribute("aria-sort", "ascending");
    const ascending = await rowNames(page);

    await nameHeader.getByRole("link").click();
    await expect(page).toHaveURL(/sort=name&dir=desc/);
    await expect(table(page).getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "descending");
    const descending = await rowNames(page);
    expect(descending.filter((n) => ascending.includes(n))).toEqual([]);
    // The first name A–Z is the very last one Z–A.
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Last" }).click();
    await expect(page).toHaveURL(/page=\d+/);
    // Retried: with JavaScript the URL changes a moment before the new rows render.
    await expect.poll(async () => (await rowNames(page)).at(-1)).toBe(ascending[0]);

    await table(page).getByRole("columnheader", { name: /Name/ }).getByRole("link").click();
    await expect(table(page).getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "ascending");
    expect(await rowNames(page)).toEqual(ascending);
  });

  test("a row opens the supplier screen", async ({ page, context }) => {
    await signIn(context, demoUser("analyst@demo.test"));
    await page.goto("/suppliers");
    const link = table(page).locator("tbody tr").first().getByRole("link");
    const name = await link.innerText();
    await link.click();
    await expect(page).toHaveURL(/\/supplier\?externalId=\d{9}&localId=\d+/);
    await expect(page.getByRole("heading", { name, exact: false }).first()).toBeVisible();
  });

  test("the CSV export downloads the filtered list with a header", async ({ page, context }) => {
    await signIn(context, demoUser("analyst@demo.test"));
    await page.goto("/suppliers?priority=yes");
    await expect(page.getByRole("navigation", { name: "Pages" })).toBeVisible();
    const shown = await rowNames(page);
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/^suppliers-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = fs.readFileSync((await download.path())!, "utf8");
    expect(
      text.startsWith("\uFEFFName,Organization number,Country code,Country,Tags,Priority supplier,Under due diligence,Added,Overall risk,Risk level\r\n"),
    ).toBe(true);
    const lines = text.trim().split("\r\n").slice(1);
    expect(lines.length).toBe(shown.length);
    for (const line of lines) expect(line).toContain(",Yes,");
  });

  test("another organisation's suppliers are not listed", async ({ page, context }) => {
    const analyst = demoUser("analyst@demo.test");
    const other = demoUser("other@demo.test");
    const ofOther = new Set(activeSuppliersOf(other.organizationId).map((r) => r.id));
    const onlyFirst = activeSuppliersOf(analyst.organizationId).filter((r) => !ofOther.has(r.id));
    expect(onlyFirst.length).toBeGreaterThan(0);
    await signIn(context, other);
    await page.goto("/suppliers");
    await expect(page.getByRole("status")).toHaveText(`${ofOther.size} suppliers`);
    await searchBox(page).fill(onlyFirst[0].org_number ?? onlyFirst[0].name);
    await applyFilters(page);
    await expect(page.getByText("No results found.")).toBeVisible();
    await expect(table(page)).toHaveCount(0);
  });

  test("viewers (level 1) are refused", async ({ page, context }) => {
    await signIn(context, demoUser("viewer@demo.test"));
    const response = await page.goto("/suppliers");
    expect(response?.status()).toBe(403);
    await expect(table(page)).toHaveCount(0);
  });

  test("has no serious accessibility violations", async ({ page, context }, testInfo) => {
    test.skip(testInfo.project.name !== "js-on", "axe runs with JavaScript");
    await signIn(context, demoUser("analyst@demo.test"));
    await page.goto("/suppliers?sort=added&dir=desc");
    await expect(table(page)).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("a supplier's sub-suppliers (shared/spec/02-supplier-credit-connections.md §5)", () => {
  test("the search calls the API on each change of the text, cancelling the request before it, without reloading the screen", async ({
    page,
    context,
    javaScriptEnabled,
  }) => {
    test.skip(!javaScriptEnabled, "without JavaScript the search is the GET form (supplier-work.spec.ts)");
    await signIn(context, demoUser("analyst@demo.test"));
    const [supplier] = queryDb<{ id: number; org_number: string }>(
      "select o.id, o.org_number from users u join organizations o on o.id = u.organization_id where u.email = 'supplier@demo.test'",
    );
    const subs = queryDb<{ name: string }>(
      `select o.name from organization_connections c join organizations o on o.id = c.child_organization_id
       where c.parent_organization_id = ? and c.is_deleted = 0 order by o.name`,
      supplier.id,
    );
    const target = subs[0].name;
    const term = target.slice(0, 4).toLowerCase();
    const expected = subs.filter((s) => s.name.toLowerCase().includes(term));

    await page.goto(`/supplier?externalId=${supplier.org_number}`);
    const section = page.getByRole("region", { name: "Sub-suppliers", exact: true });
    const list = section.getByRole("list", { name: "Sub-supplier list" });
    await expect(list.getByRole("listitem")).toHaveCount(subs.length);

    const apiCalls: string[] = [];
    const aborted: string[] = [];
    const screenReloads: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (url.pathname === `/api/suppliers/${supplier.id}/sub-suppliers`) apiCalls.push(url.searchParams.get("searchTerm") ?? "");
      if (url.pathname === "/supplier" && url.searchParams.has("_data")) screenReloads.push(r.url());
    });
    page.on("requestfailed", (r) => {
      if (r.url().includes("/sub-suppliers")) aborted.push(new URL(r.url()).searchParams.get("searchTerm") ?? "");
    });
    // Every answer but the last keystroke's is slow: the next keystroke must cancel it.
    await page.route(`**/api/suppliers/${supplier.id}/sub-suppliers?**`, async (route) => {
      const searchTerm = new URL(route.request().url()).searchParams.get("searchTerm");
      if (searchTerm !== term) await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => undefined);
    });

    const input = section.getByRole("searchbox", { name: "Search sub-suppliers" });
    await input.pressSequentially(term, { delay: 80 });
    await expect(list.getByRole("listitem")).toHaveCount(expected.length);
    await expect(list.getByRole("link", { name: target, exact: true })).toBeVisible();
    expect(apiCalls).toEqual([...term].map((_, i) => term.slice(0, i + 1)));
    await expect.poll(() => aborted).toEqual(apiCalls.slice(0, -1));
    expect(screenReloads).toEqual([]);
    await expect(page).toHaveURL(new RegExp(`[?&]subSearch=${encodeURIComponent(term)}(&|#|$)`));
    await expect(page).toHaveURL(new RegExp(`[?&]externalId=${supplier.org_number}`));

    // Reloaded, the URL brings the same search back from the server.
    await page.unroute(`**/api/suppliers/${supplier.id}/sub-suppliers?**`);
    await page.reload();
    await expect(section.getByRole("searchbox", { name: "Search sub-suppliers" })).toHaveValue(term);
    await expect(list.getByRole("listitem")).toHaveCount(expected.length);
  });
});
