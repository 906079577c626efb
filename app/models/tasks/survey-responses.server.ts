import { db } from "@server/db";

/**
 * Survey responses as the customer that sent the survey sees them (shared/spec/02-supplier-credit-connections.md
 * §3 "Survey response"). Drafts stay the supplier's business until submitted.
 */

export interface SurveyResponseOut {
  id: number;
  surveyTemplate: { title: string };
  updatedAt: string;
}

export async function submittedSurveyResponses({
  organizationId,
  supplierOrganizationId,
}: {
  organizationId: number;
  supplierOrganizationId: number;
}): Promise<SurveyResponseOut[]> {
  const rows = await db()
    .selectFrom("survey_responses as sr")
    .innerJoin("survey_templates as st", "st.id", "sr.survey_template_id")
    .select(["sr.id", "sr.updated_at", "st.title"])
    .where("sr.organization_id", "=", organizationId)
    .where("sr.supplier_organization_id", "=", supplierOrganizationId)
    .where("sr.status", "=", "submitted")
    .orderBy("sr.updated_at", "desc")
    .orderBy("sr.id", "desc")
    .execute();
  return rows.map((r) => ({ id: r.id, surveyTemplate: { title: r.title }, updatedAt: r.updated_at }));
}
