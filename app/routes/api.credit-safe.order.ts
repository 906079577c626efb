import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { apiError } from "@server/http";
import { CreditError } from "@server/providers/credit";
import { isCreditCountry, REPORT_LANGUAGES } from "~/models/credit";
import { CreditInputError, IDEMPOTENCY_KEY_MAX, placeCreditOrder } from "~/models/credit-reports.server";
import { requireAnalystApiUser, requireOrganization } from "~/models/session.server";

const blank = "must not be blank";
const body = z.object({
  connectId: z.string({ error: "is required" }).trim().min(1, blank).max(200, "must be at most 200 characters"),
  companyName: z.string({ error: "is required" }).trim().min(1, blank).max(300, "must be at most 300 characters"),
  regNo: z.string({ error: "must be a string or null" }).trim().max(50, "must be at most 50 characters").nullable().optional(),
  countryCode: z
    .string({ error: "is required" })
    .refine(isCreditCountry, "must be one of the credit report countries (NO, AT, BE, CA, DK, FR, DE, IE, IT, JP, LU, MX, NL, SE, GB, US)"),
  language: z.enum(REPORT_LANGUAGES, { error: "must be NO or EN" }),
});

// Printable ASCII only: the key is echoed in logs and compared as text.
const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX}}$`);

const methodNotAllowed = () => json({ error: "Method Not Allowed", message: "Order with POST." }, { status: 405, headers: { Allow: "POST" } });

/**
 * POST /api/credit-safe/order {connectId, companyName, regNo|null,
 * countryCode, language} → `{data: {id, fileName, companyName}}`, 201 for a
 * new order. With an `Idempotency-Key` header a repeated request returns the
 * first order (200, `Idempotent-Replayed: true`) and is not billed again;
 * without one every request is a new order. Bad input is a 400 naming the
 * field; a provider that fails is a 502 (the dialog's 'Order failed').
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireAnalystApiUser(request);
  const organizationId = requireOrganization(user);
  if (!/^application\/json\b/i.test(request.headers.get("Content-Type") ?? "")) {
    return json({ error: "Unsupported Media Type", message: "Send the order as JSON (Content-Type: application/json)." }, { status: 415 });
  }
  const headerKey = request.headers.get("Idempotency-Key");
  if (headerKey !== null && !IDEMPOTENCY_KEY.test(headerKey)) {
    throw apiError(400, `Idempotency-Key: must be 1 to ${IDEMPOTENCY_KEY_MAX} printable characters`, { field: "Idempotency-Key" });
  }
  let payload: unknown;
  try {
    payload = await request.json();
  } catch {
    throw apiError(400, 'The body must be a JSON object like {"connectId", "companyName", "regNo", "countryCode", "language"}.');
  }
  const parsed = body.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "body";
    throw apiError(400, `${field}: ${issue?.message ?? "invalid"}`, { field });
  }
  const order = parsed.data;
  try {
    const result = await placeCreditOrder({
      organizationId,
      userId: user.id,
      idempotencyKey: headerKey ?? randomUUID(),
      connectId: order.connectId,
      companyName: order.companyName,
      regNo: order.regNo || null,
      countryCode: order.countryCode,
      language: order.language,
    });
    const data = { id: result.id, fileName: result.fileName, companyName: result.companyName };
    return json({ data }, result.created ? { status: 201 } : { status: 200, headers: { "Idempotent-Replayed": "true" } });
  } catch (error) {
    if (error instanceof CreditInputError) throw apiError(400, `${error.field}: ${error.message}`, { field: error.field });
    if (error instanceof CreditError && error.kind === "not_found")
      throw apiError(404, "connectId: the credit provider has no company with this id", { field: "connectId" });
    if (error instanceof CreditError) {
      console.error("credit order failed", { organizationId, kind: error.kind, status: error.status, error: error.message });
      return json({ error: "Bad Gateway", message: "Order failed – please try again." }, { status: 502 });
    }
    throw error;
  }
}

export const loader = methodNotAllowed;
