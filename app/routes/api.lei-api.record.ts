import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { badRequest, methodNotAllowed, notFound } from "~/http/responses.server";
import { MALFORMED_LEI_MESSAGE, callLeiProvider, withLegalFormName } from "~/models/registry/lei-api.server";
import { normalizeLei } from "~/models/registry/lei";

const query = z.object({ lei: z.string({ error: "is required" }) });

/**
 * GET /api/lei-api/record?lei= — `{ data: { type, id, attributes: { lei, entity, registration, … } } }`, with the legal
 * form's ELF name from the store's ELF list in `entity.legalForm.name` (null when unknown) for both providers.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const lei = normalizeLei(readQuery(request, query).lei);
  if (!lei) throw badRequest(MALFORMED_LEI_MESSAGE);
  const result = await callLeiProvider((provider) => provider.record(lei));
  if (!result.ok) return json({ error: "Bad Gateway", message: result.message }, { status: result.status });
  if (!result.value) throw notFound(`No LEI record ${lei}`);
  return json(await withLegalFormName(result.value));
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
