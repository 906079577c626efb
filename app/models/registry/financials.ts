import type { Language } from "~/i18n";

/**
 * Financial statement rules (shared/spec/02-supplier-credit-connections.md §2 "Financial summary", §3, §9).
 * Pure: runs on the server and in the browser so both show the same figures.
 * Amounts are NOK thousands, the unit of Norwegian accounts data.
 */

export interface FinancialRiskScore {
  finalScore?: number | null;
  capitalRisk?: number | null;
  liquidityRisk?: number | null;
  coverageRisk?: number | null;
  profitabilityRisk?: number | null;
  growthRisk?: number | null;
}

type Amount = number | null;

export interface FinancialStatement {
  financial_year: number;
  operating_income?: Amount;
  other_operating_income?: Amount;
  cost_of_materials?: Amount;
  personnel_expenses?: Amount;
  other_operating_expenses?: Amount;
  depreciation?: Amount;
  /** The registry feed sometimes spells it this way; read through {@link statementValue}. */
  deprecation?: Amount;
  write_downs?: Amount;
  operating_profit?: Amount;
  financial_income?: Amount;
  other_financial_expenses?: Amount;
  financial_expenses?: Amount;
  ordinary_result_before_taxes?: Amount;
  taxes?: Amount;
  ordinary_result_after_taxes?: Amount;
  total_taxes?: Amount;
  net_income?: Amount;
  dividend?: Amount;
  intra_group_contribution?: Amount;
  transferred_equity?: Amount;
  loss_on_receivables?: Amount;
  fixed_assets?: Amount;
  intangible_assets?: Amount;
  deferred_tax_assets?: Amount;
  goodwill?: Amount;
  tangible_assets?: Amount;
  buildings_and_real_estate?: Amount;
  machinery_and_equipment?: Amount;
  fixed_financial_assets?: Amount;
  loan_to_group?: Amount;
  current_assets?: Amount;
  inventories?: Amount;
  receivables?: Amount;
  accounts_receivables?: Amount;
  short_term_investments?: Amount;
  cash_and_deposits?: Amount;
  total_assets?: Amount;
  equity?: Amount;
  paid_up_equity?: Amount;
  share_capital?: Amount;
  retained_earnings?: Amount;
  liabilities?: Amount;
  long_term_liabilities?: Amount;
  other_long_term_debt?: Amount;
  long_term_debt_to_group_companies?: Amount;
  subordinated_loan_cap?: Amount;
  total_current_debt?: Amount;
  overdrafts?: Amount;
  overdraft_facility?: Amount;
  trade_creditors?: Amount;
  value_added_taxes?: Amount;
  debt_dividend?: Amount;
  sales?: Amount;
  number_of_employees?: Amount;
  financial_risk_score?: FinancialRiskScore | null;
}

/** Every numeric line of a statement (the year and the score object are not lines). */
export type StatementField = Exclude<keyof FinancialStatement, "financial_year" | "financial_risk_score">;

/** Lines plus the derived figures the summary and the key-figure table show. */
export type FigureField = StatementField | "ebitda" | "operating_margin";

function finite(value: number | null | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * Reads one line; `depreciation` and `deprecation` are the same line under two
 * spellings, so asking for either finds whichever the feed used.
 */
export function statementValue(statement: FinancialStatement, field: StatementField): number | null {
  if (field === "depreciation" || field === "deprecation") {
    return finite(statement.depreciation) ?? finite(statement.deprecation);
  }
  return finite(statement[field]);
}

/**
 * EBITDA = operating profit + depreciation. Accounts leave out zero lines, so a
 * missing depreciation counts as 0; without an operating profit there is no EBITDA.
 */
export function ebitda(statement: FinancialStatement): number | null {
  const profit = finite(statement.operating_profit);
  if (profit === null) return null;
  return profit + (statementValue(statement, "depreciation") ?? 0);
}

/** Operating margin in percent; null when it cannot be computed (no income or income 0). */
export function operatingMarginPercent(statement: FinancialStatement): number | null {
  const income = finite(statement.operating_income);
  const profit = finite(statement.operating_profit);
  if (income === null || income === 0 || profit === null) return null;
  return (profit / income) * 100;
}

/** A line or a derived figure of one statement. */
export function figureValue(statement: FinancialStatement, field: FigureField): number | null {
  if (field === "ebitda") return ebitda(statement);
  if (field === "operating_margin") return operatingMarginPercent(statement);
  return statementValue(statement, field);
}

export type ChangeTone = "positive" | "negative";

export interface YearChange {
  /** Unrounded percent change. */
  percent: number;
  /** Signed, 1 decimal, locale-formatted, e.g. '+12.3%' or '−4.0%'. */
  text: string;
  /** 'positive' (green) only when the change is above 0, per shared/spec/02-supplier-credit-connections.md §9; 0 is 'negative' (red). */
  tone: ChangeTone;
}

/**
 * Percent change against the previous year, or null when there is nothing to
 * compare with (either value missing, or previous 0).
 * Divides by |previous| so that a loss shrinking (−100 → −50) reads as +50 %,
 * not −50 %: with a negative base the plain formula flips the sign.
 */
export function changeFromPreviousYear(current: number | null | undefined, previous: number | null | undefined, locale: Language = "en"): YearChange | null {
  const cur = finite(current);
  const prev = finite(previous);
  if (cur === null || prev === null || prev === 0) return null;
  const percent = ((cur - prev) / Math.abs(prev)) * 100;
  const text = new Intl.NumberFormat(locale, {
    style: "percent",
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: "exceptZero",
  }).format(percent / 100);
  return { percent, text, tone: percent > 0 ? "positive" : "negative" };
}

/** Newest year first, the order the statement tables use. Does not mutate the input. */
export function statementsNewestFirst<T extends FinancialStatement>(statements: readonly T[]): T[] {
  return [...statements].sort((a, b) => b.financial_year - a.financial_year);
}

export interface SeriesPoint {
  year: number;
  /** null leaves a gap in the chart rather than drawing a false 0. */
  value: number | null;
}

/** One row of the statement tables across the years, oldest → newest, for the line chart. */
export function financialSeries(statements: readonly FinancialStatement[], field: FigureField): SeriesPoint[] {
  return [...statements].sort((a, b) => a.financial_year - b.financial_year).map((s) => ({ year: s.financial_year, value: figureValue(s, field) }));
}

export interface SummaryFigure {
  field: FigureField;
  value: number | null;
  previous: number | null;
  change: YearChange | null;
}

export interface FinancialSummary {
  year: number;
  /** null when the statement of the year before the newest is not on file. */
  previousYear: number | null;
  figures: SummaryFigure[];
}

/**
 * Key figures of the newest statement with their change. "Previous year" means
 * exactly newest − 1: comparing against an older statement across a gap would
 * present a multi-year change as a yearly one.
 */
export function financialSummary(statements: readonly FinancialStatement[], fields: readonly FigureField[], locale: Language = "en"): FinancialSummary | null {
  const [newest] = statementsNewestFirst(statements);
  if (!newest) return null;
  const before = statements.find((s) => s.financial_year === newest.financial_year - 1) ?? null;
  return {
    year: newest.financial_year,
    previousYear: before ? before.financial_year : null,
    figures: fields.map((field) => {
      const value = figureValue(newest, field);
      const previous = before ? figureValue(before, field) : null;
      return { field, value, previous, change: changeFromPreviousYear(value, previous, locale) };
    }),
  };
}
