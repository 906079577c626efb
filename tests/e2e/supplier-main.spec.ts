import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Page } from "./test";
import { readIntelligence } from "../../app/components/supplier/intelligence-text";
import { formatDate, formatThousands } from "../../app/models/shared/format";
import { composeIntelligence, factsOfCompany } from "../../app/models/assistant/supplier-intelligence";
import { createUser, demoUser, expectAccessible, queryDb, signIn } from "./helpers";
import { E2E_DATA_DIR } from "./env";

/**
 * The supplier screen's main sections (shared/spec/02-supplier-credit-connections.md "Supplier detail"): header,
 * credit risk, company overview, financial summary, risk overview, credit risk
 * score, geography, intelligence and announcements — with and without JavaScript.
 */

interface RichCompany {
  id: number;
  org_number: string;
  legal_name: string;
  country_code: string;
  street_address: string | null;
  street_postal_code: string | null;
  street_postal_area: string | null;
  n: number;
}

/** The demo company with the most announcements that also has statements (two years running), a score, intelligence and a country. */
function richestCompany(): RichCompany {
  const [row] = queryDb<RichCompany>(`
    select c.id, c.org_number, c.legal_name, c.country_code, c.street_address, c.street_postal_code, c.street_postal_area, count(a.id) as n
    from companies c
    join announcements a on a.company_id = c.id
    where exists (select 1 from supplier_intelligence s where s.company_id = c.id)
      and exists (select 1 from countries k where k.iso2 = c.country_code)
      and exists (
        select 1 from financial_statements f
        where f.company_id = c.id and f.financial_risk_score is not null
          and f.financial_year = (select max(financial_year) from financial_statements where company_id = c.id)
          and exists (select 1 from financial_statements p where p.company_id = c.id and p.financial_year = f.financial_year - 1 and p.operating_income <> 0)
      )
    group by c.id
    having n > 5
    order by n desc, c.org_number
    limit 1`);
  if (!row) throw new Error("the demo world has no company with statements, intelligence, a country and more than 5 announcements");
  return row;
}

// Two companies of our own, so that the empty states, the address rule and the
// status badges are tested on known facts whatever the demo world holds.
const EMPTY_ORG = "899000017"; // bankrupt ASA with 60 employees; no statements, announcements, intelligence or country
const PADDED_ORG = "899000025"; // inactive AS; postal code stored without its leading zero

