import type { FinancialStatementTable } from "../../db-types";
import { sectorOf } from "./industry";
import { clamp, Rng } from "./random";

/**
 * Generated annual statements (NOK thousands) with the field names of shared/spec/02-supplier-credit-connections.md
 * §3. Each company is simulated year by year so that the years hang
 * together: revenue follows an industry growth path that ends at a size that
 * fits the registered staff, equity carries forward (equity = last year's
 * equity + net income − dividend − group contribution), and cash is the plug
 * that makes both sides of the balance sheet equal, so the identities hold
 * exactly in whole thousands:
 *
 *   operating_income = sales + other_operating_income
 *   operating_profit = operating_income − (cost_of_materials + personnel_expenses
 *                      + other_operating_expenses + depreciation + write_downs)
 *   ordinary_result_before_taxes = operating_profit + financial_income − financial_expenses
 *   net_income = ordinary_result_before_taxes − taxes (22 % of the taxable profit after losses carried forward)
 *   fixed_assets = intangible_assets + tangible_assets + fixed_financial_assets
 *   current_assets = inventories + receivables + short_term_investments + cash_and_deposits
 *   total_assets = fixed_assets + current_assets = equity + liabilities
 *   equity = paid_up_equity + retained_earnings;  liabilities = long_term_liabilities + total_current_debt
 *
 * "Of which" lines (goodwill and deferred tax assets in intangible assets,
 * loan to group in fixed financial assets, accounts receivable in
 * receivables, overdrafts and trade creditors in current debt, …) are parts
 * of their total, never added to it twice.
 */

type AmountColumn = {
  [K in keyof FinancialStatementTable]: FinancialStatementTable[K] extends number | null ? (K extends "company_id" | "financial_year" ? never : K) : never;
}[keyof FinancialStatementTable];

export type StatementValues = Record<AmountColumn, number> & { financial_year: number; financial_risk_score: string };

export interface StatementInput {
  /** Seeds the company's own random stream (the organisation number). */
  key: string;
  employees: number | null;
  industryCode: string | null;
  orgForm: string | null;
  firstYear: number;
  lastYear: number;
  /** Bankrupt, in liquidation or told to dissolve: shrinking and loss-making towards the end. */
  distressed?: boolean;
  /** Owned by another company: group loans and contributions appear. */
  inGroup?: boolean;
  /** Forces a story for demo companies; otherwise drawn at random. */
  trend?: "growing" | "steady" | "struggling";
}

export interface FinancialRiskScore {
  finalScore: number;
  capitalRisk: number;
  liquidityRisk: number;
  coverageRisk: number;
  profitabilityRisk: number;
  growthRisk: number;
}

/** Linear interpolation through (x, risk) points sorted by x; flat outside them. */
function curve(x: number, points: readonly (readonly [number, number])[]): number {
  if (x <= points[0][0]) return points[0][1];
  for (let i = 1; i < points.length; i++) {
    const [x1, y1] = points[i];
    if (x <= x1) {
      const [x0, y0] = points[i - 1];
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
    }
  }
  return points[points.length - 1][1];
}

/**
 * Financial risk score of one statement; every part is 0–100, higher = riskier.
 *
 *   capitalRisk       from the equity ratio  E = equity / total_assets:
 *                     E ≤ −10 % → 100, 0 % → 90, 10 % → 60, 20 % → 35, 30 % → 20, 50 % → 5, ≥ 70 % → 0
 *   liquidityRisk     from the current ratio C = current_assets / total_current_debt:
 *                     C ≤ 0.5 → 100, 0.8 → 75, 1.0 → 55, 1.5 → 25, 2.0 → 10, ≥ 3.0 → 0 (no current debt → 0)
 *   coverageRisk      from interest coverage I = operating_profit / financial_expenses:
 *                     I ≤ −2 → 100, 0 → 85, 1 → 65, 2 → 45, 4 → 20, 8 → 5, ≥ 15 → 0
 *                     (no financial expenses: 0 with an operating profit ≥ 0, else 85)
 *   profitabilityRisk from the operating margin M = operating_profit / operating_income:
 *                     M ≤ −20 % → 100, −5 % → 80, 0 % → 60, 3 % → 40, 8 % → 20, 15 % → 5, ≥ 25 % → 0
 *                     (no operating income: 50)
 *   growthRisk        from revenue growth G = operating_income / previous year's − 1:
 *                     G ≤ −30 % → 100, −15 % → 75, −5 % → 50, 0 % → 35, 5 % → 20, 15 % → 5, ≥ 30 % → 0
 *                     (no previous year or no previous income: 50)
 *   finalScore = 0.30 capital + 0.20 liquidity + 0.15 coverage + 0.25 profitability + 0.10 growth
 *
 * Linear between the points; each part and the final score rounded to whole numbers.
 * Solidity weighs most because it is what carries a supplier through a bad year.
 */
