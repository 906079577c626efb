import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { redirectWithNotice } from "~/http/notice.server";
import { readForm } from "~/http/parse.server";
import { endSession } from "~/http/session.server";

/** Sign Out: ends the session on the server, clears the cookie, goes to /login. */
export async function action({ request }: ActionFunctionArgs) {
  // The sign-out button is a form with no fields; anything else posted here is not it.
  await readForm(request);
  const headers = await endSession(request);
  return redirectWithNotice(request, "/login", "auth:login.signedOut", { headers });
}

// Signing out changes data, so it is never a GET.
export function loader() {
  return redirect("/");
}
