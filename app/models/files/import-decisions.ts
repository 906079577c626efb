import type { OrgNumberProblem } from "~/models/shared/org-number";
import type { RowStatus } from "~/models/files/import-statuses";

/**
 * The rules of the supplier-list matching that need no database: why a line got its status, the confidence
 * thresholds, and the decision among name hits. Pure, so they are unit-tested on their own.
 */

/** Why a line got its status; each is `reason.<key>` in the imports namespace. */
export type RowReason =
  | "exact-number"
  | "exact-name"
  | "close-name"
  | "several-names"
  | "no-name-match"
  | "not-in-registry"
  | `org-${OrgNumberProblem}`
  | "missing-both"
  | "already-supplier"
  | "duplicate-in-file"
  | "own-organization"
  | "unreadable-row";

export interface Candidate {
  companyId: number;
  orgNumber: string;
  name: string;
  confidence: number;
}

export interface ImportMapping {
  orgId: number;
  orgName: number;
  countryCode: number | null;
  hasHeaders: boolean;
  sheet: number;
}

export type StatusCounts = Record<RowStatus, number> & { total: number };

export function emptyCounts(): StatusCounts {
  return { total: 0, matched: 0, ambiguous: 0, not_found: 0, invalid: 0, existing: 0, duplicate: 0 };
}

/** A single hit at or above this confidence, with no other close to it, is a match. */
export const MATCH_CONFIDENCE = 0.75;
/** Hits at or above this are candidates of an ambiguous line. */
export const CANDIDATE_CONFIDENCE = 0.4;
/** Two hits closer than this to each other are too close to choose between. */
const CLOSE = 0.1;
export const MAX_CANDIDATES = 5;

export interface Decided {
  status: RowStatus;
  reason: RowReason;
  company: { id: number; orgNumber: string } | null;
  candidates: Candidate[] | null;
  confidence: number | null;
}

/** The decision for a line matched by name: one clear best hit, several close ones, or none. */
export function decideByName(candidates: Candidate[]): Pick<Decided, "status" | "reason" | "candidates" | "confidence"> & { best: Candidate | null } {
  const [best, second] = candidates;
  if (!best) return { status: "not_found", reason: "no-name-match", candidates: null, confidence: null, best: null };
  const clear = best.confidence >= MATCH_CONFIDENCE && (!second || best.confidence - second.confidence >= CLOSE);
  if (clear) return { status: "matched", reason: best.confidence === 1 ? "exact-name" : "close-name", candidates: null, confidence: best.confidence, best };
  return { status: "ambiguous", reason: "several-names", candidates: candidates.slice(0, MAX_CANDIDATES), confidence: best.confidence, best: null };
}
