import { figureValue, type FinancialStatement, type StatementField } from "~/models/registry/financials";
import { formatFrenchNumber } from "~/models/shared/format";

/**
 * Which rows the three tables of the full financial statements page have
 * (shared/spec/02-supplier-credit-connections.md "Full financial statements page", §3 Financial statement), in
 * Norwegian accounting order: items before the sum they add up to.
 *
 * The income statement and the balance sheet between them hold every amount
 * line of §3 exactly once; the key figures repeat the headline lines and add
 * the derived ratios, the number of employees and the financial risk score.
 * `deprecation` is only another spelling of `depreciation` and is read
 * through it (statementValue), so it is never a row of its own.
 */

/** Figures the key-figure table derives; they are not lines of a statement. */
export type DerivedField = "ebitda" | "operating_margin" | "equity_ratio" | "current_ratio";

/** What a row shows: a statement line, a derived figure, or the risk score's finalScore. */
export type RowField = Exclude<StatementField, "deprecation"> | DerivedField | "financial_risk_score";

/**
 * amount: NOK thousands, whole numbers · percent: 1 decimal and '%' ·
 * ratio: 2 decimals · count: whole number · score: up to 1 decimal.
 */
export type RowFormat = "amount" | "percent" | "ratio" | "count" | "score";

/** item: a line · subtotal: a sum of the lines above it · total: a main sum (bold). */
export type RowKind = "item" | "subtotal" | "total";

export interface StatementRow {
  field: RowField;
  format: RowFormat;
  kind: RowKind;
}

export interface StatementGroup {
  /** Locale key under `groups.` of a heading row, or null for rows without a heading. */
  heading: "assets" | "equityAndLiabilities" | null;
  rows: StatementRow[];
}

export type StatementTableId = "keyFigures" | "incomeStatement" | "balanceSheet";

export interface StatementTable {
  id: StatementTableId;
  groups: StatementGroup[];
}

const amount = (field: RowField, kind: RowKind = "item"): StatementRow => ({ field, format: "amount", kind });

export const KEY_FIGURES: StatementTable = {
  id: "keyFigures",
  groups: [
    {
      heading: null,
      rows: [
        amount("operating_income"),
        amount("operating_profit"),
        amount("ebitda"),
        { field: "operating_margin", format: "percent", kind: "item" },
        amount("net_income"),
        amount("total_assets"),
        amount("equity"),
        { field: "equity_ratio", format: "percent", kind: "item" },
        { field: "current_ratio", format: "ratio", kind: "item" },
        { field: "number_of_employees", format: "count", kind: "item" },
        { field: "financial_risk_score", format: "score", kind: "item" },
      ],
    },
  ],
};

export const INCOME_STATEMENT: StatementTable = {
  id: "incomeStatement",
  groups: [
    {
      heading: null,
      rows: [
        amount("sales"),
        amount("other_operating_income"),
        amount("operating_income", "subtotal"),
        amount("cost_of_materials"),
        amount("personnel_expenses"),
        amount("depreciation"),
        amount("write_downs"),
        amount("loss_on_receivables"),
        amount("other_operating_expenses"),
        amount("operating_profit", "total"),
        amount("financial_income"),
        amount("other_financial_expenses"),
        amount("financial_expenses", "subtotal"),
        amount("ordinary_result_before_taxes", "total"),
        amount("taxes"),
        amount("ordinary_result_after_taxes", "subtotal"),
        amount("total_taxes"),
        amount("net_income", "total"),
        amount("dividend"),
        amount("intra_group_contribution"),
        amount("transferred_equity"),
      ],
    },
  ],
};

