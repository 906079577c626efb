import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { flashNotice } from "@server/cookies";
import { PriorityBadge, StatusBadge, SupplierName } from "~/components/casefiles/CasefileBadges";
import { FieldErrors } from "~/components/ui/form";
import { titleMeta } from "~/components/ui/meta";
import i18nServer from "~/i18n.server";
import { CASEFILE_STATUS_VALUES, commentSchema, prioritySchema, statusSchema } from "~/models/casefile-schemas";
import { addCasefileComment, getCasefile, updateCasefile } from "~/models/casefiles.server";
import { formatDate } from "~/models/format";
import { requireUser } from "~/models/session.server";

export const meta = titleMeta;

function notFound(): Response {
  return new Response("Not Found", { status: 404 });
}

async function scope(request: Request, raw: string | undefined) {
  const user = await requireUser(request);
  if (user.organizationId == null) throw new Response("Forbidden", { status: 403 });
  // Anything but a plain id reads as a missing case file, like another organisation's id.
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) throw notFound();
  return { user, organizationId: user.organizationId, id: Number(raw) };
}

/** /casefiles/{id}: one case file of the session's organisation; any other id is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organizationId, id } = await scope(request, params.caseFileId);
  const casefile = await getCasefile({ organizationId, id });
  if (!casefile) throw notFound();
  const t = await i18nServer.getFixedT(request);
  return json({ casefile, title: `${casefile.title} · ${t("casefiles:title")} · ${t("common:appName")}` });
}

/** Status, priority and comment forms: POST with an intent, then back here with 'Saved!'. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user, organizationId, id } = await scope(request, params.caseFileId);
  const t = await i18nServer.getFixedT(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  let ok: boolean;
  switch (intent) {
    case "status": {
      const submission = parseWithZod(formData, { schema: statusSchema(t) });
      if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
      ok = await updateCasefile({ organizationId, userId: user.id, id, status: submission.value.status });
      break;
    }
    case "priority": {
      const submission = parseWithZod(formData, { schema: prioritySchema(t) });
      if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
      ok = await updateCasefile({ organizationId, userId: user.id, id, priority: submission.value.priority });
      break;
    }
    case "comment": {
      const submission = parseWithZod(formData, { schema: commentSchema(t) });
      if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 400 });
      ok = await addCasefileComment({ organizationId, userId: user.id, id, text: submission.value.text });
      break;
    }
    default:
      return json({ intent: null, result: null }, { status: 400 });
  }
  if (!ok) throw notFound();
  return redirect(`/casefiles/${id}`, { headers: { "Set-Cookie": await flashNotice(request, "saved") } });
}

export default function CasefileScreen() {
  const { casefile } = useLoaderData<typeof loader>();
  const { t } = useTranslation("casefiles");
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
            {t("detail.createdOn", { date: formatDate(casefile.createdAt) })}
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

function StatusForm({ status }: { status: string }) {
  const { t } = useTranslation("casefiles");
  const busy = useBusy("status");
  return (
    <Form method="post" className="rounded-box border border-base-300 bg-base-100 p-4" aria-labelledby="status-heading">
      <h2 id="status-heading" className="font-semibold">
        {t("detail.statusHeading")}
      </h2>
      <input type="hidden" name="intent" value="status" />
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor="casefile-status" className="mb-1 block text-sm">
            {t("detail.statusLabel")}
          </label>
          <select id="casefile-status" name="status" defaultValue={status} key={status} className="select w-full">
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
    </Form>
  );
}

function PriorityForm({ priority }: { priority: number | null }) {
  const { t } = useTranslation("casefiles");
  const busy = useBusy("priority");
  return (
    <Form method="post" className="rounded-box border border-base-300 bg-base-100 p-4" aria-labelledby="priority-heading">
      <h2 id="priority-heading" className="font-semibold">
        {t("detail.priorityHeading")}
      </h2>
      <input type="hidden" name="intent" value="priority" />
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor="casefile-priority" className="mb-1 block text-sm">
            {t("detail.priorityLabel")}
          </label>
          <select id="casefile-priority" name="priority" defaultValue={priority ?? ""} key={priority ?? "none"} className="select w-full">
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
    </Form>
  );
}

function Comments() {
  const { casefile } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("casefiles");
  const { t: tAll } = useTranslation();
  const busy = useBusy("comment");
  const [form, fields] = useForm({
    id: `casefile-comment-${casefile.comments.length}`,
    lastResult: actionData?.intent === "comment" ? (actionData.result ?? undefined) : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: commentSchema((k) => tAll(k)) }),
  });
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
                {t("detail.postedBy", { email: c.user.email ?? t("detail.unknownUser") })} · {formatDate(c.createdAt)}
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
  const { t } = useTranslation("casefiles");
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
              <span className="whitespace-nowrap text-base-content/70">{formatDate(e.createdAt)}</span>
              <span>{describe(e)}</span>
              {e.user.email ? <span className="text-base-content/70">{t("detail.by", { email: e.user.email })}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
