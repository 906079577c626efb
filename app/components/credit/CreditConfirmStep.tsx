import { Form, Link } from "@remix-run/react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { CREDIT_REPORT_PRICE_NOK, isCreditCountry } from "~/models/credit";
import type { CreditDialogData } from "./CreditDialog";
import { useHydrated } from "~/components/ui/useHydrated";
import { useCreditLinks } from "./links";

export const CREDIT_ORDER_ACTION = "/credit/order";

/** A path on this site: '/…' but never '//host' or '/\host'. */
export function isSafeReturnTo(value: string): boolean {
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return false;
  try {
    return new URL(value, "http://localhost").origin === "http://localhost";
  } catch {
    return false;
  }
}

/**
 * The confirm form (spec 02 §7 POST /api/credit-safe/order's fields, plus the
 * terms box, a per-form idempotency key and the page to return to). One
 * schema for the server's check and the form's fields.
 */
export function creditOrderSchema(termsMessage = "Tick the box to accept the terms before ordering.") {
  return z.object({
    id: z.string().trim().min(1).max(200),
    companyName: z.string().trim().min(1).max(300),
    regNo: z.string().trim().max(50).optional(),
    countryCode: z.string().trim().toUpperCase().refine(isCreditCountry),
    language: z.enum(["NO", "EN"]),
    terms: z.literal("on", { error: termsMessage }),
    idempotencyKey: z.string().regex(/^[0-9a-f]{32}$/),
    returnTo: z.string().max(2000).refine(isSafeReturnTo),
  });
}

export type CreditOrderFields = z.infer<ReturnType<typeof creditOrderSchema>>;

type ConfirmData = Extract<CreditDialogData, { step: "confirm" }>;

/**
 * Confirm: company, price, report language, the terms box and its dialog.
 * 'Confirm order' is disabled until the box is ticked once scripts run;
 * without them the server refuses an unticked form (back here with
 * error=terms). The POST redirects to the done step; its idempotency key
 * makes a second submit of this form return the first order.
 */
export function CreditConfirmStep({ dialog, busy }: { dialog: ConfirmData; busy: boolean }) {
  const { t } = useTranslation("credit");
  const links = useCreditLinks();
  const hydrated = useHydrated();
  const [ticked, setTicked] = useState(false);
  const ids = useId();
  const { company } = dialog;
  const search = { country: dialog.country, name: dialog.name, regNo: dialog.regNo, id: company.id };
  const termsError = dialog.error === "terms" && !ticked;
  const errorId = `${ids}-terms-error`;

  return (
    <Form method="post" action={CREDIT_ORDER_ACTION} className="flex flex-col gap-5">
      <p>{t("confirm.lead", { company: company.name })}</p>

      <div className="rounded-box border border-primary/30 bg-primary/5 p-4">
        <p className="text-sm text-base-content/70">{t("confirm.price")}</p>
        <p className="text-2xl font-semibold">{t("confirm.priceValue", { price: CREDIT_REPORT_PRICE_NOK })}</p>
        <p className="mt-1 text-sm text-base-content/80">{t("confirm.billing")}</p>
      </div>

      <div>
        <label htmlFor={`${ids}-language`} className="mb-1 block text-sm font-medium">
          {t("confirm.language")}
        </label>
        <select id={`${ids}-language`} name="language" defaultValue={dialog.languages.selected} className="select w-full sm:w-64">
          {dialog.languages.options.map((code) => (
            <option key={code} value={code}>
              {t(`confirm.languages.${code}`)}
            </option>
          ))}
        </select>
      </div>

      <div>
        <div className="flex items-start gap-3">
          <input
            id={`${ids}-terms`}
            type="checkbox"
            name="terms"
            value="on"
            className={`checkbox mt-0.5 ${termsError ? "checkbox-error" : ""}`}
            checked={ticked}
            onChange={(event) => setTicked(event.target.checked)}
            aria-invalid={termsError || undefined}
            aria-describedby={termsError ? errorId : undefined}
          />
          <div className="text-sm">
            <label htmlFor={`${ids}-terms`}>{t("confirm.accept")}</label>{" "}
            <Link to={links.href({ step: "confirm", ...search, terms: "en" })} preventScrollReset className="link link-primary whitespace-nowrap">
              {t("confirm.readTerms")}
            </Link>
          </div>
        </div>
        {termsError ? (
          <p id={errorId} role="alert" className="mt-2 text-sm text-error">
            {t("confirm.termsRequired")}
          </p>
        ) : null}
      </div>

      <input type="hidden" name="id" value={company.id} />
      <input type="hidden" name="companyName" value={company.name} />
      <input type="hidden" name="regNo" value={company.regNo ?? ""} />
      <input type="hidden" name="countryCode" value={dialog.country ?? company.country} />
      <input type="hidden" name="idempotencyKey" value={dialog.idempotencyKey} />
      <input type="hidden" name="returnTo" value={links.current} />

      <div className="flex flex-wrap justify-end gap-2">
        <Link to={links.href({ step: "details", ...search })} preventScrollReset className="btn btn-ghost">
          {t("confirm.cancel")}
        </Link>
        <button type="submit" className="btn btn-primary" disabled={busy || (hydrated && !ticked)}>
          {t("confirm.submit")}
        </button>
      </div>
    </Form>
  );
}