export function financialRiskScore(
  s: Pick<
    StatementValues,
    "equity" | "total_assets" | "current_assets" | "total_current_debt" | "operating_profit" | "financial_expenses" | "operating_income"
  >,
  previousOperatingIncome: number | null,
): FinancialRiskScore {
  const capitalRisk =
    s.total_assets > 0
      ? curve(s.equity / s.total_assets, [
          [-0.1, 100],
          [0, 90],
          [0.1, 60],
          [0.2, 35],
          [0.3, 20],
          [0.5, 5],
          [0.7, 0],
        ])
      : 100;
  const liquidityRisk =
    s.total_current_debt > 0
      ? curve(s.current_assets / s.total_current_debt, [
          [0.5, 100],
          [0.8, 75],
          [1, 55],
          [1.5, 25],
          [2, 10],
          [3, 0],
        ])
      : 0;
  const coverageRisk =
    s.financial_expenses > 0
      ? curve(s.operating_profit / s.financial_expenses, [
          [-2, 100],
          [0, 85],
          [1, 65],
          [2, 45],
          [4, 20],
          [8, 5],
          [15, 0],
        ])
      : s.operating_profit >= 0
        ? 0
        : 85;
  const profitabilityRisk =
    s.operating_income > 0
      ? curve(s.operating_profit / s.operating_income, [
          [-0.2, 100],
          [-0.05, 80],
          [0, 60],
          [0.03, 40],
          [0.08, 20],
          [0.15, 5],
          [0.25, 0],
        ])
      : 50;
  const growthRisk =
    previousOperatingIncome && previousOperatingIncome > 0
      ? curve(s.operating_income / previousOperatingIncome - 1, [
          [-0.3, 100],
          [-0.15, 75],
          [-0.05, 50],
          [0, 35],
          [0.05, 20],
          [0.15, 5],
          [0.3, 0],
        ])
      : 50;
  const parts = {
    capitalRisk: Math.round(capitalRisk),
    liquidityRisk: Math.round(liquidityRisk),
    coverageRisk: Math.round(coverageRisk),
    profitabilityRisk: Math.round(profitabilityRisk),
    growthRisk: Math.round(growthRisk),
  };
  const finalScore = Math.round(0.3 * capitalRisk + 0.2 * liquidityRisk + 0.15 * coverageRisk + 0.25 * profitabilityRisk + 0.1 * growthRisk);
  return { finalScore, ...parts };
}

function shareCapital(rng: Rng, employees: number, orgForm: string | null): number {
  if (orgForm === "ASA") return rng.pick([1000, 5000, 20000, 50000, 120000]);
  if (employees >= 100) return rng.pick([1000, 2000, 5000, 10000, 20000]);
  if (employees >= 20) return rng.pick([100, 200, 500, 1000]);
  return rng.pick([30, 30, 30, 100, 100, 200]);
}

export interface GeneratedAccounts {
  /** Oldest year first. */
  statements: StatementValues[];
  /** Capital the owners injected (NOK thousands), by year; announced as capital increases. */
  capitalIncreases: Array<{ year: number; amount: number }>;
}

