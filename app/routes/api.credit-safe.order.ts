import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readJson } from "~/http/parse.server";
import { errorResponse, methodNotAllowed, refusalResponse } from "~/http/responses.server";
import { isCreditCountry, REPORT_LANGUAGES } from "~/models/credit/credit";
import { CONNECT_ID_MAX, creditProviderFailure, IDEMPOTENCY_KEY_MAX, placeCreditOrder } from "~/models/credit/credit-reports.server";
import { isRefusal } from "~/models/shared/refusal";

const blank = "must not be blank";
const body = z.object({
  connectId: z.string({ error: "is required" }).trim().min(1, blank).max(CONNECT_ID_MAX, `must be at most ${CONNECT_ID_MAX} characters`),
  // Accepted for the spec's body shape, never stored: the name is the provider's for the connectId.
  companyName: z.string({ error: "must be a string" }).max(300, "must be at most 300 characters").optional(),
  // When given it must be the company's number (else 400); what is stored is the provider's.
  regNo: z.string({ error: "must be a string or null" }).trim().max(50, "must be at most 50 characters").nullable().optional(),
  countryCode: z
    .string({ error: "is required" })
    .refine(isCreditCountry, "must be one of the credit report countries (NO, AT, BE, CA, DK, FR, DE, IE, IT, JP, LU, MX, NL, SE, GB, US)"),
  language: z.enum(REPORT_LANGUAGES, { error: "must be NO or EN" }),
});

// Printable ASCII only: the key is echoed in logs and compared as text.
const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX}}$`);

/**
 * POST /api/credit-safe/order {connectId, companyName, regNo|null,
 * countryCode, language} → `{data: {id, fileName, companyName}}`, 201 for a
 * new order. The company is the provider's for the connectId: its name and
 * number are looked up there, a regNo that is not the company's is a 400,
 * and companyName is ignored. With an `Idempotency-Key` header a repeated
 * request returns the first order (200, `Idempotent-Replayed: true`) and is
 * not billed again; without one every request is a new order. Bad input is a
 * 400 naming the field; an unknown company a 404; a provider that fails a
 * 502 (the dialog's 'Order failed').
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["POST"]);
  const user = await requireUser(request, "creditOrder");
  const headerKey = request.headers.get("Idempotency-Key");
  if (headerKey !== null && !IDEMPOTENCY_KEY.test(headerKey)) {
    throw errorResponse(400, `Idempotency-Key: must be 1 to ${IDEMPOTENCY_KEY_MAX} printable characters`, { extra: { field: "Idempotency-Key" } });
  }
  const order = await readJson(request, body);
  try {
    const result = await placeCreditOrder({
      organizationId: user.organizationId,
      userId: user.id,
      idempotencyKey: headerKey ?? randomUUID(),
      connectId: order.connectId,
      countryCode: order.countryCode,
      language: order.language,
      expectedRegNo: order.regNo,
    });
    const data = { id: result.id, fileName: result.fileName, companyName: result.companyName };
    return json({ data }, result.created ? { status: 201 } : { status: 200, headers: { "Idempotent-Replayed": "true" } });
  } catch (error) {
    // Bad input (400) and a company the provider does not know (404) name the field.
    if (isRefusal(error)) throw refusalResponse(error, `${error.field}: ${error.message}`);
    const failure = creditProviderFailure(error);
    if (failure) {
      console.error("credit order failed", { organizationId: user.organizationId, kind: failure.kind, status: failure.status, error: failure.message });
      return json({ error: "Bad Gateway", message: "Order failed – please try again." }, { status: 502 });
    }
    throw error;
  }
}

export function loader() {
  throw methodNotAllowed(["POST"]);
}
