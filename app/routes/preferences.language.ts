import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { languageCookie } from "@server/cookies";
import { isLanguage } from "~/i18n";
import { safeRedirect } from "~/models/auth-schemas";
import { getUser } from "~/models/session.server";
import { setUserLanguage } from "~/models/user.server";

/**
 * Switches the interface language: on the account for a signed-in user, in a
 * cookie for a visitor. Then back to the page the user was on.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const language = form.get("language");
  if (!isLanguage(language)) return json({ error: "language must be 'en' or 'no'" }, { status: 400 });
  const user = await getUser(request);
  if (user) await setUserLanguage(user.id, language);
  const headers = { "Set-Cookie": await languageCookie.serialize(language) };
  return redirect(safeRedirect(form.get("redirectTo"), user ? "/overview" : "/"), { headers });
}

export function loader() {
  return json({ error: "Method Not Allowed" }, { status: 405 });
}
