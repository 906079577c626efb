import { getFormProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { PriorityBadge, StatusBadge, SupplierName } from "~/components/casefiles/CasefileBadges";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { FieldErrors } from "~/components/ui/form";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { refuseForm } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { readForm, requireId } from "~/http/parse.server";
import { invariantResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { CASEFILE_STATUS_VALUES, commentSchema, prioritySchema, statusSchema } from "~/models/files/casefile-schemas";
import { addCasefileComment, getCasefile, updateCasefile } from "~/models/files/casefiles.server";
import { formatDate } from "~/models/shared/format";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["casefiles"] };

const MISSING = "No case file with this id among your organisation's case files.";

/** /casefiles/{id}: one case file of the session's organisation; another organisation's id is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organizationId } = await requireUser(request, "suppliersRead");
  const id = requireId(params.caseFileId, "caseFileId");
  const casefile = await getCasefile({ organizationId, id });
  invariantResponse(casefile, 404, MISSING);
  const t = await i18nServer.getFixedT(request);
  return json({ casefile, title: `${casefile.title} · ${t("casefiles:title")} · ${t("common:appName")}` });
}

type Scope = { organizationId: number; userId: number; id: number };
type T = (key: string) => string;

/** Status, priority and comment forms: POST with an intent, then back here with 'Saved!'. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "suppliersWrite");
  const id = requireId(params.caseFileId, "caseFileId");
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  const scope = { organizationId: user.organizationId, userId: user.id, id };
  switch (formData.get("intent")) {
    case "status":
      return changeStatus(request, scope, formData, t);
    case "priority":
      return changePriority(request, scope, formData, t);
    case "comment":
      return addComment(request, scope, formData, t);
    default:
      return refuseForm(formData, { intent: null, formErrors: [t("common:errors.badRequest")] });
  }
}

/** Back to the case file with 'Saved!' when it changed; another organisation's or a missing one is the 404 page. */
function saved(request: Request, scope: Scope, changed: boolean) {
  invariantResponse(changed, 404, MISSING);
  return redirectWithNotice(request, `/casefiles/${scope.id}`, "common:saved");
}

async function changeStatus(request: Request, scope: Scope, formData: FormData, t: T) {
  const submission = parseWithZod(formData, { schema: statusSchema(t) });
  if (submission.status !== "success") return refuseForm(submission, { intent: "status" });
  return saved(request, scope, await updateCasefile({ ...scope, status: submission.value.status }));
}

async function changePriority(request: Request, scope: Scope, formData: FormData, t: T) {
  const submission = parseWithZod(formData, { schema: prioritySchema(t) });
  if (submission.status !== "success") return refuseForm(submission, { intent: "priority" });
  return saved(request, scope, await updateCasefile({ ...scope, priority: submission.value.priority }));
}

async function addComment(request: Request, scope: Scope, formData: FormData, t: T) {
  const submission = parseWithZod(formData, { schema: commentSchema(t) });
  if (submission.status !== "success") return refuseForm(submission, { intent: "comment" });
  return saved(request, scope, await addCasefileComment({ ...scope, text: submission.value.text }));
}

/**
 * A missing case file (or one of another organisation) shows its 404 in the
 * case files' place, with the way back to the list; the shell stays.
 */
export function ErrorBoundary() {
  const { t } = useTranslation("casefiles");
  return (
    <div className="mx-auto max-w-4xl">
      <Link to="/casefiles" className="link link-hover text-sm">
        ← {t("detail.back")}
      </Link>
      <div className="mt-2">
        <GeneralErrorBoundary compact />
      </div>
    </div>
  );
}

export default function CasefileScreen() {
  const { casefile } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("casefiles");
  return (
    <article aria-labelledby="casefile-title" className="mx-auto max-w-4xl">
      <Link to="/casefiles" className="link link-hover text-sm">
        ← {t("detail.back")}
      </Link>
      <header className="mt-2 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 id="casefile-title" className="break-words text-2xl font-semibold">
            {casefile.title}
          </h1>
          <p className="mt-1 text-sm text-base-content/70">
            {t("detail.supplier")}: {casefile.supplier ? <SupplierName supplier={casefile.supplier} /> : t("noSupplier")}
            <span aria-hidden="true" className="mx-2">
              ·
            </span>
            {t("detail.createdOn", { date: formatDate(casefile.createdAt, i18n.language) })}
            {casefile.createdBy.email ? ` ${t("detail.createdBy", { email: casefile.createdBy.email })}` : null}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <StatusBadge status={casefile.status} />
          <PriorityBadge priority={casefile.priority} />
        </div>
      </header>

      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <StatusForm status={casefile.status} />
        <PriorityForm priority={casefile.priority} />
      </div>

      <Comments />
      <History />
    </article>
  );
}

function useBusy(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST" && navigation.formData?.get("intent") === intent;
}

/** Conform for one of the page's forms: the server's answer shows only on the form that was sent. */
function useCasefileForm<S extends typeof statusSchema | typeof prioritySchema | typeof commentSchema>(
  intent: string,
  schema: S,
  id: string,
  defaultValue?: Record<string, string>,
) {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation();
  return useForm({
    id,
    defaultValue,
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schema((k) => t(k)) }),
  });
}

