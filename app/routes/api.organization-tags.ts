import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireApiUser, requireOrganization } from "~/models/session.server";
import { listTags } from "~/models/tags.server";

/** GET /api/organization-tags → `{data: [{id, title}]}`: the session organisation's tags. */
export async function loader({ request }: LoaderFunctionArgs) {
  const organizationId = requireOrganization(await requireApiUser(request));
  return json({ data: await listTags({ organizationId }) });
}
