import { db } from "@server/db";
import { PermanentJobError, type JobHandler } from "@server/jobs/types";
import { defaultProviderName, findProvider } from "~/models/assistant/conversations.server";
import type { WriteIntelligencePayload } from "~/models/assistant/intelligence-texts.server";
import { factsKey, factsOfCompany } from "~/models/assistant/supplier-intelligence";

/**
 * The job `intelligence.write` (decision 029): the configured model writes one company's supplier intelligence from its
 * registry facts, and the text is stored with the digest of those facts. A failure is retried (at most 3 attempts); until
 * a text is stored, readers get the composed one.
 */
export const writeIntelligenceJob: JobHandler<WriteIntelligencePayload> = async (ctx) => {
  const { companyId, language } = ctx.job.payload;
  const row = await db().selectFrom("companies").selectAll().where("id", "=", companyId).executeTakeFirst();
  if (!row) return;
  const facts = factsOfCompany(row);
  const found = await findProvider(defaultProviderName());
  if (!("provider" in found)) throw new PermanentJobError("common:errors.serverError");
  const written = await found.provider.writeIntelligence({ facts, language, signal: ctx.signal });
  if (!written || written.writtenBy?.kind !== "model") return;
  await ctx.finish(async (trx) => {
    await trx
      .insertInto("intelligence_texts")
      .values({
        company_id: companyId,
        language,
        facts_key: factsKey(facts),
        model: written.writtenBy?.kind === "model" ? written.writtenBy.model : "",
        data: JSON.stringify(written),
        written_at: new Date().toISOString(),
      })
      .onConflict((oc) =>
        oc.columns(["company_id", "language"]).doUpdateSet((eb) => ({
          facts_key: eb.ref("excluded.facts_key"),
          model: eb.ref("excluded.model"),
          data: eb.ref("excluded.data"),
          written_at: eb.ref("excluded.written_at"),
        })),
      )
      .execute();
  });
};
