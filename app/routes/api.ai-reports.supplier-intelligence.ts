import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { apiError, parseQuery } from "@server/http";
import { findCompany, supplierIntelligence } from "~/models/registry.server";
import { orgNumberQuery } from "~/models/registry-params";
import { requireAnalystApiUser } from "~/models/session.server";

/** GET /api/ai-reports/supplier-intelligence?organizationId= — `{data}`; 404 when there is no summary. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnalystApiUser(request);
  const { organizationId } = parseQuery(request, orgNumberQuery("organizationId"));
  const company = await findCompany(organizationId);
  if (!company) throw apiError(404, `No organisation ${organizationId}`);
  const data = await supplierIntelligence(company.id);
  if (!data) throw apiError(404, "No Supplier Intelligence found for this organization.");
  return json({ data });
}
