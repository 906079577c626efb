import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery, requireId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { subSuppliers } from "~/models/suppliers/sub-suppliers.server";

const query = z.object({
  searchTerm: z.string().max(100, "must be at most 100 characters").optional(),
});

/**
 * GET /api/suppliers/{supplierOrgId}/sub-suppliers?searchTerm= — `{data}`,
 * at most 200 by name (registryRead, like the supplier screen). 404 unless
 * the session's organisation follows the supplier; 403 when the supplier has
 * not shared its data (shared/spec/02-supplier-credit-connections.md §6).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organizationId } = await requireUser(request, "registryRead");
  const supplierOrganizationId = requireId(params.supplierOrgId, "supplierOrgId");
  const { searchTerm } = readQuery(request, query);
  const result = await subSuppliers({ organizationId, supplierOrganizationId, searchTerm });
  switch (result.status) {
    case "ok":
      return json({ data: result.data });
    case "not-shared":
      throw errorResponse(403, "This organization has not shared access to its data.");
    case "not-found":
      throw errorResponse(404, "No supplier with this id among your organisation's suppliers.");
  }
}

export async function action() {
  throw methodNotAllowed(["GET"]);
}
