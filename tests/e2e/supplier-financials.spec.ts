import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Locator, type Page } from "./test";
import { E2E_DATA_DIR } from "./env";
import AxeBuilder from "@axe-core/playwright";
import { createUser, demoUser, queryDb, signIn } from "./helpers";

/*
 * The full financial statements page (shared/spec/02-supplier-credit-connections.md "Full financial statements page"):
 * /supplier?externalId={orgnr}&view=statements[&chart={field}].
 * The company is one of the demo world's with several statements; expected
 * texts are computed here from its rows in the database.
 */

const en = JSON.parse(fs.readFileSync(path.resolve("locales/en/financials.json"), "utf8")) as {
  rows: Record<string, string>;
  tables: Record<string, string>;
};

interface StatementRow {
  financial_year: number;
  [field: string]: number | string | null;
}

/** Lines of the two statement tables (a subset is enough to find a gap). */
const INCOME_LINES = [
  "sales",
  "operating_income",
  "cost_of_materials",
  "personnel_expenses",
  "depreciation",
  "other_operating_expenses",
  "operating_profit",
  "financial_income",
  "financial_expenses",
  "net_income",
];
const BALANCE_LINES = [
  "goodwill",
  "intangible_assets",
  "tangible_assets",
  "inventories",
  "accounts_receivables",
  "cash_and_deposits",
  "current_assets",
  "total_assets",
  "share_capital",
  "equity",
  "trade_creditors",
  "total_current_debt",
  "liabilities",
];

const FIXTURE_ORG = "999000417";
const EMPTY_ORG = "999000418";

