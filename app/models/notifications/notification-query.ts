import { z } from "zod";
import {
  DEFAULT_LOOKBACK_DAYS,
  DEFAULT_MIN_RISK_SCORE_PANEL,
  DEFAULT_NOTIFICATION_TYPE,
  LOOKBACK_DAYS_MAX,
  NOTIFICATION_LIMIT_MAX,
  NOTIFICATION_OFFSET_MAX,
  NOTIFICATION_PAGE_SIZE,
  NOTIFICATION_TYPES,
  DISMISS_REASON_MAX,
  READ_FILTERS,
  STATUS_FILTERS,
} from "~/models/notifications/notifications";

/** The notification filters as query parameters, in a module of its own so that pages importing the rules ship no zod. */
const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be a whole number from ${min} to ${max}`);

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const withDefault = <T extends z.ZodType, D extends z.output<T> | null>(schema: T, fallback: D) =>
  z.preprocess(blankToUndefined, schema.optional()).transform((value) => (value === undefined ? fallback : (value as z.output<T>)));

/**
 * The panel's and the API's filters as query parameters (shared/spec/01-shell-chat-lei.md §5: numeric inputs; type all, announcement or search).
 * Absent or empty means the default. Bad values are errors the API answers with 400 and the pages show next to the field.
 */
export const notificationQuerySchema = z.object({
  minRiskScore: withDefault(wholeNumber("minRiskScore", 0, 100), DEFAULT_MIN_RISK_SCORE_PANEL),
  lookbackDays: withDefault(wholeNumber("lookbackDays", 0, LOOKBACK_DAYS_MAX), DEFAULT_LOOKBACK_DAYS),
  type: withDefault(z.enum(NOTIFICATION_TYPES, { error: "type must be all, announcement or search" }), DEFAULT_NOTIFICATION_TYPE),
  // A larger limit is capped (the issue: "limit capped"); zero, a negative or a non-number is a 400.
  limit: withDefault(
    z
      .string()
      .trim()
      .regex(/^\d{1,9}$/, "limit must be a whole number of at least 1")
      .transform(Number)
      .refine((n) => n >= 1, "limit must be a whole number of at least 1")
      .transform((n) => Math.min(n, NOTIFICATION_LIMIT_MAX)),
    NOTIFICATION_PAGE_SIZE,
  ),
  offset: withDefault(wholeNumber("offset", 0, NOTIFICATION_OFFSET_MAX), 0),
});
export type NotificationQuery = z.output<typeof notificationQuerySchema>;

const ORG_NUMBER_SHAPE = /^[A-Za-z0-9]{1,30}$/;

/**
 * /notifications and its CSV export: the panel's filters plus supplier (an organisation number), tag, read and
 * status, and the page (25 per page).
 */
export const notificationPageQuerySchema = notificationQuerySchema.omit({ limit: true, offset: true }).extend({
  supplier: withDefault(z.string().trim().regex(ORG_NUMBER_SHAPE, "supplier must be an organization number"), null),
  tag: withDefault(wholeNumber("tag", 1, Number.MAX_SAFE_INTEGER), null),
  read: withDefault(z.enum(READ_FILTERS, { error: "read must be all, read or unread" }), "all"),
  status: withDefault(z.enum(STATUS_FILTERS, { error: "status must be active or dismissed" }), "active"),
  page: withDefault(wholeNumber("page", 1, 1_000_000), 1),
});
export type NotificationPageQuery = z.output<typeof notificationPageQuerySchema>;

/** A dismissal: its reason is required (what the team decided, for the colleagues who see it later). */
export const dismissSchema = z.object({
  id: z.coerce.number().int().positive(),
  reason: z.string({ error: "reasonRequired" }).trim().min(1, "reasonRequired").max(DISMISS_REASON_MAX, "reasonTooLong"),
  redirectTo: z.string().optional(),
});

export const readSchema = z.object({
  id: z.coerce.number().int().positive(),
  read: z.enum(["1", "0"]),
  redirectTo: z.string().optional(),
});

export const restoreSchema = z.object({ id: z.coerce.number().int().positive(), redirectTo: z.string().optional() });
