import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { clearSessionCookie, destroySession, tokenFromRequest } from "@server/auth/session";
import { flashNotice } from "@server/cookies";

/** Sign Out: ends the session on the server, clears the cookie, goes to /login. */
export async function action({ request }: ActionFunctionArgs) {
  const found = tokenFromRequest(request);
  if (found) await destroySession(found.token);
  const headers = new Headers();
  headers.append("Set-Cookie", clearSessionCookie(request));
  headers.append("Set-Cookie", await flashNotice(request, "auth:login.signedOut"));
  return redirect("/login", { headers });
}

// Signing out changes data, so it is never a GET.
export function loader() {
  return redirect("/");
}
