import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { requireId } from "~/http/parse.server";
import { errorResponse, methodNotAllowed } from "~/http/responses.server";
import { followsSupplier } from "~/models/suppliers/follows.server";
import { submittedSurveyResponses } from "~/models/tasks/survey-responses.server";

/**
 * GET /api/surveys/organization/{localOrgId} — the submitted responses to the
 * session organisation's surveys from that supplier, newest first
 * (registryRead, like the supplier screen). 404 when the organisation
 * neither follows the supplier nor has responses from it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organizationId } = await requireUser(request, "registryRead");
  const supplierOrganizationId = requireId(params.localOrgId, "localOrgId");
  const responses = await submittedSurveyResponses({ organizationId, supplierOrganizationId });
  if (!responses.length && !(await followsSupplier({ organizationId, supplier: { id: supplierOrganizationId } }))) {
    throw errorResponse(404, "No supplier with this id among your organisation's suppliers.");
  }
  return json(responses);
}

export async function action() {
  throw methodNotAllowed(["GET"]);
}
