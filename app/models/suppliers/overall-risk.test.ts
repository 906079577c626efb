import { describe, expect, it } from "vitest";
import { explainRiskOverview, overallRisk, riskOverviewLines } from "~/models/suppliers/overall-risk";

describe("overall risk of a supplier (decision 036)", () => {
  it.each([
    // No line known, no flag: not available.
    { lines: {}, score: null, band: null },
    { lines: { credit: null, geography: null }, score: null, band: null },
    // One line: its value and its band; the spec's boundaries 33/34 and 66/67.
    { lines: { credit: 0 }, score: 0, band: "green" },
    { lines: { credit: 33 }, score: 33, band: "green" },
    { lines: { credit: 34 }, score: 34, band: "yellow" },
    { lines: { geography: 66 }, score: 66, band: "yellow" },
    { lines: { geography: 67 }, score: 67, band: "red" },
    // Lines are rounded as the screen shows them: 33.4 is 33 (green), 66.5 is 67 (red).
    { lines: { reputation: 33.4 }, score: 33, band: "green" },
    { lines: { reputation: 66.5 }, score: 67, band: "red" },
    // The highest line decides; lines at or below 66 do not add.
    { lines: { credit: 20, geography: 50, legal: 66 }, score: 66, band: "yellow" },
    // A further line at exactly 66 does not step, one at 67 does.
    { lines: { credit: 70, legal: 66 }, score: 70, band: "red" },
    { lines: { credit: 70, legal: 67 }, score: 75, band: "red" },
    // Every further high line adds 5 (90 + 3 × 5 = 105, capped at 100).
    { lines: { credit: 70, legal: 80, operational: 67, selfAssessment: 90 }, score: 100, band: "red" },
    { lines: { credit: 68, legal: 67, operational: 67 }, score: 78, band: "red" },
    // Capped at 100.
    { lines: { credit: 100, legal: 100 }, score: 100, band: "red" },
    // Out-of-scale inputs are clamped.
    { lines: { credit: 140 }, score: 100, band: "red" },
    { lines: { credit: -5 }, score: 0, band: "green" },
    // The self-assessment line counts like the others.
    { lines: { credit: 10, selfAssessment: 60 }, score: 60, band: "yellow" },
  ] as const)("$lines → $score", ({ lines, score, band }) => {
    const result = overallRisk(lines);
    expect(result.score).toBe(score);
    expect(result.band).toBe(band);
  });

  it("gives the highest line, then each further high line, as the reasons, highest first", () => {
    expect(overallRisk({ credit: 70, geography: 20, legal: 80, operational: 67, selfAssessment: 66 }).reasons).toEqual([
      { kind: "line", key: "legal", value: 80 },
      { kind: "line", key: "credit", value: 70 },
      { kind: "line", key: "operational", value: 67 },
    ]);
    expect(overallRisk({ credit: 10, geography: 30 }).reasons).toEqual([{ kind: "line", key: "geography", value: 30 }]);
    expect(overallRisk({}).reasons).toEqual([]);
  });

  it.each([
    // Bankrupt is 100 whatever the lines, also with none known.
    { lines: {}, flags: { bankrupt: true }, score: 100, flag: "bankrupt" },
    { lines: { credit: 5 }, flags: { bankrupt: true }, score: 100, flag: "bankrupt" },
    { lines: { credit: 5 }, flags: { bankrupt: true, underLiquidation: true, inactive: true }, score: 100, flag: "bankrupt" },
    // Under liquidation: at least 90.
    { lines: {}, flags: { underLiquidation: true }, score: 90, flag: "liquidation" },
    { lines: { credit: 20 }, flags: { underLiquidation: true }, score: 90, flag: "liquidation" },
    { lines: { credit: 90 }, flags: { underLiquidation: true }, score: 90, flag: "liquidation" },
    { lines: { credit: 20 }, flags: { underLiquidation: true, inactive: true }, score: 90, flag: "liquidation" },
    // Inactive or deleted: at least 80.
    { lines: {}, flags: { inactive: true }, score: 80, flag: "inactive" },
    { lines: { credit: 79 }, flags: { inactive: true }, score: 80, flag: "inactive" },
    { lines: { credit: 80 }, flags: { inactive: true }, score: 80, flag: "inactive" },
  ] as const)("flag $flags with $lines → $score", ({ lines, flags, score, flag }) => {
    const result = overallRisk(lines, flags);
    expect(result.score).toBe(score);
    expect(result.band).toBe("red");
    expect(result.reasons).toEqual([{ kind: "flag", flag, value: score }]);
  });

  it("keeps the lines' score and reasons when they are above a flag's floor", () => {
    expect(overallRisk({ credit: 95 }, { underLiquidation: true })).toEqual({
      score: 95,
      band: "red",
      reasons: [{ kind: "line", key: "credit", value: 95 }],
    });
    expect(overallRisk({ credit: 81 }, { inactive: true }).score).toBe(81);
    expect(overallRisk({ credit: 80, legal: 70 }, { inactive: true }).reasons.map((r) => r.kind)).toEqual(["line", "line"]);
  });
});

