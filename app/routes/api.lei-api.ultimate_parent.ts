import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { badRequest, methodNotAllowed, notFound } from "~/http/responses.server";
import { MALFORMED_LEI_MESSAGE, callLeiProvider } from "~/models/registry/lei-api.server";
import { normalizeLei } from "~/models/registry/lei";

const query = z.object({ lei: z.string({ error: "is required" }) });

/**
 * GET /api/lei-api/ultimate_parent?lei= — `{ data }` with the ultimate parent's record, or `{}` (200) when there is none
 * (a reporting exception is not a parent): every answer stays JSON, and the caller reads `data` either way. 404 for an unknown LEI.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const lei = normalizeLei(readQuery(request, query).lei);
  if (!lei) throw badRequest(MALFORMED_LEI_MESSAGE);
  const result = await callLeiProvider(async (provider) => ((await provider.record(lei)) ? { parent: await provider.ultimateParent(lei) } : null));
  if (!result.ok) return json({ error: "Bad Gateway", message: result.message }, { status: result.status });
  if (!result.value) throw notFound(`No LEI record ${lei}`);
  return json(result.value.parent ?? {});
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
