import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "~/translations";
import { StatusBadge, supplierScreenHref } from "~/components/supplier-tasks/StatusBadge";
import { uiLanguage } from "~/i18n";
import { taskFileHref } from "~/components/supplier/TaskResponseModal";
import { ActionForm, FieldError } from "~/components/ui/ActionForm";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { can } from "~/http/permissions";
import { safeRedirect } from "~/http/redirect.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { remindItem } from "~/models/tasks/campaigns.server";
import { formatDate, formatDateTime, formatThousands } from "~/models/shared/format";
import { RETURN_COMMENT_MAX } from "~/models/tasks/task-list";
import { decideItem, returnItem, revokeItemLinks, supplierTaskDetail } from "~/models/tasks/task-list.server";
import { plainActionSchema, returnSchema } from "~/models/tasks/task-query";
import { canDo, displayStatus, osloDate } from "~/models/tasks/task-states";
import { customerTask, TransitionRefused } from "~/models/tasks/task-workflow.server";

export const meta = titleMeta;
export const handle = { i18n: ["supplierTasks", "taskStates", "supplierWork"] };

/**
 * /supplier_tasks/{id} (decision 034): one task or survey the organisation sent — its state, due date,
 * recipient, message, who answered and the answer (a task's comment and files; a survey's score and a link to its read
 * view), the history, and the customer's actions: accept, return with a comment, remind now, cancel (a confirmation
 * step), revoke links. Each action is a plain POST with an intent; a state that does not allow it is a 409 that says so.
 * Another organisation's id is a 404, like a missing one.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "supplierTasksRead");
  const id = parseId(params.id);
  if (id === null) throw errorResponse(404, "No such item.");
  const detail = await supplierTaskDetail({ organizationId: user.organizationId, id });
  if (!detail) throw errorResponse(404, "No such item among what your organization sent.");
  const t = await i18nServer.getFixedT(request);
  return json({
    ...detail,
    shownStatus: displayStatus(detail.task, osloDate(new Date())),
    canManage: can(user, "supplierTasksManage"),
    title: `${detail.task.title} · ${t("appName")}`,
  });
}

type Intent = "accept" | "return" | "remind" | "cancel" | "revoke";
const INTENTS: readonly Intent[] = ["accept", "return", "remind", "cancel", "revoke"];
const NOTICE: Record<Intent, `supplierTasks:notices.${string}`> = {
  accept: "supplierTasks:notices.accepted",
  return: "supplierTasks:notices.returned",
  remind: "supplierTasks:notices.reminded",
  cancel: "supplierTasks:notices.cancelled",
  revoke: "supplierTasks:notices.revoked",
};

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "supplierTasksManage");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request, ["supplierTasks", "taskStates"]);
  const rawIntent = formData.get("intent");
  const intent = INTENTS.find((i) => i === rawIntent);
  const id = parseId(params.id);
  const task = id === null ? undefined : await customerTask({ organizationId: user.organizationId, id });
  const refuse = (status: 400 | 404 | 409, message: string, fieldErrors: Record<string, string[]> = {}) =>
    json(
      {
        intent: intent ?? null,
        result: {
          status: "error" as const,
          initialValue: Object.fromEntries([...formData.entries()].filter((e): e is [string, string] => typeof e[1] === "string")),
          error: { "": message ? [message] : [], ...fieldErrors },
        },
      },
      { status },
    );
  if (!intent) return refuse(400, t("errors.invalid"));
  if (!task) return refuse(404, t("errors.notFound"));
  const submission = parseWithZod(formData, { schema: intent === "return" ? returnSchema : plainActionSchema });
  if (submission.status !== "success") {
    const reply = submission.reply();
    const commentErrors = (reply.error?.comment ?? []).map((key) =>
      key === "commentTooLong" ? t("errors.commentTooLong", { max: RETURN_COMMENT_MAX }) : t("errors.commentRequired"),
    );
    return json(
      {
        intent,
        result: submission.reply({
          fieldErrors: commentErrors.length ? { comment: commentErrors } : {},
          formErrors: commentErrors.length ? [] : [t("errors.invalid")],
        }),
      },
      { status: 400 },
    );
  }
  const party = { actor: "customer" as const, userId: user.id, name: user.email };
  const at = new Date();
  try {
    switch (intent) {
      case "accept":
      case "cancel":
        await decideItem({ task, action: intent, party, at });
        break;
      case "return":
        await returnItem({ task, party, comment: (submission.value as { comment: string }).comment, origin: new URL(request.url).origin, at });
        break;
      case "remind":
        if (!canDo("remind", "customer", task.status)) throw new TransitionRefused("remind", task.status);
        if (!(await remindItem({ task, party, at, fallbackOrigin: new URL(request.url).origin }))) return refuse(409, t("errors.noRecipient"));
        break;
      case "revoke":
        if ((await revokeItemLinks({ task, party, at })) === 0) return refuse(409, t("errors.noLinks"));
        break;
    }
  } catch (error) {
    if (!(error instanceof TransitionRefused)) throw error;
    return refuse(409, t("errors.refused", { status: t(`taskStates:status.${error.status}`).toLocaleLowerCase() }));
  }
  const redirectTo = formData.get("redirectTo");
  if (typeof redirectTo === "string" && redirectTo) return redirectWithNotice(request, safeRedirect(redirectTo, `/supplier_tasks/${task.id}`), NOTICE[intent]);
  return json({ intent, result: submission.reply({ resetForm: true }) });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function SupplierTaskScreen() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("supplierTasks");
  const lng = uiLanguage(i18n.language);
  const { pathname, search } = useLocation();
  const confirming = new URLSearchParams(search).get("confirm") === "cancel";
  const { task, supplier } = data;
  const answeredBy = [task.answeredByName, data.answeredByEmail && data.answeredByEmail !== task.answeredByName ? data.answeredByEmail : null]
    .filter(Boolean)
    .join(" · ");

  return (
    <article aria-labelledby="supplier-task-title" className="mx-auto flex max-w-4xl flex-col gap-4">
      <Link to="/supplier_tasks" className="link text-sm">
        {t("item.back")}
      </Link>
      <header className="flex flex-wrap items-center gap-3">
        <h1 id="supplier-task-title" className="min-w-0 break-words text-2xl font-semibold">
          {task.title}
        </h1>
        <span className="badge badge-outline badge-sm">{t(`taskStates:kind.${task.kind}`)}</span>
        <StatusBadge status={data.shownStatus} />
      </header>

      <section aria-labelledby="item-details" className="rounded-box border border-base-300 bg-base-100 p-4">
        <h2 id="item-details" className="sr-only">
          {t("item.details")}
        </h2>
        <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
          <Field label={t("item.supplier")}>
            {supplier.orgNumber ? (
              <Link to={supplierScreenHref(supplier)} className="link link-primary">
                {supplier.name}
              </Link>
            ) : (
              supplier.name
            )}
          </Field>
          <Field label={t("item.dueDate")}>{task.dueDate ? formatDate(task.dueDate, lng) : t("taskStates:noDueDate")}</Field>
          <Field label={t("item.sent")}>{formatDateTime(task.sentAt, lng)}</Field>
          <Field label={t("item.recipient")}>
            <span className="break-all">{task.recipientEmail ?? t("list.noRecipient")}</span>
          </Field>
          {task.submittedAt ? <Field label={t("item.submittedAt")}>{formatDateTime(task.submittedAt, lng)}</Field> : null}
          {answeredBy ? <Field label={t("item.answeredBy")}>{answeredBy}</Field> : null}
          {task.decidedAt ? <Field label={t("item.decidedAt")}>{formatDateTime(task.decidedAt, lng)}</Field> : null}
          <div className="sm:col-span-2">
            <dt className="text-xs text-base-content/70">{t("item.message")}</dt>
            <dd className="whitespace-pre-wrap break-words">{task.message || t("item.noMessage")}</dd>
          </div>
          {task.status === "returned" && task.returnComment ? (
            <div className="sm:col-span-2">
              <dt className="text-xs text-base-content/70">{t("item.returnComment")}</dt>
              <dd className="whitespace-pre-wrap break-words">{task.returnComment}</dd>
            </div>
          ) : null}
        </dl>
      </section>

      <Response />

      {data.canManage ? <Actions /> : <p className="text-sm text-base-content/70">{t("item.readOnly")}</p>}

      <section aria-labelledby="item-history" className="rounded-box border border-base-300 bg-base-100 p-4">
        <h2 id="item-history" className="text-lg font-semibold">
          {t("item.history")}
        </h2>
        <ol className="mt-2 flex flex-col gap-2 text-sm">
          {data.events.map((event) => (
            <li key={event.id} className="flex flex-wrap gap-x-3">
              <time dateTime={event.createdAt} className="w-40 shrink-0 tabular-nums text-base-content/70">
                {formatDateTime(event.createdAt, lng)}
              </time>
              <span className="min-w-0 break-words">
                <span className="font-medium">{t(`taskStates:event.${event.kind}`)}</span>
                {event.actor ? <span className="text-base-content/70"> {t("item.historyBy", { name: event.actor })}</span> : null}
                {event.kind === "returned" && event.detail ? <span className="block whitespace-pre-wrap text-base-content/80">{event.detail}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      </section>

      {confirming && data.canManage && canDo("cancel", "customer", task.status) ? (
        <ConfirmStep
          title={t("item.cancelTitle")}
          text={t("item.cancelText")}
          detail={task.title}
          intent="cancel"
          confirmLabel={t("item.cancelConfirm")}
          cancelLabel={t("item.keep")}
          cancelHref={pathname}
          redirectTo={pathname}
        />
      ) : null}
    </article>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-base-content/70">{label}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}

function Response() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("supplierTasks");
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

function Actions() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("supplierTasks");
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
          <ActionForm intent="accept" redirectTo={pathname} className="flex flex-wrap items-center gap-3">
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
          <ActionForm intent="return" redirectTo={pathname} resetOnSuccess className="flex flex-col gap-2">
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
            <ActionForm intent="remind" redirectTo={pathname} className="flex flex-wrap items-center gap-3">
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
          <ActionForm intent="revoke" redirectTo={pathname} className="flex flex-wrap items-center gap-3">
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
