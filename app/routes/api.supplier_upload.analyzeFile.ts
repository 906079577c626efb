import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/http/auth.server";
import { readJson } from "~/http/parse.server";
import { methodNotAllowed, refusalResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { startAnalysis } from "~/models/files/supplier-imports.server";
import { isRefusal, type Refusal } from "~/models/shared/refusal";

const column = z.number().int().min(0).max(16_383).nullable().optional();

const body = z.object({
  fileId: z.number().int().positive(),
  orgId: column,
  orgName: column,
  countryCode: column,
  hasHeaders: z.boolean().optional(),
  sheet: z.number().int().min(0).max(255).optional(),
});

/**
 * POST /api/supplier_upload/analyzeFile {fileId, orgId, orgName, countryCode|null, hasHeaders[, sheet]} — column indexes
 * from 0 (shared/spec/02-supplier-credit-connections.md §7): starts the analysis of one of the user's own uploaded spreadsheets as a background job and answers
 * 202 {importId, jobId, href} (href: the import's page, where the dry run is read and confirmed). Needs `suppliersWrite`,
 * since confirming the import creates suppliers. 404 for any file but the user's own; 400 with a message for a mapping
 * without both an Org ID and an Org Name column, a column the file does not have, the same column twice, or a file the
 * readers refuse.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") throw methodNotAllowed(["POST"]);
  const user = await requireUser(request, "suppliersWrite");
  const input = await readJson(request, body);
  const t = await i18nServer.getFixedT(request);
  try {
    const started = await startAnalysis({
      organizationId: user.organizationId,
      userId: user.id,
      fileId: input.fileId,
      mapping: {
        orgId: input.orgId ?? null,
        orgName: input.orgName ?? null,
        countryCode: input.countryCode ?? null,
        hasHeaders: input.hasHeaders ?? true,
        sheet: input.sheet ?? 0,
      },
    });
    return json({ importId: started.importId, jobId: started.jobId, href: started.href }, { status: 202 });
  } catch (error) {
    if (!isRefusal(error)) throw error;
    throw refusalResponse(error, analysisRefusalMessage(t, error));
  }
}

/** The refusal's message in the user's language (the file's own 404 in English, as every API's). */
function analysisRefusalMessage(t: (key: string) => string, refusal: Refusal): string {
  if (refusal.code === "file-not-found") return refusal.message;
  if (refusal.code === "file-unreadable") return t(String(refusal.details.messageKey));
  return t(`imports:analyze.errors.${refusal.code}`);
}

export async function loader() {
  throw methodNotAllowed(["POST"]);
}
