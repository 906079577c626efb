import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readJson } from "~/http/parse.server";
import { methodNotAllowed } from "~/http/responses.server";
import { currentUserResponse } from "~/http/session.server";
import { setUserLanguage } from "~/models/accounts/users.server";

const body = z.object({ language: z.enum(["en", "no"], { error: "language must be 'en' or 'no'" }) });

/** PUT /api/users/language {language} */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") throw methodNotAllowed(["PUT"]);
  const user = await requireUser(request);
  const { language } = await readJson(request, body);
  await setUserLanguage(user.id, language);
  return json(currentUserResponse({ ...user, language }, request));
}

export function loader() {
  throw methodNotAllowed(["PUT"]);
}