function StatusForm({ status }: { status: string }) {
  const { t } = useTranslation("casefiles");
  const busy = useBusy("status");
  const [form, fields] = useCasefileForm("status", statusSchema, `casefile-status-${status}`, { status });
  return (
    <Form method="post" {...getFormProps(form)} className="rounded-box border border-base-300 bg-base-100 p-4" aria-labelledby="status-heading">
      <h2 id="status-heading" className="font-semibold">
        {t("detail.statusHeading")}
      </h2>
      <input type="hidden" name="intent" value="status" />
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={fields.status.id} className="mb-1 block text-sm">
            {t("detail.statusLabel")}
          </label>
          <select {...getSelectProps(fields.status)} key={fields.status.key} className="select w-full">
            {CASEFILE_STATUS_VALUES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t("detail.saving") : t("detail.saveStatus")}
        </button>
      </div>
      <FieldErrors id={fields.status.errorId} errors={fields.status.errors} />
    </Form>
  );
}

function PriorityForm({ priority }: { priority: number | null }) {
  const { t } = useTranslation("casefiles");
  const busy = useBusy("priority");
  const [form, fields] = useCasefileForm("priority", prioritySchema, `casefile-priority-${priority ?? "none"}`, {
    priority: priority == null ? "" : String(priority),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="rounded-box border border-base-300 bg-base-100 p-4" aria-labelledby="priority-heading">
      <h2 id="priority-heading" className="font-semibold">
        {t("detail.priorityHeading")}
      </h2>
      <input type="hidden" name="intent" value="priority" />
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={fields.priority.id} className="mb-1 block text-sm">
            {t("detail.priorityLabel")}
          </label>
          <select {...getSelectProps(fields.priority)} key={fields.priority.key} className="select w-full">
            <option value="">{t("noPriority")}</option>
            {[1, 2, 3, 4, 5].map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t("detail.saving") : t("detail.savePriority")}
        </button>
      </div>
      <FieldErrors id={fields.priority.errorId} errors={fields.priority.errors} />
    </Form>
  );
}

function Comments() {
  const { casefile } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("casefiles");
  const busy = useBusy("comment");
  const [form, fields] = useCasefileForm("comment", commentSchema, `casefile-comment-${casefile.comments.length}`);
  return (
    <section aria-labelledby="comments-heading" className="mt-6 rounded-box border border-base-300 bg-base-100 p-4">
      <h2 id="comments-heading" className="font-semibold">
        {t("detail.commentsHeading")}
      </h2>
      {casefile.comments.length === 0 ? (
        <p className="mt-2 text-sm text-base-content/70">{t("detail.noComments")}</p>
      ) : (
        <ul className="mt-3 flex flex-col gap-3">
          {casefile.comments.map((c) => (
            <li key={c.id} className="rounded-box bg-base-200 p-3">
              <p className="whitespace-pre-wrap break-words">{c.text}</p>
              <p className="mt-1 text-xs text-base-content/70">
                {t("detail.postedBy", { email: c.user.email ?? t("detail.unknownUser") })} · {formatDate(c.createdAt, i18n.language)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Form method="post" {...getFormProps(form)} className="mt-4">
        <input type="hidden" name="intent" value="comment" />
        <label htmlFor={fields.text.id} className="mb-1 block text-sm font-medium">
          {t("detail.commentLabel")}
        </label>
        <textarea
          {...getTextareaProps(fields.text)}
          key={fields.text.key}
          rows={3}
          className={`textarea w-full ${fields.text.errors ? "textarea-error" : ""}`}
        />
        <FieldErrors id={fields.text.errorId} errors={fields.text.errors} />
        <button type="submit" className="btn btn-primary btn-sm mt-2" disabled={busy}>
          {busy ? t("detail.saving") : t("detail.addComment")}
        </button>
      </Form>
    </section>
  );
}

function History() {
  const { casefile } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("casefiles");
  const statusText = (v: unknown) => (typeof v === "string" ? t(`status.${v}`, { defaultValue: v }) : t("priorityNone"));
  const priorityText = (v: unknown) => (typeof v === "number" ? String(v) : t("priorityNone"));
  const describe = (e: (typeof casefile.events)[number]) => {
    const d = e.detail ?? {};
    if (e.type === "created") return t("events.created");
    if (e.type === "status_changed") return t("events.status_changed", { from: statusText(d.from), to: statusText(d.to) });
    if (e.type === "priority_changed") return t("events.priority_changed", { from: priorityText(d.from), to: priorityText(d.to) });
    return t("events.other", { type: e.type });
  };
  return (
    <section aria-labelledby="history-heading" className="mt-6 rounded-box border border-base-300 bg-base-100 p-4">
      <h2 id="history-heading" className="font-semibold">
        {t("detail.historyHeading")}
      </h2>
      {casefile.events.length === 0 ? (
        <p className="mt-2 text-sm text-base-content/70">{t("detail.noEvents")}</p>
      ) : (
        <ol className="mt-3 flex flex-col gap-2 text-sm">
          {casefile.events.map((e) => (
            <li key={e.id} className="flex flex-wrap gap-x-2">
              <span className="whitespace-nowrap text-base-content/70">{formatDate(e.createdAt, i18n.language)}</span>
              <span>{describe(e)}</span>
              {e.user.email ? <span className="text-base-content/70">{t("detail.by", { email: e.user.email })}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
