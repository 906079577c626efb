import type { FinancialStatement } from "./financials";
import {
  financialRisk,
  legalRisk,
  operationalRisk,
  reputationRisk,
  riskBandColor,
  type Announcement,
  type ReputationNotification,
  type RiskBand,
} from "./risk";
import { selfAssessmentRisk } from "./supplier-task-list";

/**
 * One overall risk per followed supplier (decision 036). Pure, so the stored value
 * (app/models/overall-risk.server.ts) and the supplier screen use the same rule.
 * Keys only, never translated text.
 */

export const OVERALL_RISK_LINES = ["credit", "geography", "reputation", "operational", "legal", "selfAssessment"] as const;
export type OverallRiskLineKey = (typeof OVERALL_RISK_LINES)[number];
export type OverallRiskLines = Record<OverallRiskLineKey, number | null>;

/** What the supplier screen's risk overview is computed from (the screen's data and the stored recomputation both have it). */
export interface RiskOverviewInputs {
  statements: readonly FinancialStatement[];
  countryRiskScore: number | null | undefined;
  /** The organisation's notifications about the company (reputation). */
  notifications: readonly ReputationNotification[];
  announcements: ReadonlyArray<Pick<Announcement, "date" | "risk" | "risk_scores">>;
  /** This organisation's surveys to the supplier (self-assessment). */
  surveys: ReadonlyArray<{ score: number | null; submittedAt: string | null }>;
}

/**
 * The supplier screen's risk overview lines (spec 02 §7, §9; decision 034), each 0–100 or null
 * ("Not available"). The single place that turns the screen's inputs into lines; the announcement
 * window is counted in whole UTC days from `now` (announcementWindowStart).
 */
export function riskOverviewLines(input: RiskOverviewInputs, now: Date): OverallRiskLines {
  const announcements = input.announcements.map((a) => ({ date: a.date, risk: a.risk, risk_scores: a.risk_scores }));
  return {
    credit: financialRisk(input.statements)?.finalScore ?? null,
    geography: input.countryRiskScore ?? null,
    reputation: reputationRisk(input.notifications),
    operational: operationalRisk(announcements, now),
    legal: legalRisk(announcements, now),
    selfAssessment: selfAssessmentRisk(input.surveys),
  };
}

// ── The overall rule ────────────────────────────────────────────────────────

export type OverallRiskFlag = "bankrupt" | "liquidation" | "inactive";

export interface OverallRiskFlags {
  bankrupt?: boolean;
  /** Under voluntary or forced liquidation, or being dissolved. */
  underLiquidation?: boolean;
  /** Inactive or deleted in the register. */
  inactive?: boolean;
}

/** A flag sets a floor under the score: a bankrupt company is 100, one being wound up at least 90, an inactive one at least 80. */
export const FLAG_FLOORS: Record<OverallRiskFlag, number> = { bankrupt: 100, liquidation: 90, inactive: 80 };
/** A line above this counts as high (spec 02 §9: above 66 is red). */
export const HIGH_LINE = 66;
/** Each further high line beyond the highest one raises the score by this much. */
export const HIGH_LINE_STEP = 5;

export type OverallRiskReason = { kind: "line"; key: OverallRiskLineKey; value: number } | { kind: "flag"; flag: OverallRiskFlag; value: number };

export interface OverallRisk {
  /** 0–100, or null when no line is known and no flag is set. */
  score: number | null;
  band: RiskBand | null;
  /** What decided the score, most decisive first. */
  reasons: OverallRiskReason[];
}

const clamp = (n: number) => Math.min(100, Math.max(0, Math.round(n)));

/**
 * The overall risk (decision 036): the highest line, plus 5 for each further line above 66, at most 100;
 * a flag raises it to its floor (bankrupt 100, under liquidation 90, inactive 80). Lines are rounded to
 * whole numbers first, as the screen shows them, so the 33/34 and 66/67 boundaries are the visible ones.
 * Reasons: the deciding flag alone when its floor is at or above the lines' score; otherwise the highest
 * line and then every further high line, highest first (ties in the lines' fixed order).
 */
export function overallRisk(lines: Partial<OverallRiskLines>, flags: OverallRiskFlags = {}): OverallRisk {
  const known = OVERALL_RISK_LINES.flatMap((key) => {
    const v = lines[key];
    return typeof v === "number" && Number.isFinite(v) ? [{ kind: "line" as const, key, value: clamp(v) }] : [];
  }).sort((a, b) => b.value - a.value);

  let lineScore: number | null = null;
  let lineReasons: OverallRiskReason[] = [];
  if (known.length > 0) {
    const [top, ...rest] = known;
    const furtherHigh = rest.filter((l) => l.value > HIGH_LINE);
    lineScore = Math.min(100, top.value + HIGH_LINE_STEP * furtherHigh.length);
    lineReasons = [top, ...furtherHigh];
  }

  const flag: OverallRiskFlag | null = flags.bankrupt ? "bankrupt" : flags.underLiquidation ? "liquidation" : flags.inactive ? "inactive" : null;
  if (flag && (lineScore === null || FLAG_FLOORS[flag] >= lineScore)) {
    const score = FLAG_FLOORS[flag];
    return { score, band: riskBandColor(score), reasons: [{ kind: "flag", flag, value: score }] };
  }
  if (lineScore === null) return { score: null, band: null, reasons: [] };
  return { score: lineScore, band: riskBandColor(lineScore), reasons: lineReasons };
}
