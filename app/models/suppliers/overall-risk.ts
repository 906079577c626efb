import type { FinancialStatement } from "~/models/registry/financials";
import {
  explainAnnouncementRisk,
  explainFinancialRisk,
  explainReputationRisk,
  riskBandColor,
  type Announcement,
  type AnnouncementRiskExplained,
  type ReputationNotification,
  type ReputationRiskExplained,
  type RiskBand,
} from "~/models/suppliers/risk";
import { explainSelfAssessmentRisk } from "~/models/tasks/task-list";

/**
 * One overall risk per followed supplier (decision 036). Pure, so the stored value
 * (app/models/suppliers/overall-risk.server.ts) and the supplier screen use the same rule.
 * Keys only, never translated text.
 */

export const OVERALL_RISK_LINES = ["credit", "geography", "reputation", "operational", "legal", "selfAssessment"] as const;
export type OverallRiskLineKey = (typeof OVERALL_RISK_LINES)[number];
export type OverallRiskLines = Record<OverallRiskLineKey, number | null>;

/** What the supplier screen's risk overview is computed from (the screen's data and the stored recomputation both have it). */
export interface RiskOverviewInputs<S extends SurveyInput = SurveyInput, A extends AnnouncementInput = AnnouncementInput> {
  statements: readonly FinancialStatement[];
  countryRiskScore: number | null | undefined;
  /** The organisation's notifications about the company (reputation); the date only explains. */
  notifications: ReadonlyArray<ReputationNotification & { date?: string | null }>;
  announcements: readonly A[];
  /** This organisation's surveys to the supplier (self-assessment). */
  surveys: readonly S[];
}

type SurveyInput = { score: number | null; submittedAt: string | null };
type AnnouncementInput = Pick<Announcement, "date" | "risk" | "risk_scores" | "type">;

/** Each line's value with the inputs behind it, for the screen's "why" (the same rules, so the value is the line's). */
export interface RiskOverviewExplanation<S extends SurveyInput = SurveyInput, A extends AnnouncementInput = AnnouncementInput> {
  credit: { value: number | null; year: number | null };
  geography: { value: number | null };
  reputation: { value: number } & Omit<ReputationRiskExplained, "score">;
  operational: { value: number } & Omit<AnnouncementRiskExplained<A>, "score">;
  legal: { value: number } & Omit<AnnouncementRiskExplained<A>, "score">;
  selfAssessment: { value: number | null; survey: (S & { score: number; submittedAt: string }) | null };
}

/**
 * The supplier screen's risk overview lines (shared/spec/02-supplier-credit-connections.md §7, §9; decision 034), each 0–100 or null
 * ("Not available"), with the inputs each was computed from. The single place that turns the
 * screen's inputs into lines; the announcement window is counted in whole UTC days from `now`
 * (announcementWindowStart).
 */
export function explainRiskOverview<S extends SurveyInput, A extends AnnouncementInput>(
  input: RiskOverviewInputs<S, A>,
  now: Date,
): RiskOverviewExplanation<S, A> {
  const credit = explainFinancialRisk(input.statements);
  const { score: reputation, ...reputationInputs } = explainReputationRisk(input.notifications);
  const { score: operational, ...operationalInputs } = explainAnnouncementRisk(input.announcements, now, "operational");
  const { score: legal, ...legalInputs } = explainAnnouncementRisk(input.announcements, now, "legal");
  const self = explainSelfAssessmentRisk(input.surveys);
  return {
    credit: { value: credit.score?.finalScore ?? null, year: credit.score?.finalScore == null ? null : credit.year },
    geography: { value: input.countryRiskScore ?? null },
    reputation: { value: reputation, ...reputationInputs },
    operational: { value: operational, ...operationalInputs },
    legal: { value: legal, ...legalInputs },
    selfAssessment: { value: self.risk, survey: self.survey },
  };
}

/** The risk overview's lines alone (see {@link explainRiskOverview}). */
export function riskOverviewLines(input: RiskOverviewInputs, now: Date): OverallRiskLines {
  const e = explainRiskOverview(input, now);
  return {
    credit: e.credit.value,
    geography: e.geography.value,
    reputation: e.reputation.value,
    operational: e.operational.value,
    legal: e.legal.value,
    selfAssessment: e.selfAssessment.value,
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
/** A line above this counts as high (shared/spec/02-supplier-credit-connections.md §9: above 66 is red). */
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
