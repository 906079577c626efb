import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireApiUser, requireOrganization } from "~/models/session.server";
import { listTagsWithCounts } from "~/models/tags.server";

/** GET /api/organization-tags/with-counts → `{data: [{id, title, organizationConnectionsCount}]}`. */
export async function loader({ request }: LoaderFunctionArgs) {
  const organizationId = requireOrganization(await requireApiUser(request));
  return json({ data: await listTagsWithCounts({ organizationId }) });
}
