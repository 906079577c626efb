import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { isCreditCountry } from "~/models/credit/credit";
import { supplierCreditReports } from "~/models/credit/credit-reports.server";

const query = z.object({
  regNo: z.string({ error: "is required" }).trim().min(1, "is required").max(50, "must be at most 50 characters"),
  country: z
    .string({ error: "is required" })
    .refine(isCreditCountry, "must be one of the credit report countries (NO, AT, BE, CA, DK, FR, DE, IE, IT, JP, LU, MX, NL, SE, GB, US)"),
});

/**
 * GET /api/credit-safe/supplier-reports?regNo=&country= — `{data: [{id,
 * companyName, fileName, createdAt, user: {email}}]}`: the session
 * organisation's reports on that company from the last 24 months, newest
 * first. Wrapped in `data` like every other JSON answer of this API.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  const { regNo, country } = readQuery(request, query);
  return json({ data: await supplierCreditReports({ organizationId: user.organizationId, regNo, country }) });
}
