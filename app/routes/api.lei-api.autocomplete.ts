import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { methodNotAllowed } from "~/http/responses.server";
import { callLeiProvider } from "~/models/registry/lei-api.server";

const query = z.object({ term: z.string().max(200, "is longer than 200 characters").optional() });

/** GET /api/lei-api/autocomplete?term= — GLEIF autocompletion items; a blank term answers [] without a lookup. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const term = readQuery(request, query).term?.trim() ?? "";
  if (term === "") return json([]);
  const result = await callLeiProvider((provider) => provider.autocomplete(term));
  if (!result.ok) return json({ error: "Bad Gateway", message: result.message }, { status: result.status });
  return json(result.value);
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
