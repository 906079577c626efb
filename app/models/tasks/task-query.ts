import { z } from "zod";
import {
  RETURN_COMMENT_MAX,
  SUPPLIER_SEARCH_MAX,
  SUPPLIER_TASK_FILTER_KEYS,
  SUPPLIER_TASK_KINDS,
  SUPPLIER_TASK_SORTS,
  type TaskFilters,
} from "~/models/tasks/task-list";
import { STATUS_FILTERS } from "~/models/tasks/task-states";

/** /supplier_tasks' filters as query parameters (and its CSV's), in a module of their own so the page ships no zod. */
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const withDefault = <T extends z.ZodType, D extends z.output<T> | null>(schema: T, fallback: D) =>
  z.preprocess(blankToUndefined, schema.optional()).transform((value) => (value === undefined ? fallback : (value as z.output<T>)));
const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,16}$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be a whole number from ${min} to ${max}`);

export const taskQuerySchema = z.object({
  status: withDefault(z.enum(STATUS_FILTERS, { error: "status must be one of the listed statuses" }), null),
  kind: withDefault(z.enum(SUPPLIER_TASK_KINDS, { error: "kind must be task or survey" }), null),
  q: withDefault(z.string().trim().max(SUPPLIER_SEARCH_MAX, `q must be at most ${SUPPLIER_SEARCH_MAX} characters`), null),
  tag: withDefault(wholeNumber("tag", 1, Number.MAX_SAFE_INTEGER), null),
  campaign: withDefault(wholeNumber("campaign", 1, Number.MAX_SAFE_INTEGER), null),
  sort: withDefault(z.enum(SUPPLIER_TASK_SORTS, { error: "sort must be sent, due, status or supplier" }), "sent"),
  page: withDefault(wholeNumber("page", 1, 1_000_000), 1),
});
export type TaskQuery = z.output<typeof taskQuerySchema>;

/** The query of a list URL, as typed (shown back in the form even when one value is wrong) and as parsed. */
export function parseSupplierTaskQuery(url: URL) {
  const raw = Object.fromEntries(SUPPLIER_TASK_FILTER_KEYS.map((key) => [key, url.searchParams.get(key) ?? ""])) as Record<
    (typeof SUPPLIER_TASK_FILTER_KEYS)[number],
    string
  >;
  const parsed = taskQuerySchema.safeParse({ ...raw, page: url.searchParams.get("page") ?? "" });
  return { raw, parsed };
}

export function taskFilters(query: Pick<TaskQuery, "status" | "kind" | "q" | "tag" | "campaign">): TaskFilters {
  return { status: query.status, kind: query.kind, q: query.q, tag: query.tag, campaign: query.campaign };
}

/** The item page's forms, one schema per intent. */
export const returnSchema = z.object({
  comment: z.string({ error: "commentRequired" }).trim().min(1, "commentRequired").max(RETURN_COMMENT_MAX, "commentTooLong"),
  redirectTo: z.string().optional(),
});
export const plainActionSchema = z.object({ redirectTo: z.string().optional() });
