import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useId } from "react";
import { uiLanguage } from "~/i18n";
import { taskFileHref } from "~/components/supplier/TaskResponseModal";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { formatThousands } from "~/models/shared/format";
import { RETURN_COMMENT_MAX } from "~/models/tasks/task-list";
import { canDo } from "~/models/tasks/task-states";
import { useTranslation } from "~/translations";
import type { loader } from "./route";
import { INTENT } from "./sent-task-intents";

/** The parts of a sent task's page: a detail line, the answer, and the customer's actions (each a form of its own). */

export function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-base-content/70">{label}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}

export function Response() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation(["supplierTasks", "supplierWork", "taskStates"]);
  const lng = uiLanguage(i18n.language);
  const { task, taskResponse, survey } = data;
  const answered = task.status === "submitted" || task.status === "accepted" || (task.status === "cancelled" && task.submittedAt !== null);
  return (
    <section aria-labelledby="item-response" className="rounded-box border border-base-300 bg-base-100 p-4">
      <h2 id="item-response" className="text-lg font-semibold">
        {t("item.response")}
      </h2>
      {task.kind === "task" ? (
        taskResponse && answered ? (
          <div className="mt-2 flex flex-col gap-3 text-sm">
            <div>
              <h3 className="text-xs text-base-content/70">{t("item.comment")}</h3>
              <p className="whitespace-pre-wrap break-words">{taskResponse.comment || t("item.noComment")}</p>
            </div>
            <div>
              <h3 className="text-xs text-base-content/70">{t("item.files")}</h3>
              {taskResponse.complianceTaskResponseFiles.length === 0 ? (
                <p>{t("item.noFiles")}</p>
              ) : (
                <ul className="flex flex-col gap-1">
                  {taskResponse.complianceTaskResponseFiles.map(({ fileUpload }) => (
                    <li key={fileUpload.id} className="flex flex-wrap items-baseline gap-2">
                      <a
                        href={taskFileHref(fileUpload.id)}
                        download
                        className="link link-primary break-all"
                        aria-label={t("item.download", { name: fileUpload.fileName })}
                      >
                        {fileUpload.fileName}
                      </a>
                      <span className="text-xs text-base-content/70 tabular-nums">
                        {t("supplierWork:taskResponse.fileSize", { count: fileUpload.fileSize, size: formatThousands(fileUpload.fileSize, lng) })}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        ) : (
          <p className="mt-2 text-sm text-base-content/70">{task.status === "returned" ? t("item.returnedWaiting") : t("item.notSubmitted")}</p>
        )
      ) : survey && survey.submitted ? (
        <div className="mt-2 flex flex-wrap items-center gap-4 text-sm">
          <p>
            <span className="text-base-content/70">{t("taskStates:score")}: </span>
            <span className="text-lg font-semibold tabular-nums">{survey.score === null ? t("taskStates:notScored") : `${survey.score} / 100`}</span>
          </p>
          <Link to={`/tasks/surveys/${survey.responseId}/read`} className="btn btn-sm btn-outline">
            {t("item.readResponse")}
          </Link>
        </div>
      ) : (
        <p className="mt-2 text-sm text-base-content/70">{task.status === "returned" ? t("item.returnedWaiting") : t("item.notSubmitted")}</p>
      )}
    </section>
  );
}

export function Actions() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["supplierTasks", "supplierWork", "taskStates"]);
  const { pathname } = useLocation();
  const commentId = useId();
  const { task } = data;
  const may = (action: "accept" | "return" | "remind" | "cancel") => canDo(action, "customer", task.status);
  const revocable = data.liveLinks > 0 && task.status !== "cancelled";
  const any = may("accept") || may("return") || may("remind") || may("cancel") || revocable;
  return (
    <section aria-labelledby="item-actions" className="rounded-box border border-base-300 bg-base-100 p-4">
      <h2 id="item-actions" className="text-lg font-semibold">
        {t("item.actions")}
      </h2>
      {!any ? (
        <p className="mt-2 text-sm text-base-content/70">{t("item.nothingToDo", { status: t(`taskStates:status.${task.status}`).toLocaleLowerCase() })}</p>
      ) : null}
      <div className="mt-2 flex flex-col gap-4">
        {may("accept") ? (
          <ActionForm intent={INTENT.accept} redirectTo={pathname} className="flex flex-wrap items-center gap-3">
            {(form) => (
              <>
                <button type="submit" className="btn btn-success btn-sm" disabled={form.busy}>
                  {t("item.accept")}
                </button>
                <span className="text-sm text-base-content/70">{t("item.acceptHint")}</span>
              </>
            )}
          </ActionForm>
        ) : null}
        {may("return") ? (
          <ActionForm intent={INTENT.return} redirectTo={pathname} resetOnSuccess className="flex flex-col gap-2">
            {(form) => (
              <>
                <h3 className="font-medium">{t("item.returnTitle")}</h3>
                <div>
                  <label htmlFor={commentId} className="mb-1 block text-sm font-medium">
                    {t("item.returnLabel")}
                  </label>
                  <textarea
                    id={commentId}
                    name="comment"
                    required
                    maxLength={RETURN_COMMENT_MAX}
                    rows={3}
                    defaultValue={form.kept("comment")}
                    className="textarea w-full"
                    aria-describedby={`${commentId}-hint`}
                    {...form.invalid("comment")}
                  />
                  <p id={`${commentId}-hint`} className="mt-1 text-xs text-base-content/70">
                    {t("item.returnHint")}
                  </p>
                  <FieldError form={form} name="comment" />
                </div>
                <div>
                  <button type="submit" className="btn btn-warning btn-sm" disabled={form.busy}>
                    {t("item.return")}
                  </button>
                </div>
              </>
            )}
          </ActionForm>
        ) : null}
        {may("remind") ? (
          task.recipientEmail ? (
            <ActionForm intent={INTENT.remind} redirectTo={pathname} className="flex flex-wrap items-center gap-3">
              {(form) => (
                <>
                  <button type="submit" className="btn btn-sm" disabled={form.busy}>
                    {t("item.remind")}
                  </button>
                  <span className="break-all text-sm text-base-content/70">{t("item.remindHint", { email: task.recipientEmail })}</span>
                </>
              )}
            </ActionForm>
          ) : (
            <p className="text-sm text-base-content/70">{t("item.remindNoRecipient")}</p>
          )
        ) : null}
        {revocable ? (
          <ActionForm intent={INTENT.revoke} redirectTo={pathname} className="flex flex-wrap items-center gap-3">
            {(form) => (
              <>
                <button type="submit" className="btn btn-sm btn-outline" disabled={form.busy}>
                  {t("item.revoke")}
                </button>
                <span className="text-sm text-base-content/70">{t("item.revokeHint", { count: data.liveLinks })}</span>
              </>
            )}
          </ActionForm>
        ) : null}
        {may("cancel") ? (
          <div className="flex flex-wrap items-center gap-3">
            <Link to={`${pathname}?confirm=cancel`} preventScrollReset className="btn btn-sm btn-error btn-outline">
              {t("item.cancel")}
            </Link>
            <span className="text-sm text-base-content/70">{t("item.cancelHint")}</span>
          </div>
        ) : null}
      </div>
    </section>
  );
}
