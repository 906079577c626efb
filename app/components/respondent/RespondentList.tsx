import { formatDate } from "~/models/shared/format";
import type { RespondentListItem } from "~/models/tasks/respondent.server";
import { useTranslation } from "~/translations";
import { RESPONDENT_NAMESPACES, RespondentFrame, StatusBadge } from "./RespondentFrame";

/**
 * What the organisation must answer, as a list that reads on a phone: one item per row, the open ones first (overdue,
 * then by due date), then what was submitted. Each row is a plain link to its answer page.
 */
export function RespondentList({ items, headingId, title, showKind }: { items: RespondentListItem[]; headingId: string; title: string; showKind: boolean }) {
  const { t, i18n } = useTranslation(RESPONDENT_NAMESPACES);
  const open = items.filter((i) => ["sent", "opened", "draft", "returned"].includes(i.status));
  const done = items.filter((i) => !open.includes(i));
  const rows = (list: RespondentListItem[]) => (
    <ul className="divide-y divide-base-300 rounded-box border border-base-300 bg-base-100">
      {list.map((item) => (
        <li key={item.id} className="p-3">
          <a href={item.href} className="link link-hover font-medium break-words">
            {item.title}
          </a>
          <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-base-content/80">
            <StatusBadge status={item.displayStatus} />
            {showKind ? <span>{t(`taskStates:kind.${item.kind}`)}</span> : null}
            <span>{t("respond:list.from", { customer: item.customerName })}</span>
            <span>
              {item.submittedAt && done.includes(item)
                ? t("respond:list.submittedOn", { date: formatDate(item.submittedAt, i18n.language) })
                : item.dueDate
                  ? `${t("taskStates:dueDate")}: ${formatDate(item.dueDate, i18n.language)}`
                  : t("taskStates:noDueDate")}
            </span>
          </p>
        </li>
      ))}
    </ul>
  );
  return (
    <section aria-labelledby={headingId} className="mb-8">
      <h2 id={headingId} className="mb-2 text-lg font-semibold">
        {title}
      </h2>
      {open.length === 0 ? <p className="text-sm text-base-content/70">{t("respond:list.nothingOpen")}</p> : rows(open)}
      {done.length > 0 ? (
        <>
          <h3 className="mt-4 mb-2 text-base font-semibold">{t("respond:list.done")}</h3>
          {rows(done)}
        </>
      ) : null}
    </section>
  );
}

/** A whole list page (My tasks, My surveys): the respondent bar, the title and the list. */
export function RespondentListScreen({
  organization,
  items,
  title,
  headingId,
}: {
  organization: string;
  items: RespondentListItem[];
  title: string;
  headingId: string;
}) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  return (
    <RespondentFrame organization={organization}>
      <h1 className="mb-4 text-2xl font-semibold">{title}</h1>
      <RespondentList items={items} headingId={headingId} title={t("respond:list.toAnswer")} showKind={false} />
    </RespondentFrame>
  );
}
