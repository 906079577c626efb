import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { apiError, parseQuery } from "@server/http";
import { board, findCompany } from "~/models/registry.server";
import { orgNumberQuery } from "~/models/registry-params";
import { requireAnalystApiUser } from "~/models/session.server";

/** GET /api/business-api/board_former?organization_id= — former board members, highest boardscore first. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnalystApiUser(request);
  const { organization_id } = parseQuery(request, orgNumberQuery("organization_id"));
  const company = await findCompany(organization_id);
  if (!company) throw apiError(404, `No organisation ${organization_id}`);
  return json(await board(company.id, "former"));
}
