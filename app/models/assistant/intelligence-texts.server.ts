import { db } from "@server/db";
import { enqueueJob } from "@server/jobs/queue";
import { defaultLlmProviderName } from "@server/providers/llm";
import {
  composeIntelligence,
  factsKey,
  type ComposedIntelligence,
  type IntelligenceLanguage,
  type RegistryFacts,
} from "~/models/assistant/supplier-intelligence";

/**
 * Which supplier intelligence a reader gets (decisions 028, 029). With the local provider: composed from the registry's
 * facts on every read. With a language model: the text it wrote from the CURRENT facts when there is one; otherwise the
 * composed text at once, and the writing is queued (`intelligence.write`) so the next read has the model's — a screen
 * never waits for a model.
 */

export const WRITE_INTELLIGENCE_JOB = "intelligence.write";

export interface WriteIntelligencePayload {
  companyId: number;
  language: IntelligenceLanguage;
}

export async function intelligenceFor(companyId: number, facts: RegistryFacts, language: IntelligenceLanguage): Promise<ComposedIntelligence | null> {
  const composed = composeIntelligence(facts, language);
  if (!composed || defaultLlmProviderName() === "local") return composed;
  const stored = await db()
    .selectFrom("intelligence_texts")
    .select(["facts_key", "data"])
    .where("company_id", "=", companyId)
    .where("language", "=", language)
    .executeTakeFirst();
  if (stored && stored.facts_key === factsKey(facts)) return JSON.parse(stored.data) as ComposedIntelligence;
  await queueWriting({ companyId, language });
  return composed;
}

/** Queues the writing once: not again while one for the same company and language is queued or running. */
async function queueWriting(payload: WriteIntelligencePayload): Promise<void> {
  const json = JSON.stringify(payload);
  await db()
    .transaction()
    .execute(async (trx) => {
      const pending = await trx
        .selectFrom("jobs")
        .select("id")
        .where("type", "=", WRITE_INTELLIGENCE_JOB)
        .where("status", "in", ["queued", "running"])
        .where("payload", "=", json)
        .executeTakeFirst();
      if (!pending) await enqueueJob(trx, { type: WRITE_INTELLIGENCE_JOB, organizationId: null, userId: null, payload, maxAttempts: 3 });
    });
}
