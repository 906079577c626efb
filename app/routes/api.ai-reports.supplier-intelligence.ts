import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { methodNotAllowed, notFound } from "~/http/responses.server";
import { findCompany, supplierIntelligence } from "~/models/registry/registry.server";
import { orgNumberQuery } from "~/models/registry/registry-params";

/** GET /api/ai-reports/supplier-intelligence?organizationId= — `{data}` composed from the registry's facts in the user's language; 404 when the registry says neither industry nor purpose. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "registryRead");
  const { organizationId } = readQuery(request, orgNumberQuery("organizationId"));
  const company = await findCompany(organizationId);
  if (!company) throw notFound(`No organisation ${organizationId}`);
  const data = await supplierIntelligence(company.id, user.language);
  if (!data) throw notFound("No Supplier Intelligence found for this organization.");
  return json({ data });
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
