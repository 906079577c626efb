import { describe, expect, it } from "vitest";
import {
  changeFromPreviousYear,
  ebitda,
  figureValue,
  financialSeries,
  financialSummary,
  operatingMarginPercent,
  statementValue,
  statementsNewestFirst,
  type FinancialStatement,
} from "~/models/registry/financials";

// Norwegian output uses U+2212 for minus and U+00A0 before the percent sign.
const MINUS = "\u2212";
const NBSP = "\u00a0";

describe("ebitda = operating_profit + depreciation (either spelling)", () => {
  it.each<[string, FinancialStatement, number | null]>([
    ["depreciation", { financial_year: 2023, operating_profit: 1_000, depreciation: 250 }, 1_250],
    ["deprecation spelling", { financial_year: 2023, operating_profit: 1_000, deprecation: 250 }, 1_250],
    ["depreciation wins when both are given", { financial_year: 2023, operating_profit: 1_000, depreciation: 250, deprecation: 999 }, 1_250],
    ["null depreciation falls back to deprecation", { financial_year: 2023, operating_profit: 1_000, depreciation: null, deprecation: 40 }, 1_040],
    ["negative operating profit", { financial_year: 2023, operating_profit: -500, depreciation: 200 }, -300],
    ["no depreciation line counts as 0", { financial_year: 2023, operating_profit: 700 }, 700],
    ["no operating profit → null", { financial_year: 2023, depreciation: 200 }, null],
    ["operating profit null → null", { financial_year: 2023, operating_profit: null, depreciation: 200 }, null],
  ])("%s → %s", (_name, statement, expected) => {
    expect(ebitda(statement)).toBe(expected);
  });

  it("statementValue reads depreciation under either name", () => {
    const s: FinancialStatement = { financial_year: 2023, deprecation: 12 };
    expect(statementValue(s, "depreciation")).toBe(12);
    expect(statementValue(s, "deprecation")).toBe(12);
  });
});

describe("changeFromPreviousYear (1 decimal, positive green only when > 0)", () => {
  it.each([
    // current, previous, locale, percent, text, tone
    [110, 100, "en", 10, "+10.0%", "positive"],
    [112.34, 100, "en", 12.34, "+12.3%", "positive"],
    [90, 100, "en", -10, "-10.0%", "negative"],
    [100, 100, "en", 0, "0.0%", "negative"],
    // shows 0.0 (Intl drops the sign of a rounded zero) but is above 0, so green per the spec
    [100.04, 100, "en", 0.04, "0.0%", "positive"],
    [99.96, 100, "en", -0.04, "0.0%", "negative"],
    [300, 100, "en", 200, "+200.0%", "positive"],
    [0, 100, "en", -100, "-100.0%", "negative"],
    // loss shrinking from −100 to −50 is an improvement: divide by |previous|
    [-50, -100, "en", 50, "+50.0%", "positive"],
    [-150, -100, "en", -50, "-50.0%", "negative"],
    [50, -100, "en", 150, "+150.0%", "positive"],
    [96, 100, "no", -4, `${MINUS}4,0${NBSP}%`, "negative"],
    [150, 100, "no", 50, `+50,0${NBSP}%`, "positive"],
  ] as const)("%d vs %d (%s) → %s", (current, previous, locale, percent, text, tone) => {
    const change = changeFromPreviousYear(current, previous, locale);
    expect(change).not.toBeNull();
    expect(change!.percent).toBeCloseTo(percent, 10);
    expect(change!.text).toBe(text);
    expect(change!.tone).toBe(tone);
  });

  it.each([
    [100, 0],
    [100, null],
    [100, undefined],
    [null, 100],
    [undefined, 100],
    [Number.NaN, 100],
  ])("%s vs %s → null", (current, previous) => {
    expect(changeFromPreviousYear(current, previous)).toBeNull();
  });
});

describe("operatingMarginPercent = operating_profit / operating_income × 100", () => {
  it.each<[FinancialStatement, number | null]>([
    [{ financial_year: 2023, operating_profit: 150, operating_income: 1_000 }, 15],
    [{ financial_year: 2023, operating_profit: -50, operating_income: 400 }, -12.5],
    [{ financial_year: 2023, operating_profit: 1, operating_income: 3 }, 100 / 3],
    [{ financial_year: 2023, operating_profit: 0, operating_income: 500 }, 0],
    [{ financial_year: 2023, operating_profit: 150, operating_income: 0 }, null],
    [{ financial_year: 2023, operating_profit: 150, operating_income: null }, null],
    [{ financial_year: 2023, operating_profit: 150 }, null],
    [{ financial_year: 2023, operating_income: 1_000 }, null],
  ])("%o → %s", (statement, expected) => {
    const margin = operatingMarginPercent(statement);
    if (expected === null) expect(margin).toBeNull();
    else expect(margin).toBeCloseTo(expected, 10);
  });
});

const statements: FinancialStatement[] = [
  { financial_year: 2021, operating_income: 800, operating_profit: 80, deprecation: 20, total_assets: 500 },
  { financial_year: 2023, operating_income: 1_100, operating_profit: 110, depreciation: 40, total_assets: null },
  { financial_year: 2022, operating_income: 1_000, operating_profit: 100, depreciation: 30, total_assets: 600 },
];

describe("statementsNewestFirst", () => {
  it("orders by financial_year descending without touching the input", () => {
    expect(statementsNewestFirst(statements).map((s) => s.financial_year)).toEqual([2023, 2022, 2021]);
    expect(statements.map((s) => s.financial_year)).toEqual([2021, 2023, 2022]);
  });

  it("returns an empty list for no statements", () => {
    expect(statementsNewestFirst([])).toEqual([]);
  });
});

describe("financialSeries (oldest → newest, for the chart)", () => {
  it.each([
    ["operating_income", [800, 1_000, 1_100]],
    ["total_assets", [500, 600, null]],
    ["depreciation", [20, 30, 40]],
    ["ebitda", [100, 130, 150]],
    ["operating_margin", [10, 10, 10]],
    ["net_income", [null, null, null]],
  ] as const)("%s", (field, values) => {
    expect(financialSeries(statements, field)).toEqual([
      { year: 2021, value: values[0] },
      { year: 2022, value: values[1] },
      { year: 2023, value: values[2] },
    ]);
  });

  it("figureValue gives the same derived figures", () => {
    expect(figureValue(statements[1], "ebitda")).toBe(150);
    expect(figureValue(statements[1], "operating_margin")).toBe(10);
  });
});

describe("financialSummary", () => {
  it("compares the newest year with the year before", () => {
    const summary = financialSummary(statements, ["operating_income", "ebitda", "total_assets"]);
    expect(summary).toEqual({
      year: 2023,
      previousYear: 2022,
      figures: [
        { field: "operating_income", value: 1_100, previous: 1_000, change: { percent: 10, text: "+10.0%", tone: "positive" } },
        // 150 vs 130 → +15.384…%
        { field: "ebitda", value: 150, previous: 130, change: { percent: expect.closeTo(15.3846, 3), text: "+15.4%", tone: "positive" } },
        { field: "total_assets", value: null, previous: 600, change: null },
      ],
    });
  });

  it("has no change when the year before the newest is missing", () => {
    const gap = [statements[0], statements[1]]; // 2021 and 2023
    const summary = financialSummary(gap, ["operating_income"]);
    expect(summary?.previousYear).toBeNull();
    expect(summary?.figures).toEqual([{ field: "operating_income", value: 1_100, previous: null, change: null }]);
  });

  it("is null without statements", () => {
    expect(financialSummary([], ["operating_income"])).toBeNull();
  });
});
