import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Link, useFetcher } from "@remix-run/react";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "~/translations";
import { useHydrated } from "~/components/ui/useHydrated";
import { CREDIT_ORDER_INTENT, CREDIT_REPORT_PRICE_NOK } from "~/models/credit/credit";
import { creditOrderSchema } from "~/models/credit/credit-order-schema";
import type { CreditDialogData } from "./CreditDialog";
import { useCreditLinks } from "./links";

export const CREDIT_ORDER_ACTION = "/credit/order";

/** What POST /credit/order answers a fetcher when it refuses the form (a success is a redirect). */
export interface CreditOrderReply {
  result: SubmissionResult<string[]>;
}

/**
 * The confirm form's fetcher: one key, so the dialog sees the order under
 * way (its loading step) while the form posts, and the post survives the
 * form making way for the loading step.
 */
export function useCreditOrderFetcher() {
  return useFetcher<CreditOrderReply>({ key: "credit-order" });
}

/** Whether the order is being placed: posted and not refused (a redirect to the done or details step follows). */
export function useCreditOrdering(): boolean {
  const fetcher = useCreditOrderFetcher();
  return fetcher.state === "submitting" || (fetcher.state === "loading" && fetcher.data === undefined);
}

type ConfirmData = Extract<CreditDialogData, { step: "confirm" }>;

/**
 * Confirm: company, price, report language, the terms box and its dialog.
 * 'Confirm order' is disabled until the box is ticked once scripts run;
 * without them the server refuses an unticked form (back here with
 * error=terms and the chosen language). The form names the company by its
 * provider id only. The POST redirects to the done step; its idempotency key
 * makes a second submit of this form return the first order. A form the
 * server refuses otherwise (outdated) shows why, here.
 */
export function CreditConfirmStep({ dialog, busy }: { dialog: ConfirmData; busy: boolean }) {
  const { t } = useTranslation("credit");
  const links = useCreditLinks();
  const hydrated = useHydrated();
  const fetcher = useCreditOrderFetcher();
  const schema = useMemo(() => creditOrderSchema(t), [t]);
  const [form, fields] = useForm({
    // One id for the step's life: the loader gives every render a new idempotency key, and a new id would reset the fields.
    id: "credit-order",
    defaultValue: { language: dialog.languages.selected },
    lastResult: fetcher.state === "idle" ? fetcher.data?.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const [ticked, setTicked] = useState(false);
  const ids = useId();
  const { company } = dialog;
  const search = { country: dialog.country, name: dialog.name, regNo: dialog.regNo, id: company.id };
  const termsMessage = ticked ? null : (fields.terms.errors?.[0] ?? (dialog.error === "terms" ? t("confirm.termsRequired") : null));
  const errorId = `${ids}-terms-error`;
  const languageErrorId = `${ids}-language-error`;
  // The hidden fields cannot be corrected here: one message for all of them.
  const formProblems = [
    ...new Set([form.errors, fields.id.errors, fields.countryCode.errors, fields.idempotencyKey.errors, fields.returnTo.errors].flatMap((e) => e ?? [])),
  ];

  return (
    <fetcher.Form
      method="post"
      action={CREDIT_ORDER_ACTION}
      {...getFormProps(form)}
      className="flex flex-col gap-5"
      // Says that this step's code runs (its chunk loads on demand): a submit now goes through the fetcher.
      data-ready={hydrated ? "" : undefined}
    >
      {formProblems.length ? (
        <div id={form.errorId} role="alert" className="alert alert-error">
          {formProblems.join(" ")}
        </div>
      ) : null}
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
        <select
          id={`${ids}-language`}
          name={fields.language.name}
          defaultValue={dialog.languages.selected}
          aria-invalid={fields.language.errors ? true : undefined}
          aria-describedby={fields.language.errors ? languageErrorId : undefined}
          className="select w-full sm:w-64"
        >
          {dialog.languages.options.map((code) => (
            <option key={code} value={code}>
              {t(`confirm.languages.${code}`)}
            </option>
          ))}
        </select>
        {fields.language.errors ? (
          <p id={languageErrorId} role="alert" className="mt-2 text-sm text-error">
            {fields.language.errors[0]}
          </p>
        ) : null}
      </div>

      <div>
        <div className="flex items-start gap-3">
          <input
            id={`${ids}-terms`}
            type="checkbox"
            name={fields.terms.name}
            value="on"
            className={`checkbox mt-0.5 ${termsMessage ? "checkbox-error" : ""}`}
            checked={ticked}
            onChange={(event) => setTicked(event.target.checked)}
            aria-invalid={termsMessage ? true : undefined}
            aria-describedby={termsMessage ? errorId : undefined}
          />
          <div className="text-sm">
            <label htmlFor={`${ids}-terms`}>{t("confirm.accept")}</label>{" "}
            <Link to={links.href({ step: "confirm", ...search, terms: "en" })} preventScrollReset className="link link-primary whitespace-nowrap">
              {t("confirm.readTerms")}
            </Link>
          </div>
        </div>
        {termsMessage ? (
          <p id={errorId} role="alert" className="mt-2 text-sm text-error">
            {termsMessage}
          </p>
        ) : null}
      </div>

      <input type="hidden" name="intent" value={CREDIT_ORDER_INTENT} />
      <input type="hidden" name={fields.id.name} value={company.id} />
      <input type="hidden" name={fields.countryCode.name} value={dialog.country ?? company.country} />
      <input type="hidden" name={fields.idempotencyKey.name} value={dialog.idempotencyKey} />
      <input type="hidden" name={fields.returnTo.name} value={links.current} />

      <div className="flex flex-wrap justify-end gap-2">
        <Link to={links.href({ step: "details", ...search })} preventScrollReset className="btn btn-ghost">
          {t("confirm.cancel")}
        </Link>
        <button type="submit" className="btn btn-primary" disabled={busy || (hydrated && !ticked)}>
          {t("confirm.submit")}
        </button>
      </div>
    </fetcher.Form>
  );
}
