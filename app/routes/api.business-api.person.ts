import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery, requireId } from "~/http/parse.server";
import { methodNotAllowed, notFound } from "~/http/responses.server";
import { person } from "~/models/registry/registry.server";

const query = z.object({ person_id: z.string({ error: "is required" }) });

/** GET /api/business-api/person?person_id= — name, age, sex, country, boardscore, roles, inactive_roles, shares. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const personId = requireId(readQuery(request, query).person_id, "person_id");
  const found = await person(personId);
  if (!found) throw notFound(`No person ${personId}`);
  return json(found);
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
