import type { Kysely, Transaction } from "kysely";
import { now } from "../db";
import { enqueueJob } from "../jobs/queue";
import type { DB } from "../db-types";

/**
 * The one way a monitor raises notifications (decision 022): registry changes and news hits alike. Each
 * carries a dedupe key, and a key already written is skipped — so the same change or news item never raises two
 * notifications, a re-run after a crash writes nothing twice, and a dismissed notification (its row, dismissed by
 * an organisation) is never raised again as a new one.
 */
export interface DetectedNotification {
  /** The registry company it is about (companies.id). */
  companyId: number;
  /** The detection kind (app/models/notifications/monitoring-rules.ts, app/models/notifications/news-rules.ts). */
  kind: string;
  /** Spec 01 §3: 'announcement' for registry events, 'search' for news. */
  type: "announcement" | "search";
  /** When it happened (the registry's date, the article's date): ISO 8601. */
  date: string;
  /** 0–100. */
  riskScore: number;
  /** 0–100 (percent). */
  relevanceScore: number;
  title: { en: string; no: string | null };
  description: { en: string | null; no: string | null };
  /** Who says so: 'Brønnøysundregistrene', the feed's name. */
  source: string | null;
  /** Where to read more (an http(s) URL) or null. */
  url: string | null;
  /** What changed, for the detail and the mails; stored as JSON. */
  details?: Record<string, unknown> | null;
  /** The organisation whose own feed found it (only it sees it); null or absent: registry-wide. */
  organizationId?: number | null;
  /** Same event, same key: 'registry:{orgnr}:{kind}:{digest}', 'news:{orgId}:{companyId}:{itemDigest}'. */
  dedupeKey: string;
}

const clamp = (value: number) => Math.max(0, Math.min(100, Math.round(value)));

/** The job that recomputes the stored overall risk of the companies' followers (handler: app/models/suppliers/overall-risk.server.ts). */
export const RISK_RECOMPUTE_JOB = "risk.recompute";

/**
 * Writes the new ones, skips the keys already there; returns the ids written (in input order). When any was written, a
 * "risk.recompute" job for their companies is enqueued in the same transaction (decision 036).
 */
export async function raiseNotifications(database: Kysely<DB> | Transaction<DB>, items: DetectedNotification[]): Promise<number[]> {
  const ids: number[] = [];
  const companyIds = new Set<number>();
  const createdAt = now();
  for (const item of items) {
    const row = await database
      .insertInto("risk_notifications")
      .values({
        company_id: item.companyId,
        kind: item.kind,
        type: item.type,
        date: item.date,
        created_at: createdAt,
        risk_score: clamp(item.riskScore),
        relevance_score: clamp(item.relevanceScore),
        title: item.title.en,
        title_no: item.title.no,
        description: item.description.en,
        description_no: item.description.no,
        source: item.source,
        url: item.url,
        details: item.details ? JSON.stringify(item.details) : null,
        organization_id: item.organizationId ?? null,
        dedupe_key: item.dedupeKey,
      })
      .onConflict((oc) => oc.column("dedupe_key").where("dedupe_key", "is not", null).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (row) {
      ids.push(row.id);
      companyIds.add(item.companyId);
    }
  }
  if (companyIds.size > 0) {
    await enqueueJob(database, { type: RISK_RECOMPUTE_JOB, organizationId: null, userId: null, payload: { companyIds: [...companyIds] } });
  }
  return ids;
}