interface Subject {
  orgNumber: string;
  statements: StatementRow[];
  /** A line with a value in some year and none in `gapYear`. */
  gapField: string;
  gapYear: number;
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

function statementsOf(companyId: number): StatementRow[] {
  return queryDb<StatementRow>("select * from financial_statements where company_id = ? order by financial_year desc", companyId);
}

/** A company of the demo world with 5+ statements, a usable newest operating margin and one missing line. */
function findSubject(): Subject | null {
  const candidates = queryDb<{ id: number; org_number: string }>(
    `select c.id, c.org_number from companies c join financial_statements fs on fs.company_id = c.id
     group by c.id having count(*) >= 5 order by c.org_number limit 200`,
  );
  for (const c of candidates) {
    const statements = statementsOf(c.id);
    const newest = statements[0];
    if (statements.some((s) => s.currency !== "NOK")) continue;
    if (!isNum(newest.operating_income) || newest.operating_income === 0 || !isNum(newest.operating_profit)) continue;
    if (Math.abs(newest.operating_income) < 1000) continue;
    for (const field of [...INCOME_LINES, ...BALANCE_LINES]) {
      const missing = statements.find((s) => !isNum(s[field]));
      if (missing && statements.some((s) => isNum(s[field]))) {
        return { orgNumber: c.org_number, statements, gapField: field, gapYear: missing.financial_year };
      }
    }
  }
  return null;
}

/**
 * Until the demo world has statements, a test company of our own in the e2e
 * server's throwaway database (insert or ignore: both workers may get here).
 */
function insertFixture() {
  const db = new Database(path.join(E2E_DATA_DIR, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    const now = new Date().toISOString();
    const insertCompany = db.prepare("insert or ignore into companies (org_number, legal_name, org_form, source, updated_at) values (?, ?, 'AS', 'seed', ?)");
    insertCompany.run(FIXTURE_ORG, "E2E Regnskap AS", now);
    insertCompany.run(EMPTY_ORG, "E2E Uten Regnskap AS", now);
    const { id } = db.prepare("select id from companies where org_number = ?").get(FIXTURE_ORG) as { id: number };
    const insert = db.prepare(
      `insert or ignore into financial_statements
        (company_id, financial_year, sales, operating_income, cost_of_materials, personnel_expenses, depreciation, operating_profit,
         net_income, goodwill, current_assets, total_current_debt, total_assets, equity, liabilities, number_of_employees, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const rows: Array<[number, number | null]> = [
      [2019, 900],
      [2020, 950],
      [2021, null], // goodwill missing in 2021
      [2022, 1000],
      [2023, 1050],
    ];
    for (const [i, [year, goodwill]] of rows.entries()) {
      const income = 1_234_567 + i * 100_000;
      const profit = 98_765 + i * 10_000;
      insert.run(
        id,
        year,
        income - 5000,
        income,
        600_000,
        400_000,
        20_000,
        profit,
        profit - 25_000,
        goodwill,
        500_000,
        320_000,
        2_000_000,
        700_000,
        1_300_000,
        120 + i,
        now,
      );
    }
  } finally {
    db.close();
  }
}

let subject: Subject;

test.beforeAll(() => {
  const found = findSubject();
  if (found) {
    subject = found;
    return;
  }
  insertFixture();
  const { id } = queryDb<{ id: number }>("select id from companies where org_number = ?", FIXTURE_ORG)[0];
  subject = { orgNumber: FIXTURE_ORG, statements: statementsOf(id), gapField: "goodwill", gapYear: 2021 };
});

/**
 * No serious or critical axe violations in the page's main content (tables and
 * chart dialog). Scoped to #main: the shell's search box is another screen's
 * and is checked by its own suite.
 */
async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).include("#main").analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

const french = (value: number, options: Intl.NumberFormatOptions = {}) => new Intl.NumberFormat("fr-FR", options).format(value);
const statementsUrl = (orgNumber: string, extra = "") => `/supplier?externalId=${orgNumber}&view=statements${extra}`;

function table(page: Page, id: "keyFigures" | "incomeStatement" | "balanceSheet"): Locator {
  return page.getByRole("table", { name: new RegExp(`^${en.tables[id]}\\.`) });
}

function row(tableLocator: Locator, field: string): Locator {
  return tableLocator.getByRole("row").filter({ has: tableLocator.page().getByRole("rowheader", { name: en.rows[field], exact: true }) });
}

/** The year headers of a table, left to right. */
async function years(tableLocator: Locator): Promise<string[]> {
  return (await tableLocator.getByRole("columnheader").allTextContents()).slice(1).map((s) => s.trim());
}

test.describe("full financial statements page", () => {
  test.beforeEach(async ({ context }) => {
    await signIn(context, demoUser("analyst@demo.test"));
  });

  test("three tables with the years newest first, French numbers, em dash and margin with one decimal", async ({ page }) => {
    await page.goto(statementsUrl(subject.orgNumber));
    await expect(page.getByRole("heading", { name: "Financial statements", level: 2 })).toBeVisible();
    const expectedYears = subject.statements.map((s) => String(s.financial_year));
    for (const id of ["keyFigures", "incomeStatement", "balanceSheet"] as const) {
      await expect(page.getByRole("heading", { name: en.tables[id], level: 3 })).toBeVisible();
      await expect(table(page, id)).toBeVisible();
      expect(await years(table(page, id))).toEqual(expectedYears);
    }
    await expect(table(page, "keyFigures").locator("caption")).toContainText("Amounts in NOK thousands");

    // The newest operating income, grouped with narrow no-break spaces.
    const newest = subject.statements[0];
    const income = french(newest.operating_income as number, { maximumFractionDigits: 0 });
    expect(income).toContain("\u202f");
    await expect(row(table(page, "incomeStatement"), "operating_income").getByRole("cell").first()).toHaveText(income);
    await expect(row(table(page, "keyFigures"), "operating_income").getByRole("cell").first()).toHaveText(income);

    // A missing line is an em dash in its year's column.
    const tableId = BALANCE_LINES.includes(subject.gapField) ? "balanceSheet" : "incomeStatement";
    const gapColumn = expectedYears.indexOf(String(subject.gapYear));
    await expect(row(table(page, tableId), subject.gapField).getByRole("cell").nth(gapColumn)).toHaveText("—");

    // Operating margin: percent with exactly one decimal.
    const margin = ((newest.operating_profit as number) / (newest.operating_income as number)) * 100;
    const marginCell = row(table(page, "keyFigures"), "operating_margin").getByRole("cell").first();
    await expect(marginCell).toHaveText(french(margin / 100, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }));
    await expect(marginCell).toHaveText(/^-?\d{1,3}(\u202f\d{3})*,\d\s%$/);
  });

  test("the back button returns to the supplier's main content", async ({ page }) => {
    await page.goto(statementsUrl(subject.orgNumber, "&chart=operating_income"));
    await page.getByRole("link", { name: "Close chart" }).click();
    await page.getByRole("link", { name: "Back to supplier" }).click();
    await expect(page).toHaveURL(new RegExp(`/supplier\\?externalId=${subject.orgNumber}$`));
    await expect(page.getByRole("heading", { name: "Financial statements" })).toHaveCount(0);
  });

  test("a company without statements shows the empty state", async ({ page }) => {
    let orgNumber = queryDb<{ org_number: string }>(
      "select org_number from companies where id not in (select company_id from financial_statements) order by org_number limit 1",
    )[0]?.org_number;
    if (!orgNumber) {
      insertFixture();
      orgNumber = EMPTY_ORG;
    }
    await page.goto(statementsUrl(orgNumber));
    await expect(page.getByText("No financial statements found for this organization.")).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
  });

  test.describe("with JavaScript", () => {
    test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "chart drawn by uPlot");

    test("a row label opens the chart in place; X, a click outside and Escape close it", async ({ page }) => {
      await page.goto(statementsUrl(subject.orgNumber));
      // Marks this document: a full page load would lose it.
      await page.evaluate(() => ((window as unknown as { __sameDocument?: boolean }).__sameDocument = true));
      const sameDocument = () => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

      const label = row(table(page, "keyFigures"), "operating_income").getByRole("link", { name: en.rows.operating_income });
      await label.click();
      const dialog = page.getByRole("dialog", { name: en.rows.operating_income });
      await expect(dialog).toBeVisible();
      await expect(page).toHaveURL(/chart=operating_income/);
      await expect(dialog.locator("canvas").first()).toBeVisible();
      // The figures table stays for screen readers, out of sight.
      await expect(dialog.getByRole("table")).toBeAttached();
      expect(await sameDocument()).toBe(true);
      await expectAccessible(page);

      await dialog.getByRole("link", { name: "Close chart" }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page).not.toHaveURL(/chart=/);
      await expect(label).toBeFocused();

      const netIncome = row(table(page, "incomeStatement"), "net_income").getByRole("link", { name: en.rows.net_income });
      await netIncome.click();
      const second = page.getByRole("dialog", { name: en.rows.net_income });
      await expect(second.locator("canvas").first()).toBeVisible();
      await page.mouse.click(8, 8);
      await expect(second).toHaveCount(0);
      await expect(page).not.toHaveURL(/chart=/);

      await netIncome.click();
      await expect(second).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(second).toHaveCount(0);
      expect(await sameDocument()).toBe(true);
    });

    test("hovering a cell highlights its row and its column", async ({ page }) => {
      await page.goto(statementsUrl(subject.orgNumber));
      const income = table(page, "incomeStatement");
      const background = (l: Locator) => l.evaluate((el) => getComputedStyle(el).backgroundColor);
      const target = row(income, "operating_income").getByRole("cell").nth(1);
      const sameRow = row(income, "operating_income").getByRole("cell").nth(0);
      const sameColumn = row(income, "operating_profit").getByRole("cell").nth(1);
      const elsewhere = row(income, "operating_profit").getByRole("cell").nth(0);
      const plain = await background(elsewhere);
      await target.hover();
      await expect.poll(() => background(sameColumn)).not.toBe(plain);
      expect(await background(sameRow)).not.toBe(plain);
      expect(await background(elsewhere)).toBe(plain);
      expect(await background(target)).not.toBe(await background(sameRow));
      await expectAccessible(page);
    });
  });

  test.describe("without JavaScript", () => {
    test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the server-rendered fallback");

    test("a row label shows the figures as a table and the close link works", async ({ page }) => {
      await page.goto(statementsUrl(subject.orgNumber));
      await row(table(page, "keyFigures"), "operating_income").getByRole("link", { name: en.rows.operating_income }).click();
      await expect(page).toHaveURL(/chart=operating_income/);
      const dialog = page.getByRole("dialog", { name: en.rows.operating_income });
      await expect(dialog).toBeVisible();
      const figures = dialog.getByRole("table", { name: `${en.rows.operating_income} by year` });
      await expect(figures).toBeVisible();
      // Oldest → newest, like the chart.
      const oldestFirst = [...subject.statements].reverse();
      await expect(figures.getByRole("rowheader")).toHaveText(oldestFirst.map((s) => String(s.financial_year)));
      await expect(figures.getByRole("cell")).toHaveText(
        oldestFirst.map((s) => (isNum(s.operating_income) ? french(s.operating_income, { maximumFractionDigits: 0 }) : "—")),
      );
      await expect(dialog.locator("canvas")).toHaveCount(0);

      await dialog.getByRole("link", { name: "Close chart" }).click();
      await expect(page).not.toHaveURL(/chart=/);
      await expect(page).toHaveURL(/view=statements/);
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(table(page, "keyFigures")).toBeVisible();
    });
  });
});

test("a Norwegian user sees the Norwegian titles", async ({ page, context }) => {
  await signIn(context, await createUser({ language: "no" }));
  await page.goto(statementsUrl(subject.orgNumber));
  await expect(page.getByRole("heading", { name: "Regnskap", level: 2 })).toBeVisible();
  // The spec's titles, word for word (shared/spec/02-supplier-credit-connections.md §2).
  for (const title of ["Nøkkeltall", "Resultatregnskap", "Balanseregnskap"]) {
    await expect(page.getByRole("heading", { name: title, level: 3, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Tilbake til leverandøren" })).toBeVisible();
  await expect(page.getByText("Beløp i tusen NOK").first()).toBeVisible();
});
