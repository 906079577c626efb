import { publicOrigin } from "~/http/request-source.server";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { StatusBadge, supplierScreenHref } from "~/components/supplier-tasks/StatusBadge";
import { uiLanguage } from "~/i18n";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { acceptForm, refuseForm, refuseFormFor } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { can } from "~/models/accounts/permissions";
import { safeRedirect } from "~/http/redirect.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { remindItem } from "~/models/tasks/campaigns.server";
import { formatDate, formatDateTime } from "~/models/shared/format";
import { isRefusalOf } from "~/models/shared/refusal";
import { RETURN_COMMENT_MAX } from "~/models/tasks/task-list";
import { decideItem, returnItem, revokeItemLinks, taskDetail } from "~/models/tasks/task-list.server";
import { plainActionSchema, returnSchema } from "~/models/tasks/task-query";
import { canDo, displayStatus, osloDate } from "~/models/tasks/task-states";
import { customerTask, transitionRefused, type ActingParty, type TaskRow } from "~/models/tasks/task-workflow.server";
import { INTENT, isSentTaskIntent, type SentTaskIntent } from "./sent-task-intents";
import { Actions, Field, Response } from "./sent-task-parts";

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
  const detail = await taskDetail({ organizationId: user.organizationId, id });
  if (!detail) throw errorResponse(404, "No such item among what your organization sent.");
  const t = await i18nServer.getFixedT(request);
  return json({
    ...detail,
    shownStatus: displayStatus(detail.task, osloDate(new Date())),
    canManage: can(user, "supplierTasksManage"),
    title: `${detail.task.title} · ${t("appName")}`,
  });
}

const NOTICE: Record<SentTaskIntent, `supplierTasks:notices.${string}`> = {
  accept: "supplierTasks:notices.accepted",
  return: "supplierTasks:notices.returned",
  remind: "supplierTasks:notices.reminded",
  cancel: "supplierTasks:notices.cancelled",
  revoke: "supplierTasks:notices.revoked",
};

type FixedT = Awaited<ReturnType<typeof i18nServer.getFixedT>>;
interface Change {
  task: TaskRow;
  party: ActingParty;
  at: Date;
  origin: string;
}
/** A refused change the state explains (409), or nothing: done. */
type Outcome = { refused: string } | null;

async function decide(change: Change, action: "accept" | "cancel"): Promise<Outcome> {
  await decideItem({ task: change.task, action, party: change.party, at: change.at });
  return null;
}

async function returnForRework(change: Change, comment: string): Promise<Outcome> {
  await returnItem({ task: change.task, party: change.party, comment, origin: change.origin, at: change.at });
  return null;
}

async function remindNow(change: Change, t: FixedT): Promise<Outcome> {
  const { task } = change;
  if (!canDo("remind", "customer", task.status)) throw transitionRefused("remind", task.status);
  const sent = await remindItem({ task, party: change.party, at: change.at, fallbackOrigin: change.origin });
  return sent ? null : { refused: t("errors.noRecipient") };
}

async function revokeLinks(change: Change, t: FixedT): Promise<Outcome> {
  const revoked = await revokeItemLinks({ task: change.task, party: change.party, at: change.at });
  return revoked === 0 ? { refused: t("errors.noLinks") } : null;
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "supplierTasksManage");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request, ["supplierTasks", "taskStates"]);
  const rawIntent = formData.get("intent");
  const intent = isSentTaskIntent(rawIntent) ? rawIntent : null;
  const id = parseId(params.id);
  const task = id === null ? undefined : await customerTask({ organizationId: user.organizationId, id });
  if (!intent) return refuseForm(formData, { intent: null, formErrors: [t("errors.invalid")] });
  if (!task) return refuseForm(formData, { intent, status: 404, formErrors: [t("errors.notFound")] });
  const submission = parseWithZod(formData, { schema: intent === INTENT.return ? returnSchema : plainActionSchema });
  if (submission.status !== "success") {
    const commentErrors = (submission.reply().error?.comment ?? []).map((key) =>
      key === "commentTooLong" ? t("errors.commentTooLong", { max: RETURN_COMMENT_MAX }) : t("errors.commentRequired"),
    );
    return refuseForm(submission, {
      intent,
      fieldErrors: commentErrors.length ? { comment: commentErrors } : {},
      formErrors: commentErrors.length ? [] : [t("errors.invalid")],
    });
  }
  const change: Change = { task, party: { actor: "customer", userId: user.id, name: user.email }, at: new Date(), origin: publicOrigin() };
  let outcome: Outcome;
  try {
    switch (intent) {
      case INTENT.accept:
      case INTENT.cancel:
        outcome = await decide(change, intent);
        break;
      case INTENT.return:
        outcome = await returnForRework(change, (submission.value as { comment: string }).comment);
        break;
      case INTENT.remind:
        outcome = await remindNow(change, t);
        break;
      case INTENT.revoke:
        outcome = await revokeLinks(change, t);
        break;
    }
  } catch (error) {
    if (!isRefusalOf(error, ["transition-refused"])) throw error;
    const status = t(`taskStates:status.${String(error.details.status)}`).toLocaleLowerCase();
    return refuseFormFor(error, formData, t("errors.refused", { status }), { intent });
  }
  if (outcome) return refuseForm(formData, { intent, status: 409, formErrors: [outcome.refused] });
  const redirectTo = formData.get("redirectTo");
  if (typeof redirectTo === "string" && redirectTo) return redirectWithNotice(request, safeRedirect(redirectTo, `/supplier_tasks/${task.id}`), NOTICE[intent]);
  return acceptForm(submission, { intent });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function SentTaskScreen() {
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
          intent={INTENT.cancel}
          confirmLabel={t("item.cancelConfirm")}
          cancelLabel={t("item.keep")}
          cancelHref={pathname}
          redirectTo={pathname}
        />
      ) : null}
    </article>
  );
}
