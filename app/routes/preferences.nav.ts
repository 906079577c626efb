import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { readForm } from "~/http/parse.server";
import { navCookieHeaders } from "~/http/preferences.server";
import { safeRedirect } from "~/http/redirect.server";
import { badRequest, methodNotAllowed } from "~/http/responses.server";

/** Expands or collapses the side navigation; a plain form post works without JavaScript. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["POST"]);
  await requireUser(request);
  const form = await readForm(request);
  const expanded = form.get("expanded");
  if (expanded !== "true" && expanded !== "false") throw badRequest("expanded must be 'true' or 'false'");
  const headers = await navCookieHeaders(expanded === "true");
  return redirect(safeRedirect(form.get("redirectTo")), { headers });
}

export function loader() {
  throw methodNotAllowed(["POST"]);
}
