import { formatDate } from "~/models/shared/format";
import type { ItemHeader } from "~/models/tasks/respondent.server";
import { useTranslation } from "~/translations";

/** The texts of the respondent pages (loaded before a page shows when it is reached by a navigation with JavaScript). */
export const RESPONDENT_NAMESPACES = ["respond", "taskStates"] as const;

/**
 * The frame of the respondent pages (decision 033): no application shell, no script. A signed-in respondent gets a bar
 * with their organisation (`organization`, null on a link), the lists and sign-out; someone who came by a link gets nothing to navigate to (the link
 * opens one item). The public header above (PublicShell) carries the language switch, a plain form.
 */
export function RespondentFrame({ organization, children }: { organization: string | null; children: React.ReactNode }) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  return (
    <div className="mx-auto w-full max-w-3xl">
      {organization !== null ? (
        <nav aria-label={t("respond:nav.label")} className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-base-300 pb-3 text-sm">
          <span className="font-medium">{organization}</span>
          <a className="link" href="/tasks/overview">
            {t("respond:nav.overview")}
          </a>
          <a className="link" href="/tasks/my_tasks">
            {t("respond:nav.myTasks")}
          </a>
          <a className="link" href="/tasks/surveys/my_surveys">
            {t("respond:nav.mySurveys")}
          </a>
          <form method="post" action="/logout" className="ml-auto">
            <button type="submit" className="btn btn-ghost btn-xs">
              {t("respond:nav.signOut")}
            </button>
          </form>
        </nav>
      ) : null}
      {children}
    </div>
  );
}

/** A status as a badge: overdue and returned stand out. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  const tone =
    status === "overdue" || status === "returned" ? "badge-error" : status === "submitted" || status === "accepted" ? "badge-success" : "badge-ghost";
  return <span className={`badge badge-sm whitespace-nowrap ${tone}`}>{t(`taskStates:status.${status}`)}</span>;
}

/** The item's heading: what, from whom, the state and due date, the sender's message, and a return comment at the top. */
export function ItemHeading({ header, formError }: { header: ItemHeader; formError: string | null }) {
  const { t, i18n } = useTranslation(RESPONDENT_NAMESPACES);
  const language = i18n.language;
  return (
    <header className="mb-4">
      <p className="text-sm text-base-content/70">{t("respond:item.from", { customer: header.customerName, kind: t(`taskStates:kind.${header.kind}`) })}</p>
      <h1 className="mt-1 text-2xl font-semibold break-words">{header.title}</h1>
      <p className="mt-2 flex flex-wrap items-center gap-2 text-sm">
        <StatusBadge status={header.displayStatus} />
        <span>{header.dueDate ? `${t("taskStates:dueDate")}: ${formatDate(header.dueDate, language)}` : t("taskStates:noDueDate")}</span>
      </p>
      {formError ? (
        <div role="alert" className="alert alert-error mt-3 text-sm">
          {formError}
        </div>
      ) : null}
      {header.returnComment ? (
        <div role="note" className="alert alert-warning mt-3 block text-sm">
          <p className="font-semibold">{t("respond:item.returned")}</p>
          <p className="mt-1 whitespace-pre-line">{header.returnComment}</p>
        </div>
      ) : null}
      {!header.editable && header.submittedAt ? (
        <p className="mt-3 text-sm" role="status">
          {t("respond:item.submittedOn", { date: formatDate(header.submittedAt, language) })}
          {header.answeredByName ? ` ${t("respond:item.answeredBy", { name: header.answeredByName })}` : ""}
        </p>
      ) : null}
      {header.message ? (
        <div className="mt-3 rounded-box border border-base-300 bg-base-100 p-3 text-sm">
          <p className="font-medium">{t("respond:item.message", { customer: header.customerName })}</p>
          <p className="mt-1 whitespace-pre-line break-words">{header.message}</p>
        </div>
      ) : null}
    </header>
  );
}

/** A refused link: what happened and what to do, nothing else. */
export function LinkRefused({ refusal }: { refusal: string }) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  return (
    <div className="mx-auto w-full max-w-md rounded-box border border-base-300 bg-base-100 p-6">
      <h1 className="text-xl font-semibold">{t("taskStates:link.title")}</h1>
      <p role="alert" className="alert alert-warning mt-4 text-sm">
        {t(`taskStates:link.${refusal}`)}
      </p>
    </div>
  );
}

/** "1.2 MB", for file lists. */
export function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}
