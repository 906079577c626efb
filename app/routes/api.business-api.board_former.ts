import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { methodNotAllowed, notFound } from "~/http/responses.server";
import { board, findCompany } from "~/models/registry/registry.server";
import { orgNumberQuery } from "~/models/registry/registry-params";

/** GET /api/business-api/board_former?organization_id= — former board members, highest boardscore first. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const { organization_id } = readQuery(request, orgNumberQuery("organization_id"));
  const company = await findCompany(organization_id);
  if (!company) throw notFound(`No organisation ${organization_id}`);
  return json(await board(company.id, "former"));
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
