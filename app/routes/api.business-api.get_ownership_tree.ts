import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { methodNotAllowed, notFound } from "~/http/responses.server";
import { ownershipTree } from "~/models/registry/registry.server";
import { orgNumberQuery } from "~/models/registry/registry-params";

const query = orgNumberQuery("organizationId").extend({
  fraction: z.coerce.number({ error: "must be a number" }).min(0, "must be between 0 and 1").max(1, "must be between 0 and 1").default(1),
});

/** GET /api/business-api/get_ownership_tree?organizationId=&fraction= — three levels of owned companies. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const { organizationId, fraction } = readQuery(request, query);
  const tree = await ownershipTree(organizationId, fraction);
  if (!tree) throw notFound(`No organisation ${organizationId}`);
  return json(tree);
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
