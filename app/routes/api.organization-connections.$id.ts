import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { requireId, readJson } from "~/http/parse.server";
import { errorResponse, invariantResponse, methodNotAllowed, refusalResponse } from "~/http/responses.server";
import { CONNECTION_REFUSALS, getConnection, updateConnection, type ConnectionChange } from "~/models/suppliers/connections.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { isSingleLine } from "~/models/shared/single-line";

/** GET /api/organization-connections/{id} → `{data}`; another organisation's id or a soft-deleted one is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  const id = requireId(params.id);
  const data = await getConnection({ organizationId: user.organizationId, id });
  invariantResponse(data, 404, "Connection not found");
  return json({ data });
}

const KEYS = ["contact_email", "is_priority", "is_due_diligence", "is_deleted", "removeTagIds", "addTagIds", "newTags", "newComment"] as const;
const ids = z.array(z.number().int().positive()).min(1, "Choose at least one").max(100);
const title = z
  .string()
  .trim()
  .min(1, "A tag title must not be empty")
  .max(100)
  .refine(isSingleLine, "A tag title is one line: no line breaks, tabs or control characters");

/** The value of each key of a PATCH body (shared/spec/02-supplier-credit-connections.md §7). */
const CHANGES = {
  contact_email: z.union([z.email("Enter a valid email address").max(254), z.literal("").transform(() => null), z.null()]),
  is_priority: z.boolean(),
  is_due_diligence: z.boolean(),
  is_deleted: z.literal(true),
  removeTagIds: ids,
  addTagIds: ids,
  newTags: z.array(title).min(1, "Enter a tag title").max(20),
  newComment: z.string().trim().min(1, "A comment must not be empty").max(5000),
} satisfies Record<(typeof KEYS)[number], z.ZodType>;

/** A JSON object with exactly one known key and a valid value; anything else is a 400 naming the field. */
function parseChange(body: unknown): ConnectionChange {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw errorResponse(400, "The body must be a JSON object with exactly one change.");
  const keys = Object.keys(body);
  if (keys.length !== 1) throw errorResponse(400, `Send exactly one of ${KEYS.join(", ")}.`);
  const key = keys[0] as (typeof KEYS)[number];
  if (!KEYS.includes(key)) throw errorResponse(400, `Unknown field: ${key}`, { extra: { field: key } });
  const parsed = CHANGES[key].safeParse((body as Record<string, unknown>)[key]);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = [key, ...(issue?.path ?? [])].join(".");
    throw errorResponse(400, `${field}: ${issue?.message ?? "invalid value"}`, { extra: { field } });
  }
  return { [key]: parsed.data } as ConnectionChange;
}

/**
 * PATCH /api/organization-connections/{id} with exactly one of contact_email,
 * is_priority, is_due_diligence, is_deleted (true), removeTagIds, addTagIds,
 * newTags, newComment → `{data: the updated connection}` (after a soft delete
 * too, with is_deleted true: the answer replaces the client's copy, shared/spec/02-supplier-credit-connections.md §7).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") throw methodNotAllowed(["GET", "PATCH"]);
  const user = await requireUser(request, "suppliersWrite");
  const id = requireId(params.id);
  const change = parseChange(await readJson(request));
  try {
    const data = await updateConnection({ organizationId: user.organizationId, userId: user.id, id, change });
    return json({ data });
  } catch (error) {
    if (isRefusalOf(error, CONNECTION_REFUSALS)) throw refusalResponse(error);
    throw error;
  }
}
