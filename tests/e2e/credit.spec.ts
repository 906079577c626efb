import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { expect, test, type Locator, type Page } from "./test";
import { pdfText } from "../helpers/pdf-text";
import { demoUser, expectAccessible, queryDb, signIn } from "./helpers";

/**
 * The credit report order dialog (shared/spec/02-supplier-credit-connections.md "Credit report order dialog",
 * §4, §5, §8, §9) and its terms dialog, with and without JavaScript: every
 * step is URL state, every move a link or a form.
 */

const ANALYST = "analyst@demo.test";

interface Supplier {
  org_number: string;
  legal_name: string;
}

/**
 * One rich Norwegian supplier per project, so the two projects (which run
 * side by side as the same demo analyst) never count each other's orders.
 */
function supplierFor(javaScriptEnabled: boolean): Supplier {
  if (javaScriptEnabled) {
    const [row] = queryDb<Supplier>("select org_number, legal_name from companies where org_number = '817209882'");
    if (row) return row;
  }
  const rows = queryDb<Supplier>(`
    select c.org_number, c.legal_name from companies c
    where c.country_code = 'NO' and c.is_active = 1 and c.deleted_at is null and c.org_number <> '817209882'
      and c.street_address is not null and c.street_postal_code is not null and c.street_postal_area is not null
      and exists (select 1 from financial_statements f where f.company_id = c.id)
      and exists (select 1 from announcements a where a.company_id = c.id)
    order by (select count(*) from announcements a where a.company_id = c.id) desc, c.org_number
    limit 2`);
  const row = rows[javaScriptEnabled ? 1 : 0];
  if (!row) throw new Error("the demo world has no rich Norwegian company with statements and announcements");
  return row;
}

function ordersOf(organizationId: number, regNo: string): Array<{ id: number; idempotency_key: string }> {
  return queryDb("select id, idempotency_key from credit_reports where organization_id = ? and reg_no = ? order by id", organizationId, regNo);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function orderDialog(page: Page): Locator {
  return page.getByRole("dialog", { name: "Order credit report" });
}

/** The confirm form's fields as the browser would post them (hidden inputs included). */
async function confirmFields(form: Locator): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const name of ["intent", "id", "countryCode", "idempotencyKey", "returnTo"]) {
    fields[name] = await form.locator(`input[name="${name}"]`).inputValue();
  }
  fields.language = await form.locator('select[name="language"]').inputValue();
  fields.terms = "on";
  return fields;
}