export function generateStatements(input: StatementInput): GeneratedAccounts {
  const sector = sectorOf(input.industryCode);
  const rng = new Rng(`statements:${input.key}`);
  const years = input.lastYear - input.firstYear + 1;
  if (years <= 0) return { statements: [], capitalIncreases: [] };
  const staff = Math.max(0, input.employees ?? 0);
  const holdingLike = sector.key === "holding";

  const trend = input.distressed
    ? "struggling"
    : (input.trend ??
      rng.weighted([
        ["steady", 6],
        ["growing", 2.5],
        ["struggling", 1.5],
      ] as const));

  // Company traits: where this company sits inside its industry's spread.
  const scale = rng.logNormal(0.35);
  const materialTrait = rng.logNormal(0.12);
  const wageTrait = rng.logNormal(0.1);
  const assetTrait = rng.logNormal(0.35);
  const equityRatio0 = trend === "struggling" ? rng.range(0.05, 0.3) : clamp(rng.normal(0.38, 0.14), 0.06, 0.85);
  const leverage = sector.key === "real-estate" ? rng.range(0.35, 0.65) : rng.range(0, 0.6);
  const interestRate = rng.range(0.045, 0.075);
  // Asset-heavy businesses only survive with operating margins that also pay
  // their interest, so the expected interest burden is added to the margin.
  const assetsPerRevenue = holdingLike ? 0 : sector.fixedIntensity * assetTrait + sector.inventoryShare + sector.receivableDays / 365;
  const interestBurden = (1 - equityRatio0) * assetsPerRevenue * interestRate;
  let marginBase = sector.marginMean + rng.normal(0, sector.marginSd * 0.5) + 0.8 * interestBurden;
  let growthBase = sector.growthMean + rng.normal(0, sector.growthSd * 0.3);
  if (trend === "growing") growthBase = Math.max(growthBase, 0.08) + rng.range(0, 0.1);
  if (trend === "struggling") {
    growthBase = Math.min(growthBase, -0.04) - rng.range(0, 0.08);
    marginBase = Math.min(marginBase, 0.01) - rng.range(0.02, 0.06);
  }
  if (trend === "steady") marginBase = Math.max(marginBase, sector.marginMean * 0.5 + interestBurden);
  const otherIncomeShare = sector.key === "real-estate" ? 0 : rng.range(0, 0.03);
  const dpo = rng.range(25, 45);
  const overdraftFacility = rng.chance(0.45) ? 1 : 0;
  const recognisesDeferredTax = rng.chance(0.5);
  const hasGoodwill = rng.chance(holdingLike ? 0.1 : 0.3);
  const hasSubordinated = rng.chance(trend === "struggling" ? 0.3 : 0.04);
  const premiumFactor = rng.chance(0.4) ? rng.range(1.5, 6) : 1;
  const capital = shareCapital(rng, staff, input.orgForm);
  let paidUp = Math.round(capital * premiumFactor);
  const capitalIncreases: Array<{ year: number; amount: number }> = [];
  const currentRatioTarget = trend === "struggling" ? rng.range(0.6, 1.1) : clamp(rng.normal(1.5, 0.35), 0.8, 3);

  // Revenue path, built backwards from the last year so the newest year fits today's staff.
  const growth: number[] = [];
  for (let i = 0; i < years; i++) {
    let g = growthBase + rng.normal(0, sector.growthSd * 0.6);
    if (trend === "struggling") g -= (i / Math.max(1, years - 1)) * 0.05;
    growth.push(clamp(g, -0.45, 0.9));
  }
  const revenueLast = staff > 0 ? staff * sector.revenuePerEmployee * scale : rng.range(sector.microRevenue[0], sector.microRevenue[1]) * rng.logNormal(0.3);
  const revenue = new Array<number>(years);
  const staffByYear = new Array<number>(years);
  revenue[years - 1] = revenueLast;
  staffByYear[years - 1] = staff;
  for (let i = years - 1; i > 0; i--) {
    revenue[i - 1] = revenue[i] / (1 + growth[i]);
    staffByYear[i - 1] = Math.max(staff > 0 ? 1 : 0, Math.round(staffByYear[i] / (1 + growth[i] * 0.5)));
  }

  // Holdings are valued by what they own, not by what they sell.
  const holdingCapital = holdingLike ? rng.range(2000, 60000) * rng.logNormal(0.8) : 0;

  const out: StatementValues[] = [];
  let equity = 0;
  let previousDebt = 0;
  let previousCash = 0;
  let lossCarry = 0;
  let previousIncome: number | null = null;
  const mixJitter = sector.fixedMix.map((m) => m * rng.logNormal(0.2));
  const mixTotal = mixJitter.reduce((a, b) => a + b, 0) || 1;

  for (let i = 0; i < years; i++) {
    const year = input.firstYear + i;
    const yearsBack = input.lastYear - year;
    const sales = Math.max(0, Math.round(revenue[i]));
    const otherIncome = Math.round(sales * otherIncomeShare * rng.logNormal(0.3));
    const operatingIncome = sales + otherIncome;
    const employeesThisYear = staffByYear[i];

    // Fixed assets grow with the business.
    const fixedTotal = Math.max(holdingLike ? holdingCapital * (1 + 0.04 * i) : 50, revenue[i] * sector.fixedIntensity * assetTrait * (holdingLike ? 0 : 1));
    const part = (k: number) => Math.round((fixedTotal * mixJitter[k]) / mixTotal);
    const intangibleBase = part(0);
    const buildings = part(1);
    const machinery = part(2);
    const fixedFinancial = part(3);
    const goodwill = hasGoodwill ? Math.round(intangibleBase * rng.range(0.3, 0.8) + revenue[i] * 0.02) : 0;

    const depreciation = Math.round(buildings * 0.02 + machinery * rng.range(0.1, 0.18) + intangibleBase * 0.15 + goodwill * 0.1);
    const writeDowns = rng.chance(trend === "struggling" ? 0.25 : 0.04) ? Math.round(fixedTotal * rng.range(0.02, 0.1)) : 0;
    let margin = marginBase + rng.normal(0, sector.marginSd * 0.35);
    if (trend === "struggling") margin -= (i / Math.max(1, years - 1)) * 0.04;
    if (trend === "growing") margin = Math.max(margin, 0.01);
    margin = clamp(margin, input.distressed ? -0.35 : -0.15, 0.75);
    const minimumOther = Math.max(holdingLike ? 40 : 20, operatingIncome * 0.04);
    // What is left for goods and staff once the year's margin is taken: a company
    // whose industry averages would overspend pays its people and suppliers less.
    const room = operatingIncome * (1 - margin) - depreciation - writeDowns - minimumOther;
    let costOfMaterials = sales * sector.materialShare * materialTrait * rng.logNormal(0.03);
    let personnel = employeesThisYear * sector.wagePerEmployee * wageTrait * Math.pow(1.035, -yearsBack) * rng.logNormal(0.02);
    const wanted = costOfMaterials + personnel;
    if (wanted > room * 0.97 && wanted > 0) {
      const factor = Math.max(0.3, (room * 0.97) / wanted);
      costOfMaterials *= factor;
      personnel *= factor;
    }
    costOfMaterials = Math.round(costOfMaterials);
    personnel = Math.round(personnel);
    const otherOpex = Math.round(Math.max(minimumOther, operatingIncome * (1 - margin) - costOfMaterials - personnel - depreciation - writeDowns));
    const operatingExpenses = costOfMaterials + personnel + otherOpex + depreciation + writeDowns;
    const operatingProfit = operatingIncome - operatingExpenses;
    const lossOnReceivables = Math.round(otherOpex * rng.range(0, 0.015));

    const openingDebt = i === 0 ? leverage * (buildings + machinery) : previousDebt;
    const financialIncome = Math.round(
      (i === 0 ? revenue[i] * 0.05 : previousCash) * rng.range(0.01, 0.03) + (holdingLike ? fixedFinancial * rng.range(0.02, 0.09) : fixedFinancial * 0.02),
    );
    const financialExpenses = Math.round(openingDebt * interestRate);
    const otherFinancialExpenses = Math.round(financialExpenses * rng.range(0, 0.15));
    const netFinancial = financialIncome - financialExpenses;
    const resultBeforeTaxes = operatingProfit + netFinancial;

    let taxable = resultBeforeTaxes;
    if (taxable < 0) {
      lossCarry += -taxable;
      taxable = 0;
    } else {
      const used = Math.min(lossCarry, taxable);
      lossCarry -= used;
      taxable -= used;
    }
    const taxes = Math.round(taxable * 0.22);
    const netIncome = resultBeforeTaxes - taxes;

    const inventories = Math.round(sales * sector.inventoryShare * rng.logNormal(0.2));
    const accountsReceivable = Math.round((operatingIncome * sector.receivableDays * rng.logNormal(0.2)) / 365);
    const receivables = accountsReceivable + Math.round(accountsReceivable * rng.range(0.05, 0.3) + (holdingLike ? 20 : 0));
    const shortTermInvestments = rng.chance(0.12) ? Math.round(revenue[i] * rng.range(0.01, 0.08)) : 0;
    const deferredTaxAssets = recognisesDeferredTax ? Math.round(lossCarry * 0.22) : 0;
    const intangible = intangibleBase + goodwill + deferredTaxAssets;
    const loanToGroup = input.inGroup && fixedFinancial > 0 ? Math.round(fixedFinancial * rng.range(0, 0.5)) : 0;
    const tangible = buildings + machinery;
    const fixedAssets = intangible + tangible + fixedFinancial;

    let dividend = 0;
    let groupContribution = 0;
    if (i === 0) {
      equity = Math.round((fixedAssets + inventories + receivables) * equityRatio0);
    } else {
      if (netIncome > 0 && equity > paidUp * 1.5 && trend !== "struggling" && rng.chance(0.55)) dividend = Math.round(netIncome * rng.range(0.2, 0.8));
      if (input.inGroup && netIncome > dividend && rng.chance(0.35)) groupContribution = Math.round((netIncome - dividend) * rng.range(0.2, 0.6));
      equity = equity + netIncome - dividend - groupContribution;
    }
    // Owners of a going concern put in new capital rather than let equity stay negative.
    if (equity < 0 && !input.distressed && rng.chance(0.75)) {
      const injection = Math.round(-equity + (fixedAssets + inventories + receivables) * rng.range(0.05, 0.2));
      paidUp += injection;
      equity += injection;
      capitalIncreases.push({ year, amount: injection });
    }
    const retained = equity - paidUp;

    const tradeCreditors = Math.round(((costOfMaterials + otherOpex) * dpo) / 365);
    const publicDuties = Math.round(sales * (sector.key === "real-estate" || holdingLike ? 0.005 : rng.range(0.02, 0.04)) + personnel * 0.08);
    const otherCurrent = Math.round(personnel * 0.12 + operatingIncome * 0.01);
    const nonInterestCurrent = tradeCreditors + publicDuties + taxes + dividend + otherCurrent;

    const minimumCash = Math.round(
      Math.max(operatingIncome * rng.range(0.02, 0.06) + 50, currentRatioTarget * nonInterestCurrent - inventories - receivables - shortTermInvestments),
    );
    const nonCashAssets = fixedAssets + inventories + receivables + shortTermInvestments;
    const debtBase = Math.round(leverage * tangible);
    const debtNeeded = nonCashAssets + minimumCash - equity - nonInterestCurrent;
    const debt = Math.max(debtBase, debtNeeded, 0);
    const facility = overdraftFacility ? Math.round(Math.max(operatingIncome, 1000) * rng.range(0.03, 0.1)) : 0;
    const overdrafts = facility > 0 ? Math.min(facility, Math.round(debt * rng.range(0, 0.25))) : 0;
    const longTerm = debt - overdrafts;
    const groupDebt = input.inGroup ? Math.round(longTerm * rng.range(0.2, 0.8)) : 0;
    const subordinated = hasSubordinated ? Math.round((longTerm - groupDebt) * rng.range(0.05, 0.2)) : 0;
    const otherLongTerm = longTerm - groupDebt - subordinated;
    const currentDebt = nonInterestCurrent + overdrafts;
    const cash = equity + nonInterestCurrent + debt - nonCashAssets;
    const currentAssets = inventories + receivables + shortTermInvestments + cash;
    const totalAssets = fixedAssets + currentAssets;
    const liabilities = longTerm + currentDebt;

    const values = {
      financial_year: year,
      operating_income: operatingIncome,
      other_operating_income: otherIncome,
      cost_of_materials: costOfMaterials,
      personnel_expenses: personnel,
      other_operating_expenses: otherOpex,
      depreciation,
      write_downs: writeDowns,
      operating_expenses: operatingExpenses,
      operating_profit: operatingProfit,
      financial_income: financialIncome,
      other_financial_expenses: otherFinancialExpenses,
      financial_expenses: financialExpenses,
      net_financial_items: netFinancial,
      ordinary_result_before_taxes: resultBeforeTaxes,
      taxes,
      total_taxes: taxes,
      ordinary_result_after_taxes: netIncome,
      net_income: netIncome,
      total_result: netIncome,
      dividend,
      intra_group_contribution: groupContribution,
      transferred_equity: netIncome - dividend - groupContribution,
      loss_on_receivables: lossOnReceivables,
      fixed_assets: fixedAssets,
      intangible_assets: intangible,
      deferred_tax_assets: deferredTaxAssets,
      goodwill,
      tangible_assets: tangible,
      buildings_and_real_estate: buildings,
      machinery_and_equipment: machinery,
      fixed_financial_assets: fixedFinancial,
      loan_to_group: loanToGroup,
      current_assets: currentAssets,
      inventories,
      receivables,
      accounts_receivables: accountsReceivable,
      short_term_investments: shortTermInvestments,
      cash_and_deposits: cash,
      total_assets: totalAssets,
      equity,
      paid_up_equity: paidUp,
      share_capital: capital,
      retained_earnings: retained,
      liabilities,
      long_term_liabilities: longTerm,
      other_long_term_debt: otherLongTerm,
      long_term_debt_to_group_companies: groupDebt,
      subordinated_loan_cap: subordinated,
      total_current_debt: currentDebt,
      overdrafts,
      overdraft_facility: facility,
      trade_creditors: tradeCreditors,
      value_added_taxes: publicDuties,
      debt_dividend: dividend,
      sales,
      number_of_employees: employeesThisYear,
      total_equity_and_liabilities: equity + liabilities,
    };
    const score = financialRiskScore(values, previousIncome);
    out.push({ ...values, financial_risk_score: JSON.stringify(score) });
    previousIncome = operatingIncome;
    previousDebt = debt;
    previousCash = cash;
  }
  return { statements: out, capitalIncreases };
}
