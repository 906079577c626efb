import { describe, expect, it } from "vitest";
import type { FinancialStatement } from "~/models/registry/financials";
import {
  BALANCE_SHEET,
  INCOME_STATEMENT,
  KEY_FIGURES,
  STATEMENT_TABLES,
  findRow,
  formatRowValue,
  rowSeries,
  rowValue,
  tableRows,
  visibleRows,
} from "./statement-rows";

/** The amount lines of shared/spec/02-supplier-credit-connections.md §3 "Financial statement", in the spec's order (deprecation is the alias of depreciation). */
const SPEC_FIELDS = `operating_income, other_operating_income, cost_of_materials, personnel_expenses, other_operating_expenses,
depreciation, write_downs, operating_profit, financial_income, other_financial_expenses, financial_expenses,
ordinary_result_before_taxes, taxes, ordinary_result_after_taxes, total_taxes, net_income, dividend,
intra_group_contribution, transferred_equity, loss_on_receivables, fixed_assets, intangible_assets, deferred_tax_assets,
goodwill, tangible_assets, buildings_and_real_estate, machinery_and_equipment, fixed_financial_assets, loan_to_group,
current_assets, inventories, receivables, accounts_receivables, short_term_investments, cash_and_deposits, total_assets,
equity, paid_up_equity, share_capital, retained_earnings, liabilities, long_term_liabilities, other_long_term_debt,
long_term_debt_to_group_companies, subordinated_loan_cap, total_current_debt, overdrafts, overdraft_facility,
trade_creditors, value_added_taxes, debt_dividend, sales, number_of_employees`
  .split(",")
  .map((f) => f.trim());

const fields = (table: typeof KEY_FIGURES) => tableRows(table).map((r) => r.field);
const NNBSP = "\u202f"; // groups thousands
const NBSP = "\u00a0"; // fr-FR puts it before %

describe("statement tables cover §3", () => {
  it("lists 53 amount lines plus the score object in the spec", () => {
    expect(SPEC_FIELDS).toHaveLength(53);
    expect(new Set(SPEC_FIELDS).size).toBe(53);
  });

  it("puts every §3 line in exactly one of the two statements, or (employees, risk score) in the key figures only", () => {
    const statementFields = [...fields(INCOME_STATEMENT), ...fields(BALANCE_SHEET)];
    const keyOnly = fields(KEY_FIGURES).filter((f) => !statementFields.includes(f));
    for (const field of [...SPEC_FIELDS, "financial_risk_score"]) {
      const places = [...statementFields, ...keyOnly].filter((f) => f === field);
      expect(places, field).toHaveLength(1);
    }
  });

  it("shows no field twice within one table and nothing that is neither in §3 nor derived", () => {
    const derived = ["ebitda", "operating_margin", "equity_ratio", "current_ratio", "financial_risk_score"];
    for (const table of STATEMENT_TABLES) {
      const list = fields(table);
      expect(new Set(list).size, table.id).toBe(list.length);
      for (const f of list) expect([...SPEC_FIELDS, ...derived], `${table.id}.${f}`).toContain(f);
    }
  });

  it("never shows the deprecation alias as a row", () => {
    for (const table of STATEMENT_TABLES) expect(fields(table)).not.toContain("deprecation");
  });

  it("keeps number of employees out of the statements (it is not an amount)", () => {
    expect(fields(INCOME_STATEMENT)).not.toContain("number_of_employees");
    expect(fields(BALANCE_SHEET)).not.toContain("number_of_employees");
    expect(findRow("number_of_employees")?.row.format).toBe("count");
  });
});

