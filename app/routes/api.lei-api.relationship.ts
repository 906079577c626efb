import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { badRequest, methodNotAllowed, notFound } from "~/http/responses.server";
import { MALFORMED_LEI_MESSAGE, callLeiProvider } from "~/models/registry/lei-api.server";
import { normalizeLei } from "~/models/registry/lei";

const query = z.object({
  lei: z.string({ error: "is required" }),
  path: z.literal("managing-lou", { error: "must be managing-lou" }),
});

/**
 * GET /api/lei-api/relationship?lei=&path=managing-lou — the managing LOU's own LEI record (`data.attributes.entity.legalName.name`,
 * `data.attributes.lei`). 404 for an unknown LEI, and when the LOU's record cannot be found (the caller then shows the raw value).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const params = readQuery(request, query);
  const lei = normalizeLei(params.lei);
  if (!lei) throw badRequest(MALFORMED_LEI_MESSAGE);
  const result = await callLeiProvider(async (provider) => ((await provider.record(lei)) ? { lou: await provider.managingLou(lei) } : null));
  if (!result.ok) return json({ error: "Bad Gateway", message: result.message }, { status: result.status });
  if (!result.value) throw notFound(`No LEI record ${lei}`);
  if (!result.value.lou) throw notFound(`No managing LOU record for ${lei}`);
  return json(result.value.lou);
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
