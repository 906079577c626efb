import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { formatDate } from "~/models/shared/format";
import { badgeClass } from "~/components/risk/colors";
import { notificationRiskColor } from "~/models/suppliers/risk";

/** What one notification row needs (the API's shape, shared/spec/01-shell-chat-lei.md §3, and the viewer's read flag). */
export interface NotificationRowData {
  id: number;
  type: "announcement" | "search";
  date: string;
  risk_score: number;
  relevance_score: number;
  organization: { id: string; local_organization_id: number | null; organization_name: string };
  content: { title: string; source: string | null; url: string | null; risk: { description: string | null } };
  read?: boolean;
}

/** Spec 01 §2.4: the organisation links to /supplier with externalId and, when known, localId. */
export function supplierHref(organization: NotificationRowData["organization"]): string {
  const params = new URLSearchParams({ externalId: organization.id });
  if (organization.local_organization_id != null) params.set("localId", String(organization.local_organization_id));
  return `/supplier?${params}`;
}

/** The risk score in its colour band (shared/spec/01-shell-chat-lei.md §9), its number always written out. */
export function RiskBadge({ score }: { score: number }) {
  const { t } = useTranslation("notifications");
  return (
    <span className={`${badgeClass(notificationRiskColor(score))} badge-sm font-semibold tabular-nums`} title={t("riskScoreValue", { score })}>
      <span className="sr-only">{t("riskScore")} </span>
      {score}
    </span>
  );
}

/** One notification: organisation (link), title, date, risk score and relevance percent (shared/spec/01-shell-chat-lei.md §2.4). */
export function NotificationSummary({ notification, children }: { notification: NotificationRowData; children?: React.ReactNode }) {
  const { t, i18n } = useTranslation("notifications");
  return (
    <article className="flex flex-col gap-1">
      <div className="flex items-start justify-between gap-2">
        <Link to={supplierHref(notification.organization)} className="link link-primary min-w-0 break-words font-medium">
          {notification.organization.organization_name}
        </Link>
        <RiskBadge score={notification.risk_score} />
      </div>
      <p className="break-words text-sm">
        {notification.read === false ? (
          <span className="mr-1 inline-block size-2 rounded-full bg-primary align-middle" title={t("unread")}>
            <span className="sr-only">{t("unread")}</span>
          </span>
        ) : null}
        {notification.content.title}
      </p>
      <p className="flex flex-wrap gap-x-3 text-xs text-base-content/70">
        <time dateTime={notification.date}>{formatDate(notification.date, i18n.language)}</time>
        <span>{t("relevanceValue", { percent: notification.relevance_score })}</span>
        <span>{t(`types.${notification.type}`)}</span>
      </p>
      {children}
    </article>
  );
}
