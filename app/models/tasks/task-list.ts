import { riskBandColor, type RiskBand } from "~/models/suppliers/risk";
import type { StatusFilter } from "~/models/tasks/task-states";

/**
 * The customer's list of what it sent (/supplier_tasks, its CSV, the supplier screen): pure constants and rules,
 * shared by the page, the server and the tests; the query schema is apart (supplier-task-query.ts) so pages carry no zod.
 */

export const SUPPLIER_TASK_PAGE_SIZE = 25;

/** The list's filters as they are written in the URL (the CSV link carries the same). */
export const SUPPLIER_TASK_FILTER_KEYS = ["status", "kind", "q", "tag", "campaign", "sort"] as const;

/** One CSV export holds at most this many rows (the current filter, newest first). */
export const SUPPLIER_TASKS_CSV_MAX = 50_000;

export const SUPPLIER_TASK_KINDS = ["task", "survey"] as const;
export type TaskKind = (typeof SUPPLIER_TASK_KINDS)[number];

/** Sort orders: newest sent first (default), soonest due first (no due date last), by status (overdue first), by supplier name. */
export const SUPPLIER_TASK_SORTS = ["sent", "due", "status", "supplier"] as const;
export type TaskSort = (typeof SUPPLIER_TASK_SORTS)[number];

/** Longest supplier name search accepted. */
export const SUPPLIER_SEARCH_MAX = 100;

/** A return for rework needs a comment the respondent can act on; at most this long. */
export const RETURN_COMMENT_MAX = 2000;

/** The order "by status" puts them in: what needs the customer first, then what waits for the supplier, then the closed ones. */
export const STATUS_ORDER: readonly StatusFilter[] = ["submitted", "overdue", "returned", "draft", "opened", "sent", "accepted", "cancelled"];

/**
 * The supplier screen's "Supplier self-assessment" risk line (decision 034): 100 minus the score of the latest submitted
 * (or accepted) scored survey the organisation received from this supplier, on the risk overview's 0–100 scale where
 * higher is riskier. No scored survey → null ("Not available"): an unanswered survey is no evidence either way.
 */
export function selfAssessmentRisk(scores: ReadonlyArray<{ score: number | null; submittedAt: string | null }>): number | null {
  return explainSelfAssessmentRisk(scores).risk;
}

/** The self-assessment risk with its input: the latest submitted survey with a score (null when there is none). */
export function explainSelfAssessmentRisk<T extends { score: number | null; submittedAt: string | null }>(
  scores: readonly T[],
): { risk: number | null; survey: (T & { score: number; submittedAt: string }) | null } {
  const latest = scores
    .filter((s): s is T & { score: number; submittedAt: string } => typeof s.score === "number" && Number.isFinite(s.score) && s.submittedAt !== null)
    .sort((a, b) => (a.submittedAt < b.submittedAt ? 1 : a.submittedAt > b.submittedAt ? -1 : 0))[0];
  if (!latest) return { risk: null, survey: null };
  return { risk: 100 - Math.min(100, Math.max(0, Math.round(latest.score))), survey: latest };
}

/** A survey's score counts once the answer is submitted (or accepted): a returned survey is a draft again. */
export function countedSurveyScore(r: { score: number | null; status: string; response_status: string | null }): number | null {
  return r.response_status === "submitted" && (r.status === "submitted" || r.status === "accepted") ? r.score : null;
}

/** Colour of the self-assessment line: the spec's three bands (§9: up to 33 green, up to 66 yellow, above red). */
export function selfAssessmentBand(risk: number | null): RiskBand | null {
  return risk === null ? null : riskBandColor(risk);
}

export interface TaskFilters {
  status: StatusFilter | null;
  kind: TaskKind | null;
  /** Part of the supplier's name (case-insensitive for ASCII letters). */
  q: string | null;
  /** A tag of the organisation, on its connection to the supplier. */
  tag: number | null;
  campaign: number | null;
}
