import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { apiError, idParam, parseQuery } from "@server/http";
import { subSuppliers } from "~/models/sub-suppliers.server";
import { requireOrganization, requireAnalystApiUser } from "~/models/session.server";

const query = z.object({
  searchTerm: z.string().max(100, "must be at most 100 characters").optional(),
});

/**
 * GET /api/suppliers/{supplierOrgId}/sub-suppliers?searchTerm= — `{data}`,
 * at most 200 by name. 404 unless the session's organisation follows the
 * supplier; 403 when the supplier has not shared its data (spec 02 §6).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const organizationId = requireOrganization(await requireAnalystApiUser(request));
  const supplierOrganizationId = idParam(params.supplierOrgId, "supplierOrgId");
  const { searchTerm } = parseQuery(request, query);
  const result = await subSuppliers({ organizationId, supplierOrganizationId, searchTerm });
  switch (result.status) {
    case "ok":
      return json({ data: result.data });
    case "not-shared":
      throw apiError(403, "This organization has not shared access to its data.");
    case "not-found":
      throw apiError(404, "No supplier with this id among your organisation's suppliers.");
  }
}
