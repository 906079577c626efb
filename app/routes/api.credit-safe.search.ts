import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { errorResponse } from "~/http/responses.server";
import { isCreditCountry } from "~/models/credit/credit";
import { searchCreditCompanies } from "~/models/credit/credit-reports.server";

const query = z.object({
  country: z.string().refine(isCreditCountry, "must be one of the credit report countries (NO, AT, BE, CA, DK, FR, DE, IE, IT, JP, LU, MX, NL, SE, GB, US)"),
  name: z.string().max(300, "must be at most 300 characters").optional(),
  regNo: z.string().max(50, "must be at most 50 characters").optional(),
});

/**
 * GET /api/credit-safe/search?country=&name=&regNo= — `{data: companies}`
 * (shared/spec/02-supplier-credit-connections.md §3 "Company search result (credit)"). 400 for an unknown country
 * or when name and registration number are both blank (shared/spec/02-supplier-credit-connections.md §5); a
 * failing provider answers an empty list (shared/spec/02-supplier-credit-connections.md §8).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const { country, name, regNo } = readQuery(request, query);
  if (!name?.trim() && !regNo?.trim()) throw errorResponse(400, "name or regNo: give a company name or a registration number");
  // The spec names the answer `companies` (shared/spec/02-supplier-credit-connections.md §7).
  return json({ companies: await searchCreditCompanies({ country, name, regNo }) });
}