test.beforeAll(() => {
  const db = new Database(path.join(E2E_DATA_DIR, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    const insert = db.prepare(`
      insert or ignore into companies (org_number, country_code, legal_name, org_form, org_form_description, industry_code, industry_description,
        purpose, number_of_employees, establishment_date, street_address, street_postal_code, street_postal_area,
        is_bankrupt, date_of_bankruptcy, is_active, source, updated_at)
      values (?, ?, ?, ?, null, null, null, null, ?, ?, ?, ?, ?, ?, ?, ?, 'seed', ?)`);
    const now = new Date().toISOString();
    insert.run(EMPTY_ORG, "XX", "E2E TOMT KONKURS ASA", "ASA", 60, "2001-02-03", "Tomtegata 1", null, "OSLO", 1, "2023-05-04", 1, now);
    insert.run(PADDED_ORG, "NO", "E2E POSTNUMMER AS", "AS", 12, null, "Kaiveien 12", "155", "OSLO", 0, null, 0, now);
  } finally {
    db.close();
  }
});

test.beforeEach(async ({ context }) => {
  await signIn(context, demoUser("analyst@demo.test"));
});

const supplierUrl = (orgNumber: string, extra = "") => `/supplier?externalId=${orgNumber}${extra}`;
const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

test.describe("the richest supplier", () => {
  test("shows every main section filled", async ({ page }) => {
    const company = richestCompany();
    await page.goto(supplierUrl(company.org_number));

    await expect(page.getByRole("heading", { level: 1 })).toHaveText(company.legal_name);
    await expect(page.getByText(`Org. no. ${company.org_number}`)).toBeVisible();

    const overview = region(page, "Company overview");
    await expect(overview.getByText(company.legal_name, { exact: true })).toBeVisible();
    await expect(overview.getByText(company.org_number, { exact: true })).toBeVisible();
    for (const regime of ["ARP", "Transparency Act", "CSRD"]) {
      await expect(
        overview
          .getByRole("listitem")
          .filter({ hasText: regime })
          .getByText(/^(Yes|No)$/),
      ).toBeVisible();
    }

    const summary = region(page, "Financial summary");
    await expect(summary.getByRole("table")).toBeVisible();
    await expect(summary.getByRole("row", { name: /^EBITDA/ })).toBeVisible();

    const risk = region(page, "Risk overview");
    for (const label of ["Credit risk", "Geography risk", "Reputation risk", "Operational risk", "Legal risk"]) {
      await expect(
        risk
          .getByRole("listitem")
          .filter({ hasText: label })
          .getByText(/^(Low|Medium|High)$/),
      ).toBeVisible();
    }

    const [newest] = queryDb<{ financial_year: number; financial_risk_score: string }>(
      "select financial_year, financial_risk_score from financial_statements where company_id = ? order by financial_year desc limit 1",
      company.id,
    );
    const score = JSON.parse(newest.financial_risk_score) as Record<string, number | null>;
    const credit = region(page, "Credit risk score");
    await expect(credit.getByText(`From the financial statements for ${newest.financial_year}.`)).toBeVisible();
    const total = credit.getByRole("listitem").filter({ hasText: "Total score" });
    await expect(total).toContainText(String(Math.round(score.finalScore ?? NaN)));
    for (const part of ["Capital", "Liquidity", "Coverage", "Profitability", "Growth"]) {
      // By the row's label: the total's "why" names the parts too.
      await expect(credit.getByRole("listitem").filter({ has: page.getByText(part, { exact: true }) })).toBeVisible();
    }

    const [country] = queryDb<{ name_en: string; region: string | null; risk_score: number | null }>(
      "select name_en, region, risk_score from countries where iso2 = ?",
      company.country_code,
    );
    const geography = region(page, "Supplier geography");
    await expect(geography.getByText(country.name_en)).toBeVisible();
    if (country.region) await expect(geography.getByText(country.region, { exact: true })).toBeVisible();
    await expect(geography.getByText(/World Bank.*CC BY 4\.0/)).toBeVisible();

    const intelligence = region(page, "Supplier intelligence");
    await expect(intelligence.getByText("Composed from registry data", { exact: true })).toBeVisible();

    const announcements = region(page, "Announcements");
    await expect(announcements.getByRole("listitem")).toHaveCount(5);

    // Other specs may order reports on this company; the section and its order button are always there.
    await expect(region(page, "Credit risk").getByRole("link", { name: "Order credit report" })).toHaveAttribute(
      "href",
      new RegExp(`dialog=credit.*regNo=${company.org_number}|regNo=${company.org_number}.*dialog=credit`),
    );
  });

  test("the financial summary shows whole thousands and the signed change against the previous year", async ({ page }) => {
    const company = richestCompany();
    const [cur, prev] = queryDb<{ financial_year: number; operating_income: number }>(
      "select financial_year, operating_income from financial_statements where company_id = ? order by financial_year desc limit 2",
      company.id,
    );
    await page.goto(supplierUrl(company.org_number));
    const summary = region(page, "Financial summary");
    await expect(summary.getByText(`Figures in NOK thousands, ${cur.financial_year} compared with ${prev.financial_year}.`)).toBeVisible();
    const percent = ((cur.operating_income - prev.operating_income) / Math.abs(prev.operating_income)) * 100;
    const rounded = Math.abs(percent).toFixed(1);
    const change = rounded === "0.0" ? "0.0%" : `${percent > 0 ? "+" : "-"}${rounded}%`;
    const row = summary.getByRole("row", { name: /^Operating income/ });
    await expect(row.getByRole("cell").nth(0)).toHaveText(formatThousands(cur.operating_income, "en"));
    await expect(row.getByRole("cell").nth(1)).toHaveText(change);
    const link = summary.getByRole("link", { name: "Full financial statements" });
    await expect(link).toHaveAttribute("href", new RegExp(`externalId=${company.org_number}.*view=statements`));
  });

  test("announcements: 5 by default, all with the toggle, and back to 5", async ({ page }) => {
    const company = richestCompany();
    const rows = queryDb<{ date: string; risk: number }>("select date, risk from announcements where company_id = ? order by date desc", company.id);
    await page.goto(supplierUrl(company.org_number));
    const section = region(page, "Announcements");
    const items = section.getByRole("listitem");
    await expect(items).toHaveCount(5);
    await expect(items.first()).toContainText(formatDate(rows[0].date));

    await section.getByRole("link", { name: `Show all (${rows.length})` }).click();
    await expect(page).toHaveURL(/announcements=all/);
    await expect(items).toHaveCount(rows.length);
    const dates = await section.locator("time").allTextContents();
    expect(dates).toEqual(rows.map((r) => formatDate(r.date)));
    // Risk label: 3 or more High, 2 Medium, else Low (shared/spec/02-supplier-credit-connections.md §9); written out, not only coloured.
    const labels = await items.evaluateAll((lis) => lis.map((li) => li.lastElementChild?.textContent?.replace(/^Risk: /, "") ?? ""));
    const expected = rows.map((r) => (r.risk >= 3 ? "High" : r.risk === 2 ? "Medium" : "Low"));
    expect([...labels].sort()).toEqual([...expected].sort());

    await section.getByRole("link", { name: "Show fewer" }).click();
    await expect(page).not.toHaveURL(/announcements=all/);
    await expect(items).toHaveCount(5);
  });

  test("supplier intelligence: composed from the registry's facts; collapsed 2 tags and no descriptions, expanded the descriptions, key information and the source snippet", async ({
    page,
  }) => {
    const company = richestCompany();
    const [row] = queryDb<Parameters<typeof factsOfCompany>[0]>("select * from companies where id = ?", company.id);
    const intel = readIntelligence(composeIntelligence(factsOfCompany(row), "en"));
    if (!intel) throw new Error("the richest company's registry entry has neither industry nor purpose");

    await page.goto(supplierUrl(company.org_number));
    const section = region(page, "Supplier intelligence");
    await expect(section.getByText("Composed from registry data", { exact: true })).toBeVisible();
    await expect(section.getByText("AI-generated")).toHaveCount(0);
    await expect(section.getByText(intel.description ?? "(no description)", { exact: true })).toBeVisible();
    // The registry says nothing about certifications, ESG or services: those lists render nothing.
    for (const name of ["Services", "Certifications and compliance", "Environmental", "Social", "Governance"]) {
      await expect(section.getByRole("heading", { name, exact: true })).toHaveCount(0);
    }
    const products = section.getByRole("heading", { name: "Products", exact: true }).locator("xpath=following-sibling::ul[1]");
    if (row.industry_description) {
      await expect(products.getByRole("listitem")).toHaveText([row.industry_description]);
    } else {
      await expect(section.getByRole("heading", { name: "Products", exact: true })).toHaveCount(0);
    }
    const tags = section.getByRole("heading", { name: "Tags" }).locator("xpath=following-sibling::ul[1]").getByRole("listitem");
    await expect(tags).toHaveText(intel.tags.length > 2 ? [...intel.tags.slice(0, 2), `and ${intel.tags.length - 2} more`] : intel.tags);
    await expect(section.getByRole("blockquote")).toHaveCount(0);
    await expect(section.getByRole("link", { name: "Brønnøysund Register Centre" })).toHaveAttribute(
      "href",
      `https://virksomhet.brreg.no/nb/oppslag/enheter/${company.org_number}`,
    );

    await section.getByRole("link", { name: "Show more" }).click();
    await expect(page).toHaveURL(/intelligence=expanded/);
    await expect(tags).toHaveText(intel.tags);
    const purpose = intel.products[0]?.description;
    if (purpose) await expect(products.getByText(purpose, { exact: true })).toBeVisible();
    const key = section.getByRole("heading", { name: "Key information" }).locator("xpath=following-sibling::dl[1]");
    await expect(key.getByText(company.org_number, { exact: true })).toBeVisible();
    // No e-mail or phone is registered, so none is shown.
    await expect(key.getByText("Email", { exact: true })).toHaveCount(0);
    await expect(key.getByText("Phone", { exact: true })).toHaveCount(0);
    await expect(section.getByRole("blockquote")).toHaveText(intel.source.snippet ?? "(no snippet)");

    await section.getByRole("link", { name: "Show less" }).click();
    await expect(page).not.toHaveURL(/intelligence=expanded/);
    await expect(section.getByRole("blockquote")).toHaveCount(0);
  });

  test("supplier intelligence in Norwegian: composed in the user's language with a truthful label", async ({ page, context }) => {
    const company = richestCompany();
    await signIn(context, await createUser({ accessLevel: 2, language: "no" }));
    const [row] = queryDb<Parameters<typeof factsOfCompany>[0]>("select * from companies where id = ?", company.id);
    const intel = readIntelligence(composeIntelligence(factsOfCompany(row), "no"));
    if (!intel) throw new Error("the richest company's registry entry has neither industry nor purpose");
    await page.goto(supplierUrl(company.org_number));
    const section = region(page, "Leverandørinnsikt");
    await expect(section.getByText("Satt sammen fra registerdata", { exact: true })).toBeVisible();
    await expect(section.getByText(intel.description ?? "(no description)", { exact: true })).toBeVisible();
    await expect(section.getByText("Skrevet på engelsk")).toHaveCount(0);
    await expect(section.getByRole("link", { name: "Brønnøysundregistrene" })).toBeVisible();
  });

  test("the order button links to the credit dialog with country and registration number", async ({ page }) => {
    const company = richestCompany();
    await page.goto(supplierUrl(company.org_number));
    const order = region(page, "Credit risk").getByRole("link", { name: "Order credit report" });
    const href = await order.getAttribute("href");
    const params = new URLSearchParams(href?.split("?")[1] ?? "");
    expect(params.get("dialog")).toBe("credit");
    expect(params.get("country")).toBe(company.country_code);
    expect(params.get("regNo")).toBe(company.org_number);
    expect(params.get("externalId")).toBe(company.org_number);
  });
});

test.describe("rules and empty states on known companies", () => {
  test("an empty company shows every empty text, 'Address information incomplete' and its bankruptcy", async ({ page }) => {
    await page.goto(supplierUrl(EMPTY_ORG));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("E2E TOMT KONKURS ASA");
    await expect(page.getByText("Bankrupt since 4 May 2023")).toBeVisible();
    const overview = region(page, "Company overview");
    await expect(overview.getByText("Address information incomplete")).toBeVisible();
    await expect(overview.getByText("Tomtegata 1")).toHaveCount(0);
    await expect(overview.getByText("3 Feb 2001")).toBeVisible();
    await expect(region(page, "Financial summary").getByText("No financial statements found.")).toBeVisible();
    await expect(region(page, "Credit risk score").getByText("No credit risk score found for this organization.")).toBeVisible();
    await expect(region(page, "Supplier geography").getByText("No country data found for this organization.")).toBeVisible();
    await expect(region(page, "Supplier intelligence").getByText("No Supplier Intelligence found for this organization.")).toBeVisible();
    const announcements = region(page, "Announcements");
    await expect(announcements.getByText("No announcements found.")).toBeVisible();
    await expect(announcements.getByRole("link")).toHaveCount(0);
    const risk = region(page, "Risk overview");
    await expect(risk.getByRole("listitem").filter({ hasText: "Credit risk" })).toContainText("N/A");
    await expect(risk.getByRole("listitem").filter({ hasText: "Geography risk" })).toContainText("N/A");
    await expect(risk.getByRole("listitem").filter({ hasText: "Operational risk" })).toContainText(/^Operational risk\s*0\s*Low/);
  });

  test("compliance flags follow the rules: an ASA with 60 employees has ARP and the Transparency Act, not CSRD", async ({ page }) => {
    await page.goto(supplierUrl(EMPTY_ORG));
    const overview = region(page, "Company overview");
    const flag = (name: string) => overview.getByRole("listitem").filter({ has: page.getByText(name, { exact: true }) });
    await expect(flag("ARP")).toContainText("Yes");
    await expect(flag("ARP")).toContainText("at least 50 employees");
    await expect(flag("Transparency Act")).toContainText("Yes");
    await expect(flag("Transparency Act")).toContainText("every ASA");
    await expect(flag("CSRD")).toContainText("No");
    await expect(flag("CSRD")).toContainText("at least 250 employees");

    await page.goto(supplierUrl(PADDED_ORG));
    for (const name of ["ARP", "Transparency Act", "CSRD"]) await expect(flag(name)).toContainText("No");
  });

  test("a complete address is shown on one line with the postal code padded to 4 digits; inactive status", async ({ page }) => {
    await page.goto(supplierUrl(PADDED_ORG));
    await expect(region(page, "Company overview").getByText("Kaiveien 12, 0155 OSLO", { exact: true })).toBeVisible();
    await expect(page.getByText("Inactive", { exact: true })).toBeVisible();
  });

  test("an unknown externalId is a 404", async ({ page }) => {
    const response = await page.goto(supplierUrl("000000000"));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page Not Found");
  });
});

test.describe("organisation id and close button", () => {
  test("the organisation id can be copied with JavaScript and is plain text without it", async ({ page, context, javaScriptEnabled }) => {
    const company = richestCompany();
    await page.goto(supplierUrl(company.org_number));
    const overview = region(page, "Company overview");
    await expect(overview.getByText(company.org_number, { exact: true })).toBeVisible();
    const copy = overview.getByRole("button", { name: "Copy organization ID" });
    if (!javaScriptEnabled) {
      await expect(copy).toHaveCount(0);
      return;
    }
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await copy.click();
    await expect(overview.getByRole("status")).toHaveText("Copied");
    // The confirmation lasts 500 ms (shared/spec/02-supplier-credit-connections.md §9).
    await expect(overview.getByRole("status")).toHaveText("", { timeout: 2_000 });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(company.org_number);
  });

  test("close goes back to the page the supplier was opened from, or to the supplier list", async ({ page, javaScriptEnabled }) => {
    const company = richestCompany();
    await page.goto(`/search?q=${company.org_number}`);
    await page
      .getByRole("main")
      .getByRole("link", { name: new RegExp(company.legal_name) })
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(company.legal_name);
    const close = page.getByRole("link", { name: "Close" });
    await expect(close).toHaveAttribute("href", "/suppliers");
    if (!javaScriptEnabled) return;
    // URL-state changes of the screen do not count as pages to go back to.
    await region(page, "Announcements")
      .getByRole("link", { name: /Show all/ })
      .click();
    await expect(page).toHaveURL(/announcements=all/);
    await close.click();
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${company.org_number}$`));
  });
});

test("the supplier screen has no serious accessibility violations", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "axe runs in the browser");
  // axe over the whole supplier screen with every section open: near the default 30 s on a busy machine.
  test.slow();
  const company = richestCompany();
  await page.goto(supplierUrl(company.org_number, "&announcements=all&intelligence=expanded"));
  await expect(region(page, "Announcements").getByRole("link", { name: "Show fewer" })).toBeVisible();
  await expectAccessible(page);
  await page.goto(supplierUrl(EMPTY_ORG));
  await expect(page.getByText("Bankrupt since 4 May 2023")).toBeVisible();
  await expectAccessible(page);
});
