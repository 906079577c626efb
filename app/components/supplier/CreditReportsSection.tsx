import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { SupplierScreenData } from "~/routes/supplier";
import { formatDate } from "~/models/format";
import { notificationRiskColor } from "~/models/risk";
import { withParams } from "./screen-url";
import { Empty, Section } from "./Section";

/**
 * Credit risk (left column): the credit reports ordered on this supplier and the
 * button that opens the order dialog pre-filled with country and registration
 * number. The dialog is URL state (dialog=credit), so the button is a link.
 * The list of earlier reports arrives with the credit report feature; until
 * then the section shows its empty state.
 */
export function CreditReportsSection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t } = useTranslation("supplier");
  const { search } = useLocation();
  const company = data.company;
  const orderHref = withParams(search, { dialog: "credit", country: company.country_code, regNo: company.organization_id });
  return (
    <Section
      id="credit-reports"
      title={t("creditReports.title")}
      actions={
        <Link to={orderHref} preventScrollReset className="btn btn-primary btn-sm">
          {t("creditReports.order")}
        </Link>
      }
    >
      <Empty>{t("creditReports.empty")}</Empty>
      <CreditNotifications notifications={data.notifications} />
    </Section>
  );
}

/** Shown newest first; the rest are counted (the notifications panel lists them all). */
export const CREDIT_NOTIFICATIONS_SHOWN = 5;

/** Risk events about this company scoring 20 or more, with the notification colour scale (spec 01 §9). */
function CreditNotifications({ notifications }: { notifications: SupplierScreenData["notifications"] }) {
  const { t } = useTranslation("supplier");
  const shown = notifications.slice(0, CREDIT_NOTIFICATIONS_SHOWN);
  return (
    <div className="mt-4 border-t border-base-300 pt-3">
      <h3 className="mb-2 text-sm font-semibold">{t("creditNotifications.title")}</h3>
      {shown.length === 0 ? (
        <Empty>{t("creditNotifications.empty")}</Empty>
      ) : (
        <ul className="space-y-2">
          {shown.map((n) => (
            <li key={n.id} className="flex items-start justify-between gap-3 text-sm">
              <span className="min-w-0">
                <span className="block">{n.content.title}</span>
                <span className="block text-xs text-base-content/70">
                  {formatDate(n.date)} · {n.content.source ?? n.type} · {t("creditNotifications.relevance", { percent: n.relevance_score })}
                </span>
              </span>
              <span className={`badge badge-sm shrink-0 ${NOTIFICATION_BADGE[notificationRiskColor(n.risk_score)]}`}>
                {t("creditNotifications.riskScore", { score: n.risk_score })}
              </span>
            </li>
          ))}
          {notifications.length > shown.length ? (
            <li className="text-xs text-base-content/70">{t("creditNotifications.more", { count: notifications.length - shown.length })}</li>
          ) : null}
        </ul>
      )}
    </div>
  );
}

const NOTIFICATION_BADGE = {
  red: "badge-error",
  orange: "bg-orange-500 text-white border-orange-500",
  yellow: "badge-warning",
  lime: "bg-lime-400 text-lime-950 border-lime-400",
  green: "badge-success",
} as const;
