/** The statuses of a line of an imported supplier list (pure: the import page renders them, the job decides them). */
export const ROW_STATUSES = ["matched", "ambiguous", "not_found", "invalid", "existing", "duplicate"] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];