describe("order", () => {
  const before = (list: string[], a: string, b: string) => expect(list.indexOf(a), `${a} before ${b}`).toBeLessThan(list.indexOf(b));

  it("tables: key figures, income statement, balance sheet", () => {
    expect(STATEMENT_TABLES.map((t) => t.id)).toEqual(["keyFigures", "incomeStatement", "balanceSheet"]);
  });

  it("key figures in the order of the brief", () => {
    expect(fields(KEY_FIGURES)).toEqual([
      "operating_income",
      "operating_profit",
      "ebitda",
      "operating_margin",
      "net_income",
      "total_assets",
      "equity",
      "equity_ratio",
      "current_ratio",
      "number_of_employees",
      "financial_risk_score",
    ]);
  });

  it("income statement in accounting order: income, expenses, operating profit, financial items, taxes, net income, allocations", () => {
    const list = fields(INCOME_STATEMENT);
    before(list, "sales", "operating_income");
    before(list, "other_operating_income", "operating_income");
    before(list, "operating_income", "cost_of_materials");
    for (const expense of ["cost_of_materials", "personnel_expenses", "depreciation", "write_downs", "other_operating_expenses", "loss_on_receivables"]) {
      before(list, expense, "operating_profit");
    }
    before(list, "operating_profit", "financial_income");
    before(list, "other_financial_expenses", "financial_expenses");
    before(list, "financial_expenses", "ordinary_result_before_taxes");
    before(list, "ordinary_result_before_taxes", "taxes");
    before(list, "taxes", "ordinary_result_after_taxes");
    before(list, "ordinary_result_after_taxes", "net_income");
    before(list, "total_taxes", "net_income");
    for (const allocation of ["dividend", "intra_group_contribution", "transferred_equity"]) before(list, "net_income", allocation);
  });

  it("balance sheet: assets then equity and liabilities, each line before its sum", () => {
    expect(BALANCE_SHEET.groups.map((g) => g.heading)).toEqual(["assets", "equityAndLiabilities"]);
    const [assets, equityAndLiabilities] = BALANCE_SHEET.groups.map((g) => g.rows.map((r) => r.field));
    expect(assets.at(-1)).toBe("total_assets");
    expect(equityAndLiabilities.at(-1)).toBe("liabilities");
    before(assets, "goodwill", "intangible_assets");
    before(assets, "machinery_and_equipment", "tangible_assets");
    before(assets, "loan_to_group", "fixed_financial_assets");
    before(assets, "fixed_financial_assets", "fixed_assets");
    before(assets, "fixed_assets", "inventories");
    before(assets, "accounts_receivables", "receivables");
    before(assets, "cash_and_deposits", "current_assets");
    before(equityAndLiabilities, "share_capital", "paid_up_equity");
    before(equityAndLiabilities, "retained_earnings", "equity");
    before(equityAndLiabilities, "equity", "long_term_liabilities");
    before(equityAndLiabilities, "subordinated_loan_cap", "long_term_liabilities");
    before(equityAndLiabilities, "long_term_liabilities", "total_current_debt");
    before(equityAndLiabilities, "trade_creditors", "total_current_debt");
  });
});

describe("values", () => {
  const s2022: FinancialStatement = {
    financial_year: 2022,
    operating_income: 2000,
    operating_profit: 300,
    deprecation: 50,
    equity: 400,
    total_assets: 1000,
    current_assets: 600,
    total_current_debt: 400,
    financial_risk_score: { finalScore: 42.25 },
  };
  const s2023: FinancialStatement = { financial_year: 2023, operating_income: 0, operating_profit: -10, total_assets: 0 };

  it.each([
    ["ebitda", s2022, 350],
    ["operating_margin", s2022, 15],
    ["operating_margin", s2023, null],
    ["equity_ratio", s2022, 40],
    ["equity_ratio", s2023, null],
    ["current_ratio", s2022, 1.5],
    ["current_ratio", s2023, null],
    ["financial_risk_score", s2022, 42.25],
    ["financial_risk_score", s2023, null],
    ["depreciation", s2022, 50],
    ["goodwill", s2022, null],
  ] as const)("%s of %o is %s", (field, statement, expected) => {
    expect(rowValue(statement, field)).toBe(expected);
  });

  it("hides rows missing in every year", () => {
    const rows = visibleRows(tableRows(INCOME_STATEMENT), [s2022, s2023]).map((r) => r.field);
    expect(rows).toEqual(["operating_income", "depreciation", "operating_profit"]);
  });

  it("series run oldest → newest with gaps as null", () => {
    expect(rowSeries([s2023, s2022], "operating_margin")).toEqual([
      { year: 2022, value: 15 },
      { year: 2023, value: null },
    ]);
  });

  it.each([
    [1234567, "amount", `1${NNBSP}234${NNBSP}567`],
    [1234.4, "amount", `1${NNBSP}234`],
    [-98765, "amount", `-98${NNBSP}765`],
    [null, "amount", "—"],
    [12.345, "percent", `12,3${NBSP}%`],
    [-4, "percent", `-4,0${NBSP}%`],
    [null, "percent", "—"],
    [1.5, "ratio", "1,50"],
    [42, "count", "42"],
    [42.25, "score", "42,3"],
  ] as const)("%s as %s → %s", (value, format, text) => {
    expect(formatRowValue(value, format)).toBe(text);
  });
});
