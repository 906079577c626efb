import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { apiError, idParam } from "@server/http";
import { isFollowedSupplier } from "~/models/sub-suppliers.server";
import { submittedSurveyResponses } from "~/models/surveys.server";
import { requireAnalystApiUser, requireOrganization } from "~/models/session.server";

/**
 * GET /api/surveys/organization/{localOrgId} — the submitted responses to the
 * session organisation's surveys from that supplier, newest first. 404 when
 * the organisation neither follows the supplier nor has responses from it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const organizationId = requireOrganization(await requireAnalystApiUser(request));
  const supplierOrganizationId = idParam(params.localOrgId, "localOrgId");
  const responses = await submittedSurveyResponses({ organizationId, supplierOrganizationId });
  if (!responses.length && !(await isFollowedSupplier({ organizationId, supplierOrganizationId }))) {
    throw apiError(404, "No supplier with this id among your organisation's suppliers.");
  }
  return json(responses);
}
