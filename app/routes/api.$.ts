import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireApiUser } from "~/models/session.server";

/** Unknown /api paths answer JSON (401 without a session, else 404), never an HTML page. */
async function notFound({ request }: LoaderFunctionArgs) {
  await requireApiUser(request);
  return json({ error: "Not Found", path: new URL(request.url).pathname }, { status: 404 });
}
export const loader = notFound;
export const action = notFound;
