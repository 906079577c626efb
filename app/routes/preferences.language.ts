import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getUser } from "~/http/auth.server";
import { readForm } from "~/http/parse.server";
import { languageCookieHeaders } from "~/http/preferences.server";
import { safeRedirect } from "~/http/redirect.server";
import { badRequest, methodNotAllowed } from "~/http/responses.server";
import { isLanguage } from "~/i18n";
import { setUserLanguage } from "~/models/accounts/users.server";

/**
 * Switches the interface language: on the account for a signed-in user, in a
 * cookie for a visitor. Then back to the page the user was on.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["POST"]);
  const form = await readForm(request);
  const language = form.get("language");
  if (!isLanguage(language)) throw badRequest("language must be 'en' or 'no'");
  const user = await getUser(request);
  if (user) await setUserLanguage(user.id, language);
  const headers = await languageCookieHeaders(language);
  return redirect(safeRedirect(form.get("redirectTo"), user ? "/overview" : "/"), { headers });
}

export function loader() {
  throw methodNotAllowed(["POST"]);
}
