import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { apiError, parseQuery } from "@server/http";
import { organizationCountry } from "~/models/sub-suppliers.server";
import { requireAnalystApiUser } from "~/models/session.server";

const query = z.object({
  localOrganizationId: z
    .string({ error: "is required" })
    .regex(/^[1-9]\d{0,15}$/, "must be a positive whole number")
    .transform(Number),
});

/**
 * GET /api/organization/country?localOrganizationId= — `{data}` with the
 * country facts at the top level and again under `country_data` (spec 02 §3
 * "Country data"). 404 when the organisation or its country is unknown.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnalystApiUser(request);
  const { localOrganizationId } = parseQuery(request, query);
  const country = await organizationCountry(localOrganizationId);
  if (!country) throw apiError(404, "No country data found for this organization.");
  return json({ data: { ...country, country_data: { ...country } } });
}
