import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { currentUserResponse, requireApiUser } from "~/models/session.server";
import { setUserLanguage } from "~/models/user.server";

const body = z.object({ language: z.enum(["en", "no"]) });

/** PUT /api/users/language {language} */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "PUT" } });
  const user = await requireApiUser(request);
  let payload: unknown;
  try {
    payload = await request.json();
  } catch {
    return json({ error: "Bad Request", message: 'Send a JSON body like {"language":"no"}.' }, { status: 400 });
  }
  const parsed = body.safeParse(payload);
  if (!parsed.success) return json({ error: "Bad Request", message: "language must be 'en' or 'no'." }, { status: 400 });
  await setUserLanguage(user.id, parsed.data.language);
  return json(currentUserResponse({ ...user, language: parsed.data.language }));
}

export function loader() {
  return json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "PUT" } });
}
