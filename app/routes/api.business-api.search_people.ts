import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { parseQuery } from "@server/http";
import { searchPersons } from "~/models/registry.server";
import { requireAnalystApiUser } from "~/models/session.server";

const query = z.object({
  term: z.string().trim().min(1, "give a search term"),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

/** GET /api/business-api/search_people?term= — `{found, hits:[{document:{pId, name, scor, orgNam}}]}` */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnalystApiUser(request);
  const { term, limit } = parseQuery(request, query);
  const result = await searchPersons(term, limit);
  return json({ found: result.found, hits: result.hits.map((document) => ({ document })) });
}
