import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { navCookie } from "@server/cookies";
import { safeRedirect } from "~/models/auth-schemas";
import { requireUser } from "~/models/session.server";

/** Expands or collapses the side navigation; a plain form post works without JavaScript. */
export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await request.formData();
  const expanded = form.get("expanded") === "true";
  const headers = { "Set-Cookie": await navCookie.serialize(expanded ? "expanded" : "collapsed") };
  return redirect(safeRedirect(form.get("redirectTo")), { headers });
}

export function loader() {
  return json({ error: "Method Not Allowed" }, { status: 405 });
}
