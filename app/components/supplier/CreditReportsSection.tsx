import { badgeClass } from "~/components/risk/colors";
import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { DEFAULT_REPORT_FILE_NAME } from "~/models/credit/credit";
import { useFetchDownload } from "~/components/ui/download";
import { formatDate, MISSING } from "~/models/shared/format";
import { notificationRiskColor } from "~/models/suppliers/risk";
import { withParams } from "./screen-url";
import { Empty, Section } from "./Section";

/**
 * Credit risk (left column): the credit reports this organisation ordered on
 * this supplier in the last 24 months, each downloadable, and the button that
 * opens the order dialog pre-filled with country and registration number.
 * The dialog is URL state (dialog=credit), so the button is a link.
 */
export function CreditReportsSection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation(["supplier", "creditReports"]);
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
      {data.creditReports.length === 0 ? (
        <Empty>{t("creditReports.empty")}</Empty>
      ) : (
        <ul aria-label={t("creditReports:section.listLabel")} className="divide-y divide-base-300">
          {data.creditReports.map((report) => (
            <li key={report.id} className="flex items-start justify-between gap-3 py-2 text-sm first:pt-0 last:pb-0">
              <span className="min-w-0">
                <span className="block font-medium">{report.companyName}</span>
                <span className="block break-all text-base-content/80">{report.fileName}</span>
                <span className="block text-xs text-base-content/70">
                  {t("creditReports:section.created", { date: formatDate(report.createdAt, i18n.language) })} ·{" "}
                  {t("creditReports:section.orderedBy", { email: report.user.email ?? t("creditReports:unknownUser") })}
                </span>
              </span>
              <CreditReportDownload id={report.id} fileName={report.fileName} className="btn btn-outline btn-xs shrink-0" />
            </li>
          ))}
        </ul>
      )}
      <CreditNotifications notifications={data.notifications} />
    </Section>
  );
}

/**
 * A credit report's download. It is a plain link (the server answers with an
 * attachment), so it works without JavaScript; with JavaScript it fetches the
 * file, says 'Downloading…' meanwhile and 'Download failed' on a non-OK
 * answer (shared/spec/02-supplier-credit-connections.md §8) instead of leaving the page for an error.
 */
export function CreditReportDownload({ id, fileName, className }: { id: number; fileName: string; className?: string }) {
  const { t } = useTranslation("creditReports");
  const href = `/api/credit-safe/${id}/download`;
  const { state, onClick: download } = useFetchDownload(href, fileName || DEFAULT_REPORT_FILE_NAME);
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <a href={href} download={fileName || DEFAULT_REPORT_FILE_NAME} onClick={download} aria-busy={state === "busy" || undefined} className={className}>
        {state === "busy" ? t("downloading") : t("download")}
        <span className="sr-only"> {fileName || MISSING}</span>
      </a>
      {state === "failed" ? (
        <span role="alert" className="text-xs text-error">
          {t("downloadFailed")}
        </span>
      ) : null}
    </span>
  );
}

/** Shown newest first; the rest are counted (the notifications panel lists them all). */
export const CREDIT_NOTIFICATIONS_SHOWN = 5;

/** Risk events about this company scoring 20 or more, with the notification colour scale (shared/spec/01-shell-chat-lei.md §9). */
function CreditNotifications({ notifications }: { notifications: SupplierScreenData["notifications"] }) {
  const { t, i18n } = useTranslation("supplier");
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
                  {formatDate(n.date, i18n.language)} · {n.content.source ?? n.type} · {t("creditNotifications.relevance", { percent: n.relevance_score })}
                </span>
              </span>
              <span className={`${badgeClass(notificationRiskColor(n.risk_score))} badge-sm shrink-0`}>
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
