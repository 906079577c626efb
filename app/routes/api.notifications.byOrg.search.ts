import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { methodNotAllowed, notFound } from "~/http/responses.server";
import { DEFAULT_MIN_RISK_SCORE, notificationsForCompany } from "~/models/notifications/notifications.server";
import { orgNumberQuery } from "~/models/registry/registry-params";

const query = orgNumberQuery("organizationId").extend({
  minRiskScore: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, "must be a whole number from 0 to 100")
    .transform(Number)
    .pipe(z.number().max(100, "must be a whole number from 0 to 100"))
    .optional(),
});

/** GET /api/notifications/byOrg/search?organizationId=&minRiskScore=20 — `{data}`, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  const { organizationId, minRiskScore } = readQuery(request, query);
  const data = await notificationsForCompany({
    orgNumber: organizationId,
    minRiskScore: minRiskScore ?? DEFAULT_MIN_RISK_SCORE,
    viewer: { organizationId: user.organizationId, language: user.language },
  });
  if (!data) throw notFound(`No organisation ${organizationId}`);
  return json({ data });
}

export function action() {
  throw methodNotAllowed(["GET"]);
}