test.describe("credit report order dialog", () => {
  test("from a supplier: pre-filled details, confirm with terms, done, download, one order only, listed", async ({ page, context, javaScriptEnabled }) => {
    test.setTimeout(60_000);
    const analyst = demoUser(ANALYST);
    await signIn(context, analyst);
    const supplier = supplierFor(javaScriptEnabled);
    const before = ordersOf(analyst.organizationId, supplier.org_number);

    // The supplier screen's link opens the dialog pre-filled; it searches at once and shows the first hit's details.
    await page.goto(`/supplier?externalId=${supplier.org_number}`);
    await page.getByRole("link", { name: "Order credit report" }).click();
    const dialog = orderDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading", { level: 3, name: supplier.legal_name })).toBeVisible();
    const details = dialog.locator("dl");
    await expect(details.getByText("Registration no.")).toBeVisible();
    await expect(details.getByText(supplier.org_number, { exact: true })).toBeVisible();
    await expect(details.getByText("Norway", { exact: true })).toBeVisible();
    await expect(details.getByText("Legal form")).toBeVisible();
    await expect(dialog.getByRole("link", { name: "Back to search" })).toBeVisible();

    // Details → confirm.
    await dialog.getByRole("link", { name: "Proceed to order" }).click();
    await expect(dialog.getByText(`You are about to order a full PDF credit report for ${supplier.legal_name}.`)).toBeVisible();
    await expect(dialog.getByText("NOK 80", { exact: true })).toBeVisible();
    await expect(dialog.getByText("Billed at the end of the month.")).toBeVisible();
    const language = dialog.getByLabel("Report language");
    await expect(language).toHaveValue("NO");
    await expect(language.locator("option")).toHaveText(["Norwegian", "English"]);
    const confirm = dialog.getByRole("button", { name: "Confirm order" });
    const terms = dialog.getByRole("checkbox", { name: "I have read and accept the terms of use for credit reports." });
    await expect(terms).not.toBeChecked();

    // Not ticked: blocked — disabled with JavaScript, refused by the server without, keeping the chosen language.
    await language.selectOption("EN");
    if (javaScriptEnabled) {
      await expect(confirm).toBeDisabled();
    } else {
      await confirm.click();
      await expect(page).toHaveURL(/error=terms/);
      await expect(dialog.getByRole("alert")).toHaveText("Tick the box to accept the terms before ordering.");
      await expect(dialog.getByRole("button", { name: "Confirm order" })).toBeVisible();
      await expect(language).toHaveValue("EN");
    }
    expect(ordersOf(analyst.organizationId, supplier.org_number)).toEqual(before);

    // The terms: English first, then Norwegian, then closed.
    await dialog.getByRole("link", { name: "Read the terms of use" }).click();
    const termsEn = page.getByRole("dialog", { name: "User agreement for credit reports" });
    await expect(termsEn).toBeVisible();
    await expect(termsEn.getByText("Terms for ordering and using credit reports in the supplier risk service")).toBeVisible();
    await expect(termsEn.getByRole("heading", { name: "1. Purpose and permitted use" })).toBeVisible();
    await expect(termsEn.getByRole("heading", { name: "11. Confirmation" })).toBeVisible();
    await expect(termsEn.getByRole("link", { name: "Download the terms (PDF)" })).toHaveAttribute("href", "/user_agreement_credit_en.pdf");
    await termsEn.getByRole("link", { name: "NO", exact: true }).click();
    const termsNo = page.getByRole("dialog", { name: "Brukeravtale for kredittrapporter" });
    await expect(termsNo).toBeVisible();
    await expect(termsNo.getByRole("heading", { name: "2. Berettiget interesse og saklig behov" })).toBeVisible();
    const pdfLink = termsNo.getByRole("link", { name: "Last ned vilkårene (PDF)" });
    await expect(pdfLink).toHaveAttribute("href", "/user_agreement_credit_no.pdf");
    const agreement = await page.request.get("/user_agreement_credit_no.pdf");
    expect(agreement.ok()).toBe(true);
    expect(agreement.headers()["content-type"]).toContain("application/pdf");
    expect((await agreement.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    if (javaScriptEnabled) {
      // Escape closes the terms only; the order dialog stays.
      await expect(page.locator("html")).toHaveAttribute("data-js", "");
      await page.keyboard.press("Escape");
    } else {
      await termsNo.getByRole("link", { name: "Lukk vilkårene" }).click();
    }
    await expect(termsNo).toBeHidden();
    await expect(page).not.toHaveURL(/terms=/);
    await expect(dialog.getByRole("button", { name: "Confirm order" })).toBeVisible();
    // With JavaScript the terms open over the form, which keeps its choice; without, they are a page of their own.
    const chosen = javaScriptEnabled ? "EN" : "NO";
    await expect(language).toHaveValue(chosen);

    // Tick, confirm → done.
    await terms.check();
    await expect(confirm).toBeEnabled();
    const form = dialog.locator('form[method="post"]');
    const fields = await confirmFields(form);
    expect(fields.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
    // The company is named by its provider id only: its name and number are the provider's when the order is placed.
    await expect(form.locator('input[name="companyName"], input[name="regNo"]')).toHaveCount(0);
    await confirm.click();
    await expect(dialog.getByRole("heading", { name: "Order completed" })).toBeVisible({ timeout: 20_000 });
    await expect(dialog.getByText(`The credit report for ${supplier.legal_name} is ready.`)).toBeVisible();
    await expect(page).toHaveURL(/[?&]step=done&order=\d+/);
    const orderId = Number(new URL(page.url()).searchParams.get("order"));
    const afterOrder = ordersOf(analyst.organizationId, supplier.org_number);
    expect(afterOrder).toHaveLength(before.length + 1);
    expect(afterOrder.at(-1)).toEqual({ id: orderId, idempotency_key: fields.idempotencyKey });
    expect(queryDb<{ language: string }>("select language from credit_reports where id = ?", orderId)[0].language).toBe(chosen);

    // Download the report: a valid PDF naming the company.
    const download = dialog.getByRole("link", { name: "Download report" });
    let pdf: Buffer;
    if (javaScriptEnabled) {
      const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
      expect(file.suggestedFilename()).toMatch(/\.pdf$/);
      pdf = fs.readFileSync(await file.path());
      await expect(dialog.getByRole("link", { name: "Download report" })).toBeVisible();
      await expect(dialog.getByRole("alert")).toHaveCount(0);
    } else {
      const href = await download.getAttribute("href");
      expect(href).toBe(`/api/credit-safe/${orderId}/download`);
      const response = await page.request.get(href ?? "");
      expect(response.status()).toBe(200);
      pdf = await response.body();
    }
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdfText(pdf).toLowerCase()).toContain(supplier.legal_name.toLowerCase());

    // Reloading the done step orders nothing.
    await page.reload();
    await expect(dialog.getByRole("heading", { name: "Order completed" })).toBeVisible();
    expect(ordersOf(analyst.organizationId, supplier.org_number)).toEqual(afterOrder);

    // Posting the same confirm form again returns the first order and orders nothing.
    const again = await page.request.post("/credit/order", { form: fields, maxRedirects: 0 });
    expect(again.status()).toBe(303);
    expect(again.headers().location).toMatch(new RegExp(`[?&]dialog=credit&step=done&order=${orderId}$`));
    expect(ordersOf(analyst.organizationId, supplier.org_number)).toEqual(afterOrder);

    // Back to search resets the dialog to an empty search.
    await dialog.getByRole("link", { name: "Back to search" }).click();
    await expect(dialog.getByLabel("Country")).toHaveValue("NO");
    await expect(dialog.getByLabel("Registration number")).toHaveValue("");
    await expect(dialog.getByText("No results found.")).toHaveCount(0);

    // Closing drops every dialog parameter; the report is in the supplier's credit risk section…
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/supplier\\?externalId=${supplier.org_number}$`));
    const fileName = queryDb<{ file_name: string }>("select file_name from credit_reports where id = ?", orderId)[0].file_name;
    // Reports of one company on one day share a file name: as many rows as the organisation has.
    const sameName = queryDb<{ n: number }>(
      "select count(*) as n from credit_reports where organization_id = ? and file_name = ?",
      analyst.organizationId,
      fileName,
    )[0].n;
    const creditRisk = page.locator("#credit-reports");
    await expect(creditRisk.getByRole("listitem").filter({ hasText: fileName }).filter({ hasText: supplier.legal_name })).toHaveCount(sameName);

    // …and on /credit_reports.
    await page.goto("/credit_reports");
    await expect(page.getByRole("main").getByRole("row").filter({ hasText: fileName })).toHaveCount(sameName);

    // Another organisation cannot see the order: its done step falls back to the search.
    await context.clearCookies();
    await signIn(context, demoUser("other@demo.test"));
    await page.goto(`/supplier?externalId=${supplier.org_number}&dialog=credit&step=done&order=${orderId}`);
    await expect(orderDialog(page).getByLabel("Country")).toBeVisible();
    await expect(page.getByText("Order completed")).toHaveCount(0);
  });

  test("the top bar's Credit button: search a foreign country, no results, details and English only", async ({ page, context, javaScriptEnabled }) => {
    await signIn(context, demoUser(ANALYST));
    const swedish = queryDb<Supplier>(
      "select org_number, legal_name from companies where country_code = 'SE' and deleted_at is null and legal_name like '%SWEDEN%' order by legal_name",
    );
    expect(swedish.length).toBeGreaterThan(0);

    if (javaScriptEnabled) {
      await page.goto("/overview");
      // The dropdown opens on focus once the page's scripts run (the page marks <html data-js>).
      await expect(page.locator("html")).toHaveAttribute("data-js", "");
      await page.getByRole("search", { name: "Search" }).getByRole("combobox", { name: "Search" }).focus();
      await page.getByRole("link", { name: "Credit", exact: true }).click();
      await expect(page).toHaveURL(/\/overview\?dialog=credit$/);
    } else {
      // Without scripts the dropdown does not open; the dialog is the same URL.
      await page.goto("/overview?dialog=credit");
    }
    const dialog = orderDialog(page);
    await expect(dialog).toBeVisible();
    const country = dialog.getByLabel("Country");
    await expect(country).toHaveValue("NO");
    await expect(country.locator("option").nth(1)).toHaveText("Norway");
    await expect(country.locator("option")).toHaveCount(17);
    await expect(dialog.getByText("No results found.")).toHaveCount(0);

    await country.selectOption("SE");
    const name = dialog.getByLabel("Company name");
    await name.fill("sweden");
    if (javaScriptEnabled) {
      // Typing searches after the 1000 ms pause, without a click; a spinner shows meanwhile.
      await expect(dialog.getByText("Searching…")).toBeVisible();
      await page.waitForTimeout(400);
      await expect(page).not.toHaveURL(/name=sweden/);
    } else {
      await dialog.getByRole("button", { name: "Search" }).click();
    }
    const results = dialog.getByRole("list", { name: "Search results" });
    const first = results.getByRole("link", { name: new RegExp(escapeRegExp(swedish[0].legal_name)) });
    await expect(first).toBeVisible();
    await expect(first).toContainText("Sweden");
    await expect(page).toHaveURL(/country=SE/);
    await expect(page).toHaveURL(/name=sweden/);

    // A search that finds nothing says so; Enter searches at once.
    await name.fill("qqqzzzxxy");
    await name.press("Enter");
    await expect(dialog.getByText("No results found.")).toBeVisible();
    await expect(results).toHaveCount(0);

    await name.fill("sweden");
    await name.press("Enter");
    await results.getByRole("link", { name: new RegExp(escapeRegExp(swedish[0].legal_name)) }).click();
    await expect(dialog.getByRole("heading", { level: 3, name: swedish[0].legal_name })).toBeVisible();
    await expect(dialog.locator("dl").getByText("Sweden", { exact: true })).toBeVisible();
    await dialog.getByRole("link", { name: "Proceed to order" }).click();
    // Norwegian reports only where the country offers them.
    const language = dialog.getByLabel("Report language");
    await expect(language).toHaveValue("EN");
    await expect(language.locator("option")).toHaveText(["English"]);
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(dialog.getByRole("link", { name: "Proceed to order" })).toBeVisible();
    await dialog.getByRole("link", { name: "Back to search" }).click();
    await expect(dialog.getByLabel("Company name")).toHaveValue("sweden");
    await expect(country).toHaveValue("SE");

    if (javaScriptEnabled) {
      await page.keyboard.press("Escape");
    } else {
      await dialog.getByRole("link", { name: "Close" }).click();
    }
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/overview$/);
  });

  test("a failing order says so and returns to the details", async ({ page, context }) => {
    await signIn(context, demoUser(ANALYST));
    const [company] = queryDb<Supplier>(
      "select org_number, legal_name from companies where country_code = 'SE' and deleted_at is null order by org_number limit 1",
    );
    const search = `dialog=credit&step=confirm&country=SE&regNo=${company.org_number}&id=local%3A${company.org_number}`;
    // Norwegian is not offered for Sweden: the provider refuses the order.
    const response = await page.request.post("/credit/order", {
      maxRedirects: 0,
      form: {
        intent: "order",
        id: `local:${company.org_number}`,
        countryCode: "SE",
        language: "NO",
        terms: "on",
        idempotencyKey: randomBytes(16).toString("hex"),
        returnTo: `/overview?${search}`,
      },
    });
    expect(response.status()).toBe(303);
    const location = response.headers().location;
    expect(location).toMatch(/step=details/);
    expect(location).toMatch(/error=order/);
    await page.goto(location);
    const dialog = orderDialog(page);
    await expect(dialog.getByRole("alert")).toHaveText("Order failed – please try again.");
    await expect(dialog.getByRole("link", { name: "Proceed to order" })).toBeVisible();
  });

  test("an unsafe return address is refused", async ({ page, context }) => {
    await signIn(context, demoUser(ANALYST));
    const response = await page.request.post("/credit/order", {
      maxRedirects: 0,
      form: {
        intent: "order",
        id: "local:817209882",
        countryCode: "NO",
        language: "NO",
        terms: "on",
        idempotencyKey: "f".repeat(32),
        returnTo: "//evil.example/",
      },
    });
    expect(response.status()).toBe(400);
  });

  test("with JavaScript a refused order form says why in the dialog and keeps what was chosen", async ({ page, context, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "the refusal without JavaScript is the redirect with error=terms above");
    const analyst = demoUser(ANALYST);
    await signIn(context, analyst);
    const supplier = supplierFor(javaScriptEnabled);
    const before = ordersOf(analyst.organizationId, supplier.org_number);
    await page.goto(`/overview?dialog=credit&step=confirm&country=NO&regNo=${supplier.org_number}&id=local%3A${supplier.org_number}`);
    const dialog = orderDialog(page);
    // The step's code loads on demand: until it runs, a click would post the plain form.
    await expect(dialog.locator("form[data-ready]")).toHaveCount(1);
    const language = dialog.getByLabel("Report language");
    await language.selectOption("EN");
    const terms = dialog.getByRole("checkbox", { name: "I have read and accept the terms of use for credit reports." });
    await terms.check();
    // A page left open across a change the server no longer accepts: only the server can tell.
    await dialog.locator('input[name="returnTo"]').evaluate((input) => ((input as HTMLInputElement).value = "//evil.example/"));
    await dialog.getByRole("button", { name: "Confirm order" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("This order form is out of date. Go back to the company and start the order again.");
    await expect(language).toHaveValue("EN");
    await expect(terms).toBeChecked();
    await expect(page).toHaveURL(/step=confirm/);
    expect(ordersOf(analyst.organizationId, supplier.org_number)).toEqual(before);
  });

  test("the open dialog and the terms are accessible", async ({ page, context, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "axe runs in the page");
    await signIn(context, demoUser(ANALYST));
    await page.goto("/supplier?externalId=817209882&dialog=credit&country=NO&regNo=817209882");
    const dialog = orderDialog(page);
    await expect(dialog.getByRole("link", { name: "Proceed to order" })).toBeVisible();
    await expectAccessible(page);
    await dialog.getByRole("link", { name: "Proceed to order" }).click();
    await dialog.getByRole("link", { name: "Read the terms of use" }).click();
    await expect(page.getByRole("dialog", { name: "User agreement for credit reports" })).toBeVisible();
    await expectAccessible(page);
  });
});
