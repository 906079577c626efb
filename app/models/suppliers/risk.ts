import { statementsNewestFirst, type FinancialRiskScore, type FinancialStatement } from "~/models/registry/financials";

/**
 * Risk rules of the supplier view (shared/spec/02-supplier-credit-connections.md §4, §6, §9; shared/spec/01-shell-chat-lei.md §9).
 * Pure, so the server and the browser compute the same result. Functions return
 * keys ('High', 'red', { status: 'bankrupt' }), never translated text: the
 * caller picks the words from the locales.
 */

/** Colour names as the UI maps them onto badge classes; 'neutral' means "no rating". */
export type RiskColor = "green" | "lime" | "yellow" | "orange" | "red" | "neutral";

// ── Announcements ───────────────────────────────────────────────────────────

export type AnnouncementRiskLabel = "High" | "Medium" | "Low";

export interface AnnouncementRiskScores {
  operational_risk?: number | null;
  legal_risk?: number | null;
}

export interface Announcement {
  /** ISO date (YYYY-MM-DD) or timestamp. */
  date: string;
  risk: number;
  type?: string;
  detail?: string;
  risk_scores?: AnnouncementRiskScores | null;
}

/** 3 or more High, 2 Medium, anything else Low. */
export function announcementRiskLabel(risk: number): AnnouncementRiskLabel {
  if (risk >= 3) return "High";
  if (risk >= 2) return "Medium";
  return "Low";
}

export const ANNOUNCEMENT_WINDOW_YEARS = 2;

/**
 * First day that still counts as "the last 2 years": the calendar date two years
 * before `now`, at 00:00 UTC. Announcement dates are usually bare dates, so a
 * day-level boundary keeps an announcement of exactly two years ago in the window
 * whatever the time of day `now` is.
 */
export function announcementWindowStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear() - ANNOUNCEMENT_WINDOW_YEARS, now.getUTCMonth(), now.getUTCDate()));
}

/**
 * 2/3 of the maximum plus 1/3 of the mean of the scores, 0 without scores.
 * The maximum dominates so that one serious announcement is not averaged away.
 */
function peakWeightedScore(scores: readonly number[]): number {
  if (scores.length === 0) return 0;
  const max = Math.max(...scores);
  const mean = scores.reduce((sum, s) => sum + s, 0) / scores.length;
  return (2 / 3) * max + (1 / 3) * mean;
}

/**
 * Announcements dated inside the window that carry the score, with that score. Announcements without
 * it are left out rather than counted as 0, which would dilute the mean.
 */
function windowScored<T extends Announcement>(announcements: readonly T[], now: Date, pick: (scores: AnnouncementRiskScores) => number | null | undefined) {
  const start = announcementWindowStart(now).getTime();
  const out: Array<{ announcement: T; score: number }> = [];
  for (const a of announcements) {
    const at = Date.parse(a.date);
    if (Number.isNaN(at) || at < start) continue;
    const score = a.risk_scores ? pick(a.risk_scores) : undefined;
    if (typeof score === "number" && Number.isFinite(score)) out.push({ announcement: a, score });
  }
  return out;
}

const PICK_ANNOUNCEMENT_SCORE = {
  operational: (s: AnnouncementRiskScores) => s.operational_risk,
  legal: (s: AnnouncementRiskScores) => s.legal_risk,
} as const;

export type AnnouncementRiskKind = keyof typeof PICK_ANNOUNCEMENT_SCORE;

/** An operational or legal risk with its inputs: the first day of the window and the announcements that counted, with their scores. */
export interface AnnouncementRiskExplained<T> {
  score: number;
  /** ISO date (YYYY-MM-DD) of the window's first day. */
  windowStart: string;
  counted: Array<{ announcement: T; score: number }>;
}

/** Operational or legal risk (shared/spec/02-supplier-credit-connections.md §9) and the announcements of the 2-year window it was computed from. */
export function explainAnnouncementRisk<T extends Announcement>(
  announcements: readonly T[],
  now: Date,
  kind: AnnouncementRiskKind,
): AnnouncementRiskExplained<T> {
  const counted = windowScored(announcements, now, PICK_ANNOUNCEMENT_SCORE[kind]);
  return {
    score: peakWeightedScore(counted.map((c) => c.score)),
    windowStart: announcementWindowStart(now).toISOString().slice(0, 10),
    counted,
  };
}

