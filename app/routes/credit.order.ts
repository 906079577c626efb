import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { creditOrderSchema, isSafeReturnTo } from "~/components/credit/CreditConfirmStep";
import { creditHref, type CreditParams } from "~/components/credit/links";
import i18nServer from "~/i18n.server";
import { placeCreditOrder } from "~/models/credit-reports.server";
import { hasAccessLevel, requireOrganization, requireUser } from "~/models/session.server";

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

/**
 * The confirm form of the credit order dialog (POST /credit/order). Without
 * JavaScript it is a plain form post; with it the same form runs through
 * Remix while the dialog shows its loading step. Every outcome is a redirect
 * back to the page the dialog was opened on:
 *   terms not ticked → the confirm step with error=terms
 *   ordered          → the done step (order={id}); a repeated idempotency key
 *                      (reload, second click, resubmitted form) returns the
 *                      first order and orders nothing new
 *   order failed     → the details step with error=order ('Order failed – please try again.')
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (!hasAccessLevel(user)) throw new Response("Forbidden", { status: 403 });
  const organizationId = requireOrganization(user);
  const t = await i18nServer.getFixedT(request, "credit");
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: creditOrderSchema(t("confirm.termsRequired")) });

  if (submission.status !== "success") {
    const failed = Object.entries(submission.error ?? {})
      .filter(([, messages]) => messages?.length)
      .map(([field]) => field);
    const returnTo = String(formData.get("returnTo") ?? "");
    if (failed.length === 1 && failed[0] === "terms" && isSafeReturnTo(returnTo)) {
      const language = formData.get("language");
      return back(returnTo, { step: "confirm", error: "terms", language: language === "NO" || language === "EN" ? language : null }, true);
    }
    // Only a changed page sends anything else: the fields are the server's own.
    throw new Response(`Bad Request: ${failed.join(", ")}`, { status: 400 });
  }

  const { id, companyName, regNo, countryCode, language, idempotencyKey, returnTo } = submission.value;
  let orderId: number;
  try {
    const order = await placeCreditOrder({
      organizationId,
      userId: user.id,
      idempotencyKey,
      connectId: id,
      companyName,
      regNo: regNo || null,
      countryCode,
      language,
    });
    orderId = order.id;
  } catch (error) {
    console.error("credit order failed", { organizationId, connectId: id, countryCode, error });
    return back(returnTo, { step: "details", error: "order" }, true);
  }
  return back(returnTo, { step: "done", order: String(orderId) }, false);
}
