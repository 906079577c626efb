import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { creditHref, type CreditParams } from "~/components/credit/links";
import { requireUser, type OrgUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { readForm } from "~/http/parse.server";
import { safeRedirect } from "~/http/redirect.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { CREDIT_ORDER_INTENT } from "~/models/credit/credit";
import { creditOrderSchema } from "~/models/credit/credit-order-schema";
import { CREDIT_ORDER_REFUSALS, placeCreditOrder } from "~/models/credit/credit-reports.server";
import { isRefusalOf } from "~/models/shared/refusal";

/** Nothing to show here: the order dialog lives on the page it was opened from. */
export function loader() {
  return redirect("/");
}

/**
 * The page the form came from with the dialog in another state (303: the
 * browser GETs it). `keepSearch` carries the dialog's search and company
 * over; the done step needs only its order.
 */
function back(returnTo: string, state: CreditParams, keepSearch: boolean) {
  const url = new URL(returnTo, "http://localhost");
  const search: CreditParams = keepSearch
    ? { country: url.searchParams.get("country"), name: url.searchParams.get("name"), regNo: url.searchParams.get("regNo"), id: url.searchParams.get("id") }
    : {};
  return redirect(creditHref(url.pathname, url.searchParams, { ...search, ...state }), 303);
}

/** The page to go back to: a path of this site, else null. */
function returnAddress(value: FormDataEntryValue | null): string | null {
  const to = safeRedirect(value, "");
  return to === "" ? null : to;
}

/**
 * The confirm form of the credit order dialog (POST /credit/order,
 * intent=order). Without JavaScript it is a plain form post; with it the
 * same form runs through a fetcher while the dialog shows its loading step.
 *   terms not ticked → 303 to the confirm step with error=terms and the chosen
 *                      language (the dialog is URL state, with or without JavaScript)
 *   other refused    → 400 with the Conform reply (only an outdated or changed
 *                      page sends it: every other field is the server's own)
 *   ordered          → 303 to the done step (order={id}); a repeated idempotency
 *                      key (reload, second click, resubmitted form) returns the
 *                      first order and orders nothing new
 *   order failed     → 303 to the details step with error=order ('Order failed – please try again.')
 * The company is named by the provider's id only: its name and number come
 * from the provider when the order is placed.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "creditOrder");
  const formData = await readForm(request);
  const intent = formData.get("intent");
  switch (intent) {
    case CREDIT_ORDER_INTENT:
      return order(request, user, formData);
    default:
      throw errorResponse(400, `intent: must be "${CREDIT_ORDER_INTENT}"`, { extra: { field: "intent" } });
  }
}

async function order(request: Request, user: OrgUser, formData: FormData) {
  const t = await i18nServer.getFixedT(request);
  const submission = parseWithZod(formData, { schema: creditOrderSchema(t) });
  const returnTo = returnAddress(formData.get("returnTo"));

  if (submission.status !== "success") {
    const failed = Object.entries(submission.error ?? {})
      .filter(([, messages]) => messages?.length)
      .map(([field]) => field);
    if (failed.length === 1 && failed[0] === "terms" && returnTo) {
      const language = formData.get("language");
      return back(returnTo, { step: "confirm", error: "terms", language: language === "NO" || language === "EN" ? language : null }, true);
    }
    return refuseForm(submission, { intent: CREDIT_ORDER_INTENT });
  }
  if (!returnTo) {
    return refuseForm(submission, { intent: CREDIT_ORDER_INTENT, fieldErrors: { returnTo: [t("credit:confirm.formOutdated")] } });
  }

  const { id, countryCode, language, idempotencyKey } = submission.value;
  let orderId: number;
  try {
    const placed = await placeCreditOrder({ organizationId: user.organizationId, userId: user.id, idempotencyKey, connectId: id, countryCode, language });
    orderId = placed.id;
  } catch (error) {
    // Refused input (a language the country does not offer) is the caller's; a failing provider or store is logged.
    if (!isRefusalOf(error, CREDIT_ORDER_REFUSALS))
      console.error("credit order failed", { organizationId: user.organizationId, connectId: id, countryCode, error });
    return back(returnTo, { step: "details", error: "order" }, true);
  }
  return back(returnTo, { step: "done", order: String(orderId) }, false);
}
