import { describe, expect, it } from "vitest";
import type { FinancialStatement } from "~/models/registry/financials";
import {
  announcementRiskLabel,
  announcementWindowStart,
  casefilePriorityColor,
  co2PerGdpColor,
  financialRisk,
  isCeo,
  isChairman,
  legalRisk,
  notificationRiskColor,
  operationalRisk,
  reputationRisk,
  riskBandColor,
  roleOrganisationStatus,
  sortBoardByScore,
  type Announcement,
} from "~/models/suppliers/risk";

describe("announcementRiskLabel (shared/spec/02-supplier-credit-connections.md §9: 3+ High, 2 Medium, else Low)", () => {
  it.each([
    [0, "Low"],
    [1, "Low"],
    [2, "Medium"],
    [3, "High"],
    [4, "High"],
  ] as const)("risk %d → %s", (risk, label) => {
    expect(announcementRiskLabel(risk)).toBe(label);
  });
});

describe("operational and legal risk (last 2 years, 2/3 max + 1/3 mean)", () => {
  // Window start for this `now` is 2023-06-15T00:00:00Z.
  const now = new Date("2025-06-15T12:00:00Z");
  const a = (date: string, operational_risk?: number, legal_risk?: number): Announcement => ({
    date,
    risk: 1,
    risk_scores: { operational_risk, legal_risk },
  });

  it("starts the window at 00:00 UTC of the same calendar day two years back", () => {
    expect(announcementWindowStart(now).toISOString()).toBe("2023-06-15T00:00:00.000Z");
  });

  it.each([
    // name, announcements, operational, legal
    ["no announcements", [], 0, 0],
    // max 6, mean (6+3+0)/3=3 → 4 + 1 = 5; legal max 9, mean 4 → 6 + 4/3
    ["three inside", [a("2025-01-01", 6, 3), a("2024-03-10", 3, 9), a("2023-07-01", 0, 0)], 5, 6 + 4 / 3],
    ["single: score is the value itself", [a("2024-01-01", 7, 2)], 7, 2],
    ["exactly two years ago (bare date) is inside", [a("2023-06-15", 9, 6)], 9, 6],
    ["first instant of the boundary day is inside", [a("2023-06-15T00:00:00Z", 9, 6)], 9, 6],
    ["one day older is outside", [a("2023-06-14", 9, 6)], 0, 0],
    ["last second before the boundary is outside", [a("2023-06-14T23:59:59Z", 9, 6)], 0, 0],
    // outside one (100) ignored: inside [6,3] → max 6, mean 4.5 → 4 + 1.5 = 5.5; legal [0,3] → 2 + 0.5
    ["outside one does not count", [a("2023-06-14", 100, 100), a("2025-06-01", 6, 0), a("2023-06-15", 3, 3)], 5.5, 2.5],
    // announcement without legal score is left out of legal, kept for operational: [4,1] → 8/3 + 5/6
    ["missing score is skipped, not 0", [a("2025-01-01", 4, 3), a("2025-01-02", 1)], 8 / 3 + 5 / 6, 3],
    ["invalid date is skipped", [a("not a date", 9, 9)], 0, 0],
  ])("%s", (_name, list, operational, legal) => {
    expect(operationalRisk(list, now)).toBeCloseTo(operational, 10);
    expect(legalRisk(list, now)).toBeCloseTo(legal, 10);
  });

  it("ignores announcements without a risk_scores object", () => {
    expect(operationalRisk([{ date: "2025-01-01", risk: 3 }], now)).toBe(0);
  });
});

describe("reputationRisk (scores ≥ 20; top 5 × 0.6 + rest × 0.4 when more than 5)", () => {
  const n = (...scores: number[]) => scores.map((risk_score) => ({ risk_score }));

  it.each([
    ["0 notifications", n(), 0],
    // plain mean (20+50+80)/3
    ["3 notifications", n(20, 50, 80), 50],
    // plain mean (20+30+40+50+60)/5
    ["5 notifications", n(60, 20, 40, 50, 30), 40],
    // top5 (100+90+80+70+60)/5 = 80 → 48; rest 30 → 12
    ["6 notifications", n(30, 100, 60, 90, 70, 80), 60],
    // top5 (95+85+75+65+55)/5 = 75 → 45; rest (45+35+25+21+20)/5 = 29.2 → 11.68
    ["10 notifications", n(20, 95, 45, 85, 21, 75, 35, 65, 25, 55), 56.68],
    // 19 and 5 do not count: the 10 above again
    ["10 counting + 2 below 20", n(19, 20, 95, 45, 85, 21, 5, 75, 35, 65, 25, 55), 56.68],
    // 6 given but the 19 drops out → 5 left → plain mean (20+40+60+80+100)/5
    ["6 given, one below 20", n(19, 20, 40, 60, 80, 100), 60],
    ["all below 20", n(0, 10, 19), 0],
  ])("%s → %d", (_name, list, expected) => {
    expect(reputationRisk(list)).toBeCloseTo(expected, 10);
  });
});

describe("riskBandColor (shared/spec/02-supplier-credit-connections.md §9: ≤33 green, ≤66 yellow, >66 red)", () => {
  it.each([
    [0, "green"],
    [33, "green"],
    [34, "yellow"],
    [66, "yellow"],
    [67, "red"],
    [100, "red"],
  ] as const)("%d → %s", (risk, color) => {
    expect(riskBandColor(risk)).toBe(color);
  });
});

