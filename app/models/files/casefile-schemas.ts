import { z } from "zod";
import { isSingleLine } from "~/models/shared/single-line";

/**
 * The case file forms (/casefiles and /casefiles/{id}), shared by the server
 * and the browser. Built with a translate function so both show the same words.
 */
type T = (key: string) => string;

export const CASEFILE_STATUS_VALUES = ["open", "in_progress", "on_hold", "closed"] as const;
export type CasefileStatus = (typeof CASEFILE_STATUS_VALUES)[number];
export const CASEFILE_TITLE_MAX = 200;

/** Something a reader can see: not only spaces, control or formatting characters. */
const VISIBLE = /[^\s\p{C}]/u;

/** '' (no priority) or 1–5; conform turns '' into undefined and digits into a number. */
const priority = (t: T) =>
  z
    .number({ error: t("casefiles:errors.invalid") })
    .int(t("casefiles:errors.invalid"))
    .min(1, t("casefiles:errors.invalid"))
    .max(5, t("casefiles:errors.invalid"))
    .optional()
    .transform((v) => v ?? null);

export const newCasefileSchema = (t: T) =>
  z.object({
    intent: z.literal("create"),
    title: z
      .string({ error: t("casefiles:errors.titleRequired") })
      .trim()
      .min(1, { error: t("casefiles:errors.titleRequired"), abort: true })
      .max(CASEFILE_TITLE_MAX, t("casefiles:errors.titleTooLong"))
      .refine((v) => VISIBLE.test(v), t("casefiles:errors.titleRequired"))
      .refine(isSingleLine, t("common:errors.singleLine")),
    supplierId: z
      .number({ error: t("casefiles:errors.supplierRequired") })
      .int(t("casefiles:errors.supplierRequired"))
      .positive(t("casefiles:errors.supplierRequired")),
    priority: priority(t),
  });

export const statusSchema = (t: T) =>
  z.object({ intent: z.literal("status"), status: z.enum(CASEFILE_STATUS_VALUES, { error: t("casefiles:errors.invalid") }) });

export const prioritySchema = (t: T) => z.object({ intent: z.literal("priority"), priority: priority(t) });

export const commentSchema = (t: T) =>
  z.object({
    intent: z.literal("comment"),
    text: z
      .string({ error: t("casefiles:errors.commentRequired") })
      .trim()
      .min(1, { error: t("casefiles:errors.commentRequired"), abort: true })
      .max(5000, t("casefiles:errors.invalid"))
      .refine((v) => VISIBLE.test(v), t("casefiles:errors.commentRequired")),
  });
