import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { isCreditCountry } from "~/models/credit/credit";
import { reportLanguageChoice } from "~/models/credit/credit-reports.server";

const query = z.object({
  country: z.string().refine(isCreditCountry, "must be one of the credit report countries (NO, AT, BE, CA, DK, FR, DE, IE, IT, JP, LU, MX, NL, SE, GB, US)"),
});

/**
 * GET /api/credit-safe/report-languages?country= — `{data: ['NO', 'EN']}`:
 * the languages a report on that country can be ordered in, Norwegian first
 * when offered. The shared/spec/02-supplier-credit-connections.md §4 rule is applied here, so a failing provider
 * answers `{data: ['EN']}` and every listed language is one the order accepts.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const { country } = readQuery(request, query);
  const { options } = await reportLanguageChoice(country);
  // The spec names the answer `languages` (shared/spec/02-supplier-credit-connections.md §7).
  return json({ languages: options });
}