export const BALANCE_SHEET: StatementTable = {
  id: "balanceSheet",
  groups: [
    {
      heading: "assets",
      rows: [
        amount("deferred_tax_assets"),
        amount("goodwill"),
        amount("intangible_assets", "subtotal"),
        amount("buildings_and_real_estate"),
        amount("machinery_and_equipment"),
        amount("tangible_assets", "subtotal"),
        amount("loan_to_group"),
        amount("fixed_financial_assets", "subtotal"),
        amount("fixed_assets", "total"),
        amount("inventories"),
        amount("accounts_receivables"),
        amount("receivables", "subtotal"),
        amount("short_term_investments"),
        amount("cash_and_deposits"),
        amount("current_assets", "total"),
        amount("total_assets", "total"),
      ],
    },
    {
      heading: "equityAndLiabilities",
      rows: [
        amount("share_capital"),
        amount("paid_up_equity", "subtotal"),
        amount("retained_earnings", "subtotal"),
        amount("equity", "total"),
        amount("other_long_term_debt"),
        amount("long_term_debt_to_group_companies"),
        amount("subordinated_loan_cap"),
        amount("long_term_liabilities", "subtotal"),
        amount("overdrafts"),
        amount("overdraft_facility"),
        amount("trade_creditors"),
        amount("value_added_taxes"),
        amount("debt_dividend"),
        amount("total_current_debt", "subtotal"),
        amount("liabilities", "total"),
      ],
    },
  ],
};

/** The page's tables, in the order they are shown. */
export const STATEMENT_TABLES: readonly StatementTable[] = [KEY_FIGURES, INCOME_STATEMENT, BALANCE_SHEET];

export function tableRows(table: StatementTable): StatementRow[] {
  return table.groups.flatMap((g) => g.rows);
}

/** The first row showing `field` (key figures before the statements), or null for an unknown field. */
export function findRow(field: string | null | undefined): { table: StatementTable; row: StatementRow } | null {
  if (!field) return null;
  for (const table of STATEMENT_TABLES) {
    const row = tableRows(table).find((r) => r.field === field);
    if (row) return { table, row };
  }
  return null;
}

function finite(value: number | null | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** a / b, or null when either is missing or b is 0. */
function ratio(a: number | null, b: number | null): number | null {
  if (a === null || b === null || b === 0) return null;
  return a / b;
}

/** One cell: the row's value in one statement, or null when it is missing or cannot be computed. */
export function rowValue(statement: FinancialStatement, field: RowField): number | null {
  switch (field) {
    case "equity_ratio": {
      const r = ratio(finite(statement.equity), finite(statement.total_assets));
      return r === null ? null : r * 100;
    }
    case "current_ratio":
      return ratio(finite(statement.current_assets), finite(statement.total_current_debt));
    case "financial_risk_score":
      return finite(statement.financial_risk_score?.finalScore);
    default:
      return figureValue(statement, field);
  }
}

/** Rows with at least one value among the statements (a row missing in every year is hidden). */
export function visibleRows(rows: readonly StatementRow[], statements: readonly FinancialStatement[]): StatementRow[] {
  return rows.filter((row) => statements.some((s) => rowValue(s, row.field) !== null));
}

export interface RowPoint {
  year: number;
  value: number | null;
}

/** One row across the years, oldest → newest: what the chart draws. */
export function rowSeries(statements: readonly FinancialStatement[], field: RowField): RowPoint[] {
  return [...statements].sort((a, b) => a.financial_year - b.financial_year).map((s) => ({ year: s.financial_year, value: rowValue(s, field) }));
}

/** A cell's text: French number formatting (narrow no-break spaces, decimal comma), '—' when missing. */
export function formatRowValue(value: number | null | undefined, format: RowFormat): string {
  switch (format) {
    case "percent":
      return typeof value === "number" && Number.isFinite(value)
        ? formatFrenchNumber(value / 100, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 })
        : formatFrenchNumber(null);
    case "ratio":
      return formatFrenchNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    case "score":
      return formatFrenchNumber(value, { maximumFractionDigits: 1 });
    case "amount":
    case "count":
      return formatFrenchNumber(value, { maximumFractionDigits: 0 });
  }
}
