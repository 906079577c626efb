import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { methodNotAllowed, notFound } from "~/http/responses.server";
import { financialStatements, findCompany } from "~/models/registry/registry.server";
import { orgNumberQuery } from "~/models/registry/registry-params";

/** GET /api/business-api/financial_statements?organization_id= — newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const { organization_id } = readQuery(request, orgNumberQuery("organization_id"));
  const company = await findCompany(organization_id);
  if (!company) throw notFound(`No organisation ${organization_id}`);
  return json(await financialStatements(company.id));
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
