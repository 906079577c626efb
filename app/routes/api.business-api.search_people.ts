import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { methodNotAllowed } from "~/http/responses.server";
import { searchPersons } from "~/models/registry/registry.server";

const query = z.object({
  term: z.string({ error: "give a search term" }).trim().min(1, "give a search term"),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

/** GET /api/business-api/search_people?term= — `{found, hits:[{document:{pId, name, scor, orgNam}}]}` */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const { term, limit } = readQuery(request, query);
  const result = await searchPersons(term, limit);
  return json({ found: result.found, hits: result.hits.map((document) => ({ document })) });
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
