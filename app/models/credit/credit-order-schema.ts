import { z } from "zod";
import { isCreditCountry, REPORT_LANGUAGES } from "~/models/credit/credit";

type T = (key: string) => string;

/**
 * The order dialog's confirm form (POST /credit/order), one schema for the
 * server's check and the form, its messages from the `credit` locale. The
 * form names the company only by the provider's id: its name and number are
 * looked up again when the order is placed, never taken from the form.
 * `returnTo` is checked by the server (safeRedirect), not here.
 */
export function creditOrderSchema(t: T) {
  const outdated = t("credit:confirm.formOutdated");
  return z.object({
    id: z.string({ error: outdated }).trim().min(1, outdated).max(200, outdated),
    countryCode: z.string({ error: outdated }).trim().toUpperCase().refine(isCreditCountry, outdated),
    language: z.enum(REPORT_LANGUAGES, { error: t("credit:confirm.languageRequired") }),
    terms: z.literal("on", { error: t("credit:confirm.termsRequired") }),
    idempotencyKey: z.string({ error: outdated }).regex(/^[0-9a-f]{32}$/, outdated),
    returnTo: z.string({ error: outdated }).max(2000, outdated),
  });
}

export type CreditOrderFields = z.infer<ReturnType<typeof creditOrderSchema>>;