describe("notificationRiskColor (shared/spec/01-shell-chat-lei.md §9: 80 red, 60 orange, 40 yellow, 20 lime)", () => {
  it.each([
    [0, "green"],
    [19, "green"],
    [20, "lime"],
    [39, "lime"],
    [40, "yellow"],
    [59, "yellow"],
    [60, "orange"],
    [79, "orange"],
    [80, "red"],
    [100, "red"],
  ] as const)("%d → %s", (score, color) => {
    expect(notificationRiskColor(score)).toBe(color);
  });
});

describe("co2PerGdpColor (below −10 lime; −10..10 yellow; >10..25 orange; >25 red)", () => {
  it.each([
    [-50, "lime"],
    [-10.01, "lime"],
    [-10, "yellow"],
    [0, "yellow"],
    [10, "yellow"],
    [10.01, "orange"],
    [25, "orange"],
    [25.01, "red"],
    [80, "red"],
    [null, "neutral"],
    [undefined, "neutral"],
    [Number.NaN, "neutral"],
  ] as const)("%s → %s", (value, color) => {
    expect(co2PerGdpColor(value)).toBe(color);
  });
});

describe("casefilePriorityColor (1 lime, 2 green, 3 yellow, 4 orange, 5 red, else neutral)", () => {
  it.each([
    [0, "neutral"],
    [1, "lime"],
    [2, "green"],
    [3, "yellow"],
    [4, "orange"],
    [5, "red"],
    [6, "neutral"],
    [2.5, "neutral"],
    [-1, "neutral"],
    [null, "neutral"],
    [undefined, "neutral"],
  ] as const)("%s → %s", (priority, color) => {
    expect(casefilePriorityColor(priority)).toBe(color);
  });
});

describe("financialRisk (newest statement's score object)", () => {
  const score = (finalScore: number) => ({
    finalScore,
    capitalRisk: 1,
    liquidityRisk: 2,
    coverageRisk: 3,
    profitabilityRisk: 4,
    growthRisk: 5,
  });

  it.each([
    ["no statements", [], null],
    ["one statement", [{ financial_year: 2023, financial_risk_score: score(40) }], score(40)],
    [
      "newest by year, whatever the order",
      [
        { financial_year: 2021, financial_risk_score: score(10) },
        { financial_year: 2023, financial_risk_score: score(30) },
        { financial_year: 2022, financial_risk_score: score(20) },
      ],
      score(30),
    ],
    [
      "newest without a score gives null (no fallback to older years)",
      [{ financial_year: 2023 }, { financial_year: 2022, financial_risk_score: score(20) }],
      null,
    ],
  ] as [string, FinancialStatement[], ReturnType<typeof score> | null][])("%s", (_name, statements, expected) => {
    expect(financialRisk(statements)).toEqual(expected);
  });
});

describe("sortBoardByScore (boardscore descending, stable)", () => {
  it("sorts highest first, keeps ties in input order and puts missing scores last", () => {
    const board = [
      { name: "A", boardscore: 10 },
      { name: "B", boardscore: 50 },
      { name: "C", boardscore: null },
      { name: "D", boardscore: 10 },
      { name: "E", boardscore: 80 },
      { name: "F" },
      { name: "G", boardscore: 50 },
    ];
    expect(sortBoardByScore(board).map((m) => m.name)).toEqual(["E", "B", "G", "A", "D", "C", "F"]);
    expect(board[0].name).toBe("A");
  });
});

describe("isCeo / isChairman (shared/spec/02-supplier-credit-connections.md §6, case-insensitive)", () => {
  it.each([
    ["CEO", true, false],
    ["Group ceo", true, false],
    ["Adm. direktør", true, false],
    ["ADM. DIREKTØR", true, false],
    ["Chairman of the Board", false, true],
    ["Styreleder", false, true],
    ["STYRELEDER", false, true],
    ["Styremedlem", false, false],
    ["Daglig leder", false, false],
    ["", false, false],
    [null, false, false],
    [undefined, false, false],
  ] as const)("%s → ceo %s, chairman %s", (position, ceo, chairman) => {
    expect(isCeo(position)).toBe(ceo);
    expect(isChairman(position)).toBe(chairman);
  });
});

describe("roleOrganisationStatus (shared/spec/02-supplier-credit-connections.md §4)", () => {
  it.each([
    ["bankruptcy date wins over is_active", { date_of_bankruptcy: "2023-04-01", is_active: true }, { status: "bankrupt", date: "2023-04-01" }],
    ["bankrupt and inactive", { date_of_bankruptcy: "2022-01-31", is_active: false }, { status: "bankrupt", date: "2022-01-31" }],
    ["inactive", { date_of_bankruptcy: null, is_active: false }, { status: "inactive" }],
    ["empty bankruptcy date is no bankruptcy", { date_of_bankruptcy: "", is_active: false }, { status: "inactive" }],
    ["active", { is_active: true }, { status: "active" }],
    ["no flags at all is active", {}, { status: "active" }],
    ["is_active null is active", { is_active: null }, { status: "active" }],
  ] as const)("%s", (_name, org, expected) => {
    expect(roleOrganisationStatus(org)).toEqual(expected);
  });
});
