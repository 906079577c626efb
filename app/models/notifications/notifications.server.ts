import { db } from "@server/db";

/**
 * Risk notifications about one company (shared/spec/01-shell-chat-lei.md §3 "Notification"), as the
 * supplier screen's reputation risk and `/api/notifications/byOrg/search` read
 * them. Registry events are data about public companies; a news hit found by an
 * organisation's own feed is that organisation's only, and one it dismissed no
 * longer counts for it (decision 022) — the same rules as its notification list.
 */

/** Reputation risk counts notifications from this score up (shared/spec/02-supplier-credit-connections.md §9). */
export const DEFAULT_MIN_RISK_SCORE = 20;

/** Enough for the reputation average of any real company, small enough for one response. */
export const NOTIFICATIONS_PER_COMPANY_LIMIT = 500;

export interface NotificationOut {
  id: number;
  type: "announcement" | "search";
  createdAt: string;
  date: string;
  risk_score: number;
  relevance_score: number;
  organization: { id: string; local_organization_id: number | null; organization_name: string };
  content: {
    type: "announcement" | "search";
    source: string | null;
    url: string | null;
    title: string;
    date: string;
    risk: { description: string | null };
  };
}

/** Newest first; null when the organisation number is not in the registry. */
export async function notificationsForCompany({
  orgNumber,
  minRiskScore = DEFAULT_MIN_RISK_SCORE,
  viewer,
}: {
  orgNumber: string;
  minRiskScore?: number;
  /** The viewer's organisation and language; without it only registry-wide notifications, in English. */
  viewer?: { organizationId: number | null; language: "en" | "no" };
}): Promise<NotificationOut[] | null> {
  const company = await db().selectFrom("companies").select(["id", "org_number", "legal_name"]).where("org_number", "=", orgNumber).executeTakeFirst();
  if (!company) return null;
  // A supplier organisation is the local identity the /supplier link wants;
  // a customer that happens to carry the number comes second.
  const local = await db()
    .selectFrom("organizations")
    .select("id")
    .where("org_number", "=", company.org_number)
    .orderBy((eb) => eb.case().when("kind", "=", "supplier").then(0).else(1).end())
    .orderBy("id")
    .executeTakeFirst();
  const rows = await db()
    .selectFrom("risk_notifications")
    .select(["id", "type", "date", "created_at", "risk_score", "relevance_score", "title", "title_no", "source", "url", "description", "description_no"])
    .where("company_id", "=", company.id)
    .where("risk_score", ">=", minRiskScore)
    .where((eb) => {
      const organizationId = viewer?.organizationId;
      if (organizationId == null) return eb("organization_id", "is", null);
      return eb.and([
        eb.or([eb("organization_id", "is", null), eb("organization_id", "=", organizationId)]),
        eb.not(
          eb.exists(
            eb
              .selectFrom("notification_dismissals as d")
              .select("d.notification_id")
              .whereRef("d.notification_id", "=", "risk_notifications.id")
              .where("d.organization_id", "=", organizationId),
          ),
        ),
      ]);
    })
    .orderBy("date", "desc")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(NOTIFICATIONS_PER_COMPANY_LIMIT)
    .execute();
  const organization = { id: company.org_number, local_organization_id: local?.id ?? null, organization_name: company.legal_name };
  const norwegian = viewer?.language === "no";
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    createdAt: r.created_at,
    date: r.date,
    risk_score: r.risk_score,
    relevance_score: r.relevance_score,
    organization,
    content: {
      type: r.type,
      source: r.source,
      url: r.url,
      title: (norwegian && r.title_no) || r.title,
      date: r.date,
      risk: { description: (norwegian && r.description_no) || r.description },
    },
  }));
}
