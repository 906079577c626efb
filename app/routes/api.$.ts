import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { errorResponse } from "~/http/responses.server";

/** Unknown /api paths answer JSON (401 without a session, else 404), never an HTML page. */
async function notFound({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return errorResponse(404, "No such API path.", { extra: { path: new URL(request.url).pathname } });
}
export const loader = notFound;
export const action = notFound;
