import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery, requireId } from "~/http/parse.server";
import { methodNotAllowed, notFound } from "~/http/responses.server";
import { organizationCountry } from "~/models/suppliers/sub-suppliers.server";

const query = z.object({ localOrganizationId: z.string({ error: "is required" }) });

/**
 * GET /api/organization/country?localOrganizationId= — `{data}` with the
 * country facts at the top level and again under `country_data` (shared/spec/02-supplier-credit-connections.md §3
 * "Country data"). 404 when the organisation or its country is unknown.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const localOrganizationId = requireId(readQuery(request, query).localOrganizationId, "localOrganizationId");
  const country = await organizationCountry(localOrganizationId);
  if (!country) throw notFound("No country data found for this organization.");
  return json({ data: { ...country, country_data: { ...country } } });
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
