import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { formatDate } from "~/models/format";
import type { SupplierScreenData } from "~/models/supplier-page.server";
import { withParams } from "./screen-url";
import { Empty, Section } from "./Section";

/** What a task is called: its template's title, else the task's own (a custom task has no template). */
export function taskName(task: { title: string; complianceTaskTemplate: { title: string } | null }): string {
  return task.complianceTaskTemplate?.title ?? task.title;
}

/**
 * Submitted (green check) or not submitted (clock), spec 02 §4. The icon is
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
 * Compliance tasks the viewer's organisation sent to this supplier (spec 02
 * "Tasks"). A submitted task links to its response (`task={responseId}`, URL
 * state, so the dialog opens without JavaScript as well).
 */
export function TasksSection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation("supplierWork");
  const { search } = useLocation();
  const tasks = data.tasks;
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
            return (
              <li key={task.id} className="flex items-center gap-3 py-2 text-sm">
                <SubmittedIndicator submitted={task.is_submitted} label={task.is_submitted ? t("tasks.submitted") : t("tasks.notSubmitted")} />
                <div className="min-w-0 flex-1 break-words">
                  {submitted ? (
                    <Link to={withParams(search, { task: String(task.responseId) })} preventScrollReset className="link link-hover link-primary font-medium">
                      {name}
                    </Link>
                  ) : (
                    <span>{name}</span>
                  )}
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
