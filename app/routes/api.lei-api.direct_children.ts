import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { badRequest, methodNotAllowed, notFound } from "~/http/responses.server";
import { MALFORMED_LEI_MESSAGE, callLeiProvider } from "~/models/registry/lei-api.server";
import { normalizeLei } from "~/models/registry/lei";

const query = z.object({ lei: z.string({ error: "is required" }) });

/** GET /api/lei-api/direct_children?lei= — every direct child's record (all pages), [] when there are none; 404 for an unknown LEI. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const lei = normalizeLei(readQuery(request, query).lei);
  if (!lei) throw badRequest(MALFORMED_LEI_MESSAGE);
  const result = await callLeiProvider(async (provider) => ((await provider.record(lei)) ? { children: await provider.directChildren(lei) } : null));
  if (!result.ok) return json({ error: "Bad Gateway", message: result.message }, { status: result.status });
  if (!result.value) throw notFound(`No LEI record ${lei}`);
  return json(result.value.children);
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
