import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { methodNotAllowed } from "~/http/responses.server";
import { isOrgNumber } from "~/models/registry/registry-params";
import { searchCompanies } from "~/models/registry/registry.server";

const query = z.object({
  term: z.string({ error: "give a search term" }).trim().min(1, "give a search term"),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

/**
 * GET /api/business-api/search_organizations?term= — `{found, hits:[{document}]}`.
 * An exact organisation number also answers the organisation at the top level
 * (organization_id, legal_name, opInc, opProft), as the spec allows both.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const { term, limit } = readQuery(request, query);
  const result = await searchCompanies(term, limit);
  const body = { found: result.found, hits: result.hits.map((document) => ({ document })) };
  const exact = isOrgNumber(term) ? result.hits[0] : undefined;
  if (exact) {
    return json({ ...body, organization_id: exact.id, legal_name: exact.name, opInc: exact.opInc, opProft: exact.opProft });
  }
  return json(body);
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
