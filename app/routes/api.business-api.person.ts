import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { apiError, parseQuery } from "@server/http";
import { person } from "~/models/registry.server";
import { requireAnalystApiUser } from "~/models/session.server";

const query = z.object({ person_id: z.coerce.number({ error: "must be a number" }).int().positive("must be a positive number") });

/** GET /api/business-api/person?person_id= — name, age, sex, country, boardscore, roles, inactive_roles, shares. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnalystApiUser(request);
  const { person_id } = parseQuery(request, query);
  const found = await person(person_id);
  if (!found) throw apiError(404, `No person ${person_id}`);
  return json(found);
}
