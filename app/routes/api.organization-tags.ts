import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { listTags } from "~/models/suppliers/tags.server";

/** GET /api/organization-tags → `{data: [{id, title}]}`: the session organisation's tags. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  return json({ data: await listTags({ organizationId: user.organizationId }) });
}
