import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { listTagsWithCounts } from "~/models/suppliers/tags.server";

/** GET /api/organization-tags/with-counts → `{data: [{id, title, organizationConnectionsCount}]}`. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  return json({ data: await listTagsWithCounts({ organizationId: user.organizationId }) });
}