describe("the supplier screen's risk overview lines", () => {
  const now = new Date("2026-06-15T12:00:00Z");
  it("computes every line from the screen's inputs with the rules of app/models/suppliers/risk.ts", () => {
    const lines = riskOverviewLines(
      {
        statements: [{ financial_year: 2025, financial_risk_score: { finalScore: 42 } }],
        countryRiskScore: 12,
        notifications: [{ risk_score: 94 }, { risk_score: 10 }],
        announcements: [
          { date: "2026-01-01", risk: 3, risk_scores: { operational_risk: 60, legal_risk: 30 } },
          { date: "2020-01-01", risk: 3, risk_scores: { operational_risk: 100, legal_risk: 100 } },
        ],
        surveys: [{ score: 80, submittedAt: "2026-05-01T00:00:00Z" }],
      },
      now,
    );
    expect(lines).toEqual({ credit: 42, geography: 12, reputation: 94, operational: 60, legal: 30, selfAssessment: 20 });
    expect(overallRisk(lines).score).toBe(94);
  });

  it("has null where the screen shows Not available", () => {
    const lines = riskOverviewLines({ statements: [], countryRiskScore: null, notifications: [], announcements: [], surveys: [] }, now);
    expect(lines).toEqual({ credit: null, geography: null, reputation: 0, operational: 0, legal: 0, selfAssessment: null });
  });

  it("explains each line with the inputs its rule used, and the values are the lines'", () => {
    const inputs = {
      statements: [
        { financial_year: 2024, financial_risk_score: { finalScore: 70 } },
        { financial_year: 2025, financial_risk_score: { finalScore: 42 } },
      ],
      countryRiskScore: 12,
      notifications: [
        { risk_score: 94, date: "2026-05-02" },
        { risk_score: 30, date: "2026-03-01" },
        { risk_score: 10, date: "2026-06-01" },
      ],
      announcements: [
        { date: "2026-01-01", risk: 3, type: "Konkursåpning", risk_scores: { operational_risk: 60, legal_risk: 30 } },
        { date: "2024-06-15", risk: 1, type: "Endring", risk_scores: { operational_risk: 0 } },
        { date: "2024-06-14", risk: 3, type: "Gammel", risk_scores: { operational_risk: 100, legal_risk: 100 } },
      ],
      surveys: [
        { id: 1, score: 80, submittedAt: "2026-05-01T00:00:00Z" },
        { id: 2, score: 40, submittedAt: "2026-02-01T00:00:00Z" },
        { id: 3, score: null, submittedAt: null },
      ],
    };
    const e = explainRiskOverview(inputs, now);
    expect(e.credit).toEqual({ value: 42, year: 2025 });
    expect(e.geography).toEqual({ value: 12 });
    // 2 of 3 count (score ≥ 20); the 10 is left out of the count and of the dates.
    expect(e.reputation).toEqual({ value: 62, count: 2, highest: 94, oldest: "2026-03-01", newest: "2026-05-02" });
    // The window starts on 2024-06-15 (whole UTC days): that day counts, the day before does not.
    expect(e.operational.windowStart).toBe("2024-06-15");
    expect(e.operational.counted.map((c) => [c.announcement.type, c.score])).toEqual([
      ["Konkursåpning", 60],
      ["Endring", 0],
    ]);
    expect(e.legal.counted.map((c) => [c.announcement.type, c.score])).toEqual([["Konkursåpning", 30]]);
    expect(e.selfAssessment.value).toBe(20);
    expect(e.selfAssessment.survey?.id).toBe(1);
    const lines = riskOverviewLines(inputs, now);
    expect(lines).toEqual({
      credit: e.credit.value,
      geography: e.geography.value,
      reputation: e.reputation.value,
      operational: e.operational.value,
      legal: e.legal.value,
      selfAssessment: e.selfAssessment.value,
    });
  });

  it("explains an empty screen: nothing counted, no year, no survey", () => {
    const e = explainRiskOverview({ statements: [{ financial_year: 2025 }], countryRiskScore: null, notifications: [], announcements: [], surveys: [] }, now);
    expect(e.credit).toEqual({ value: null, year: null });
    expect(e.reputation).toEqual({ value: 0, count: 0, highest: null, oldest: null, newest: null });
    expect(e.operational.counted).toEqual([]);
    expect(e.selfAssessment).toEqual({ value: null, survey: null });
  });
});