/** Operational risk from announcements of the last 2 years before `now`. */
export function operationalRisk(announcements: readonly Announcement[], now: Date): number {
  return explainAnnouncementRisk(announcements, now, "operational").score;
}

/** Legal risk from announcements of the last 2 years before `now`. */
export function legalRisk(announcements: readonly Announcement[], now: Date): number {
  return explainAnnouncementRisk(announcements, now, "legal").score;
}

// ── Reputation ──────────────────────────────────────────────────────────────

export interface ReputationNotification {
  risk_score: number;
}

export const REPUTATION_MIN_SCORE = 20;
const REPUTATION_TOP_COUNT = 5;
const REPUTATION_TOP_WEIGHT = 0.6;
const REPUTATION_REST_WEIGHT = 0.4;

const mean = (xs: readonly number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;

/** A reputation risk with its inputs: how many notifications counted (score ≥ 20), the highest, and the dates they span. */
export interface ReputationRiskExplained {
  score: number;
  count: number;
  highest: number | null;
  /** Dates (as given) of the oldest and newest counted notification; null when none has a date. */
  oldest: string | null;
  newest: string | null;
}

/**
 * Reputation risk from notifications, with its inputs. Only scores of 20 or more count (the API
 * is asked for minRiskScore=20, but the filter is repeated so any list works).
 * More than 5: mean of the 5 highest × 0.6 + mean of the rest × 0.4, so the worst
 * news weighs most; 5 or fewer: a plain mean; none: 0.
 */
export function explainReputationRisk(notifications: ReadonlyArray<ReputationNotification & { date?: string | null }>): ReputationRiskExplained {
  const counted = notifications.filter((n) => Number.isFinite(n.risk_score) && n.risk_score >= REPUTATION_MIN_SCORE);
  const scores = counted.map((n) => n.risk_score).sort((a, b) => b - a);
  const dates = counted.flatMap((n) => (n.date ? [n.date] : [])).sort();
  const score =
    scores.length === 0
      ? 0
      : scores.length <= REPUTATION_TOP_COUNT
        ? mean(scores)
        : mean(scores.slice(0, REPUTATION_TOP_COUNT)) * REPUTATION_TOP_WEIGHT + mean(scores.slice(REPUTATION_TOP_COUNT)) * REPUTATION_REST_WEIGHT;
  return { score, count: scores.length, highest: scores[0] ?? null, oldest: dates[0] ?? null, newest: dates.at(-1) ?? null };
}

/** Reputation risk from notifications (see {@link explainReputationRisk}). */
export function reputationRisk(notifications: readonly ReputationNotification[]): number {
  return explainReputationRisk(notifications).score;
}

// ── Colour scales ───────────────────────────────────────────────────────────

export type RiskBand = "green" | "yellow" | "red";

/** Three-band colour of a 0..100 risk (shared/spec/02-supplier-credit-connections.md §9): up to 33 green, up to 66 yellow, above red. */
export function riskBandColor(risk: number): RiskBand {
  if (risk <= 33) return "green";
  if (risk <= 66) return "yellow";
  return "red";
}

/** The band's level word (shared/spec/02-supplier-credit-connections.md §9): green low, yellow medium, red high; the lists' risk filter uses the words. */
export const RISK_BAND_LEVEL = { green: "low", yellow: "medium", red: "high" } as const satisfies Record<RiskBand, string>;

/** Five-step colour of a notification risk score (shared/spec/01-shell-chat-lei.md §9). */
export function notificationRiskColor(score: number): Exclude<RiskColor, "neutral"> {
  if (score >= 80) return "red";
  if (score >= 60) return "orange";
  if (score >= 40) return "yellow";
  if (score >= 20) return "lime";
  return "green";
}

/**
 * Colour of the 10-year change of CO2 intensity in percent: a falling intensity
 * (below −10) is good, a rise above 25 is bad. Missing data gets no colour.
 */
export function co2PerGdpColor(value: number | null | undefined): RiskColor {
  if (typeof value !== "number" || !Number.isFinite(value)) return "neutral";
  if (value < -10) return "lime";
  if (value <= 10) return "yellow";
  if (value <= 25) return "orange";
  return "red";
}

const PRIORITY_COLORS: Record<number, RiskColor> = { 1: "lime", 2: "green", 3: "yellow", 4: "orange", 5: "red" };

/** Casefile priority 1..5; anything else (missing, 0, 6, 2.5) is shown neutral. */
export function casefilePriorityColor(priority: number | null | undefined): RiskColor {
  return (priority != null && PRIORITY_COLORS[priority]) || "neutral";
}

// ── Financial risk ──────────────────────────────────────────────────────────

/** The newest statement's score object and that statement's year (shared/spec/02-supplier-credit-connections.md §7, §9); both null when it has no score. */
export function explainFinancialRisk(statements: readonly FinancialStatement[]): { score: FinancialRiskScore | null; year: number | null } {
  const [newest] = statementsNewestFirst(statements);
  const score = newest?.financial_risk_score ?? null;
  return { score, year: score ? newest.financial_year : null };
}

/** The newest statement's score object (shared/spec/02-supplier-credit-connections.md §7, §9); null when it has none. */
export function financialRisk(statements: readonly FinancialStatement[]): FinancialRiskScore | null {
  return explainFinancialRisk(statements).score;
}

// ── Board and roles ─────────────────────────────────────────────────────────

export interface BoardMember {
  person?: string;
  name: string;
  position?: string | null;
  boardscore?: number | null;
  organization_name?: string;
  active_from?: string | null;
  active_to?: string | null;
}

/**
 * Board members by boardscore, highest first; equal scores keep their order
 * (Array.prototype.sort is stable) and members without a score go last.
 * Returns a new array.
 */
export function sortBoardByScore<T extends { boardscore?: number | null }>(members: readonly T[]): T[] {
  const score = (m: T) => (typeof m.boardscore === "number" && Number.isFinite(m.boardscore) ? m.boardscore : -Infinity);
  return [...members].sort((a, b) => {
    const sa = score(a);
    const sb = score(b);
    return sa === sb ? 0 : sb > sa ? 1 : -1;
  });
}

const CEO_MARKERS = ["ceo", "adm. direktør"];
const CHAIRMAN_MARKERS = ["chairman", "styreleder"];

function positionMatches(position: string | null | undefined, markers: readonly string[]): boolean {
  if (!position) return false;
  // The spec leaves case open; registry positions come in any case ("Styreleder", "CEO").
  const p = position.toLocaleLowerCase("nb");
  return markers.some((m) => p.includes(m));
}

/** Position contains 'ceo' or 'adm. direktør', ignoring case (shared/spec/02-supplier-credit-connections.md §6). */
export function isCeo(position: string | null | undefined): boolean {
  return positionMatches(position, CEO_MARKERS);
}

/** Position contains 'chairman' or 'styreleder', ignoring case (shared/spec/02-supplier-credit-connections.md §6). */
export function isChairman(position: string | null | undefined): boolean {
  return positionMatches(position, CHAIRMAN_MARKERS);
}

export interface RoleOrganisation {
  date_of_bankruptcy?: string | null;
  is_active?: boolean | null;
}

export type RoleOrganisationStatus = { status: "bankrupt"; date: string } | { status: "inactive" } | { status: "active" };

/**
 * Status of the organisation behind a person's role (shared/spec/02-supplier-credit-connections.md §4). A bankruptcy
 * date wins over is_active; only an explicit false is Inactive, since a record
 * without the flag is an ordinary live company.
 */
export function roleOrganisationStatus(org: RoleOrganisation): RoleOrganisationStatus {
  const date = org.date_of_bankruptcy?.trim();
  if (date) return { status: "bankrupt", date };
  if (org.is_active === false) return { status: "inactive" };
  return { status: "active" };
}
