import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { formatDate } from "~/models/shared/format";
import { isOverdue, osloDate } from "~/models/tasks/task-states";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { withParams } from "./screen-url";
import { Empty, Section } from "./Section";

/** What a task is called: its template's title, else the task's own (a custom task has no template). */
export function taskName(task: { title: string; complianceTaskTemplate: { title: string } | null }): string {
  return task.complianceTaskTemplate?.title ?? task.title;
}

/**
 * Submitted (green check) or not submitted (clock), shared/spec/02-supplier-credit-connections.md §4. The icon is
 * decoration; the words are there for screen readers and as a tooltip.
 */
export function SubmittedIndicator({ submitted, label }: { submitted: boolean; label: string }) {
  return (
    <span title={label} className={`inline-flex shrink-0 ${submitted ? "text-success" : "text-base-content/60"}`}>
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        className="size-5"
        data-indicator={submitted ? "submitted" : "not-submitted"}
      >
        {submitted ? (
          <>
            <circle cx="12" cy="12" r="9.5" />
            <path d="M7.5 12.5l3 3 6-6.5" />
          </>
        ) : (
          <>
            <circle cx="12" cy="12" r="9.5" />
            <path d="M12 7v5l3.5 2" />
          </>
        )}
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/**
 * Compliance tasks the viewer's organisation sent to this supplier (shared/spec/02-supplier-credit-connections.md
 * "Tasks"), with their due dates and "Overdue". Every task opens:
 * a submitted one links to its response (`task={responseId}`), one not yet
 * submitted to its state with a Remind button (`item={supplierTaskId}`) —
 * both URL state, so the dialogs open without JavaScript as well.
 */
export function TasksSection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation(["supplierWork", "campaigns", "supplierTasks", "taskStates"]);
  const { search } = useLocation();
  const tasks = data.tasks;
  const today = osloDate(new Date(data.now));
  return (
    <Section
      id="tasks"
      title={t("tasks.title")}
      actions={
        data.connection ? (
          <Link to={`/supplier_tasks/send?supplier=${data.connection.childId}`} className="btn btn-outline btn-xs">
            {t("campaigns:selection.sendOne")}
          </Link>
        ) : undefined
      }
    >
      {tasks.length === 0 ? (
        <Empty>{t("tasks.empty")}</Empty>
      ) : (
        <ul className="divide-y divide-base-300">
          {tasks.map((task) => {
            const name = taskName(task);
            const submitted = task.is_submitted && task.responseId != null;
            const item = data.taskItems.find((i) => i.complianceTaskId === task.id) ?? null;
            const overdue = item ? isOverdue(item, today) : false;
            const to = submitted ? { task: String(task.responseId) } : item ? { item: String(item.id) } : null;
            return (
              <li key={task.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
                <SubmittedIndicator submitted={task.is_submitted} label={task.is_submitted ? t("tasks.submitted") : t("tasks.notSubmitted")} />
                <div className="min-w-0 flex-1 break-words">
                  {to ? (
                    <Link to={withParams(search, to)} preventScrollReset className="link link-hover link-primary font-medium">
                      {name}
                    </Link>
                  ) : (
                    <span>{name}</span>
                  )}
                  {item && !submitted ? (
                    <span className="block text-xs text-base-content/70 tabular-nums">
                      {item.dueDate ? t("supplierTasks:screen.due", { date: formatDate(item.dueDate, i18n.language) }) : t("supplierTasks:screen.noDue")}
                      {overdue ? <span className="badge badge-error badge-soft badge-xs ml-2">{t("taskStates:status.overdue")}</span> : null}
                    </span>
                  ) : null}
                </div>
                <span className="shrink-0 text-base-content/70 tabular-nums">
                  <span className="sr-only">{t("tasks.updated")} </span>
                  <time dateTime={task.updatedAt}>{formatDate(task.updatedAt, i18n.language)}</time>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}
