import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { FormErrors, OwnerChoice, TemplatesHeader, TextInput } from "~/components/surveys/template-inputs";
import { useFormReply } from "~/components/ui/ActionForm";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { refuseForm, refuseFormFor } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { requireTemplateScope } from "~/http/template-pages.server";
import i18nServer from "~/i18n.server";
import { listFiles } from "~/models/files/files.server";
import { renderMarkdown } from "~/models/shared/markdown";
import { isRefusalOf, refuse } from "~/models/shared/refusal";
import { pageTitle } from "~/models/shared/page-title.server";
import { localized, type SurveyLanguage } from "~/models/tasks/survey-definition";
import type { TemplateScope } from "~/models/tasks/survey-templates.server";
import {
  createTaskTemplate,
  listTaskTemplates,
  setTaskTemplateArchived,
  updateTaskTemplate,
  type TaskTemplateInput,
  type TaskTemplateItem,
} from "~/models/tasks/task-templates.server";
import { useTranslation } from "~/translations";
import { isSingleLine } from "~/models/shared/single-line";

export const meta = titleMeta;
export const handle = { i18n: ["taskTemplates"] };

const PATH = "/admin/tasks/templates";

export const INTENT = { create: "create", update: "update", archive: "archive", restore: "restore" } as const;
const INTENTS: readonly string[] = Object.values(INTENT);
const DESCRIPTION_MAX = 10_000;
type Translate = (key: string, options?: Record<string, unknown>) => string;

const fieldsSchema = (t: Translate) => ({
  titleEn: z
    .string({ error: t("taskTemplates:errors.titleRequired") })
    .trim()
    .min(1, t("taskTemplates:errors.titleRequired"))
    .max(200, t("taskTemplates:errors.tooLong", { max: 200 }))
    .refine(isSingleLine, t("common:errors.singleLine")),
  titleNo: z
    .string()
    .trim()
    .max(200, t("taskTemplates:errors.tooLong", { max: 200 }))
    .refine(isSingleLine, t("common:errors.singleLine"))
    .optional(),
  descriptionEn: z
    .string()
    .trim()
    .max(DESCRIPTION_MAX, t("taskTemplates:errors.tooLong", { max: DESCRIPTION_MAX }))
    .optional(),
  descriptionNo: z
    .string()
    .trim()
    .max(DESCRIPTION_MAX, t("taskTemplates:errors.tooLong", { max: DESCRIPTION_MAX }))
    .optional(),
  dueInDays: z
    .number({ error: t("taskTemplates:errors.dueInDays") })
    .int(t("taskTemplates:errors.dueInDays"))
    .min(1, t("taskTemplates:errors.dueInDays"))
    .max(366, t("taskTemplates:errors.dueInDays"))
    .optional(),
  fileId: z.string().optional(),
});

const schema = (t: Translate) =>
  z.discriminatedUnion("intent", [
    z.object({ intent: z.literal(INTENT.create), owner: z.enum(["organization", "system"]).default("organization"), ...fieldsSchema(t) }),
    z.object({ intent: z.literal(INTENT.update), id: z.string(), ...fieldsSchema(t) }),
    z.object({ intent: z.literal(INTENT.archive), id: z.string() }),
    z.object({ intent: z.literal(INTENT.restore), id: z.string() }),
  ]);

/**
 * /admin/tasks/templates: task templates (decision 032) — the organisation's own (its administrator,
 * taskTemplatesManage) and the system-wide ones (the installation's operator): list, create, edit (`?edit={id}`),
 * archive and restore. Title and description in English and Norwegian (the description is markdown, shown inert), an
 * optional template file chosen from the user's uploads, an optional number of days to answer (1–366). Level 2: 403
 * (they pick templates when sending, from the sending dialog's own list).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { scope } = await requireTemplateScope(request);
  const url = new URL(request.url);
  const templates = await listTaskTemplates(scope);
  const editId = parseId(url.searchParams.get("edit"));
  const editing = editId !== null ? (templates.find((t) => t.id === editId && t.editable) ?? null) : null;
  const files =
    scope.organizationId !== null
      ? (await listFiles({ organizationId: scope.organizationId, userId: scope.userId })).map((f) => ({ id: f.id, fileName: f.fileName }))
      : [];
  return json({
    templates,
    editing,
    files,
    manageOwn: scope.manageOwn,
    manageSystem: scope.manageSystem,
    title: await pageTitle(request, "taskTemplates:tasks.title"),
  });
}

type Change = z.infer<ReturnType<typeof schema>>;
type Edit = Extract<Change, { intent: "create" | "update" }>;

/** The template's fields as the model takes them; a file id that is not a number is no file of the user's. */
function inputOf(v: Edit): TaskTemplateInput {
  const fileId = v.fileId ? parseId(v.fileId) : null;
  if (v.fileId && fileId === null) throw refuse("invalid", "template-file-not-found", { field: "fileId" });
  return {
    title: { en: v.titleEn, no: v.titleNo ?? "" },
    description: { en: v.descriptionEn ?? "", no: v.descriptionNo ?? "" },
    dueInDays: v.dueInDays ?? null,
    fileId,
  };
}

async function create(request: Request, scope: TemplateScope, v: Extract<Change, { intent: "create" }>) {
  const input = inputOf(v);
  const { id } = await createTaskTemplate(scope, { ...input, systemWide: v.owner === "system" || scope.organizationId === null });
  return redirectWithNotice(request, `${PATH}#t-${id}`, "taskTemplates:notices.created");
}

async function update(request: Request, scope: TemplateScope, v: Extract<Change, { intent: "update" }>) {
  const input = inputOf(v);
  const id = parseId(v.id);
  if (id === null) throw refuse("not-found", "template-not-found");
  await updateTaskTemplate(scope, { ...input, id });
  return redirectWithNotice(request, `${PATH}#t-${id}`, "taskTemplates:notices.saved");
}

async function setArchived(request: Request, scope: TemplateScope, rawId: string, archived: boolean) {
  const id = parseId(rawId);
  if (id === null) throw refuse("not-found", "template-not-found");
  await setTaskTemplateArchived(scope, { id, archived });
  return redirectWithNotice(request, PATH, archived ? "taskTemplates:notices.archived" : "taskTemplates:notices.restored");
}

const REFUSAL_MESSAGE = {
  "template-not-found": "taskTemplates:errors.notFound",
  "template-forbidden": "taskTemplates:errors.forbidden",
  "template-file-not-found": "taskTemplates:errors.fileNotFound",
} as const;

export async function action({ request }: ActionFunctionArgs) {
  const { scope } = await requireTemplateScope(request);
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  const submission = parseWithZod(formData, { schema: schema(t) });
  const intent = formData.get("intent");
  const known = typeof intent === "string" && INTENTS.includes(intent) ? intent : null;
  const rawId = formData.get("id");
  const answer = { intent: known, ...(typeof rawId === "string" ? { subject: { id: rawId } } : {}) };
  if (submission.status !== "success") return refuseForm(submission, { ...answer, formErrors: known ? [] : [t("taskTemplates:errors.invalidRequest")] });
  const v = submission.value;
  try {
    switch (v.intent) {
      case INTENT.create:
        return await create(request, scope, v);
      case INTENT.update:
        return await update(request, scope, v);
      case INTENT.archive:
      case INTENT.restore:
        return await setArchived(request, scope, v.id, v.intent === INTENT.archive);
    }
  } catch (error) {
    if (!isRefusalOf(error, Object.keys(REFUSAL_MESSAGE) as (keyof typeof REFUSAL_MESSAGE)[])) throw error;
    return refuseFormFor(error, submission, t(REFUSAL_MESSAGE[error.code]), answer);
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function TaskTemplatesScreen() {
  const { templates, editing, manageOwn, manageSystem } = useLoaderData<typeof loader>();
  const { t } = useTranslation("taskTemplates");
  const archiveReply = useFormReply(INTENT.archive);
  const restoreReply = useFormReply(INTENT.restore);
  const rowReply = archiveReply.result ?? restoreReply.result;
  const rowErrors = rowReply ? Object.values(rowReply.error ?? {}).flatMap((e) => e ?? []) : [];
  return (
    <section aria-labelledby="task-templates-title" className="mx-auto max-w-5xl">
      <TemplatesHeader
        id="task-templates-title"
        title={t("tasks.title")}
        intro={t("tasks.intro")}
        links={[{ to: "/admin/surveys/surveys", label: t("surveys.title") }]}
        errors={rowErrors}
      />
      {templates.length === 0 ? (
        <p className="mt-6 rounded-box border border-dashed border-base-300 p-6">{t("tasks.empty")}</p>
      ) : (
        <ul aria-label={t("tasks.listLabel")} className="mt-6 flex flex-col gap-3">
          {templates.map((template) => (
            <li key={template.id}>
              <TemplateCard template={template} />
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <TemplateForm key={`edit-${editing.id}`} template={editing} manageOwn={manageOwn} manageSystem={manageSystem} />
      ) : (
        <TemplateForm key="create" template={null} manageOwn={manageOwn} manageSystem={manageSystem} />
      )}
    </section>
  );
}

function TemplateCard({ template }: { template: TaskTemplateItem }) {
  const { t, i18n } = useTranslation("taskTemplates");
  const lng: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const title = localized({ en: template.title, no: template.titleNo ?? "" }, lng);
  const description = localized({ en: template.description ?? "", no: template.descriptionNo ?? "" }, lng);
  return (
    <article
      id={`t-${template.id}`}
      aria-labelledby={`t-${template.id}-title`}
      className={`scroll-mt-20 rounded-box border border-base-300 bg-base-100 p-4 ${template.archived ? "opacity-80" : ""}`}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id={`t-${template.id}-title`} className="font-semibold">
            {title}
          </h2>
          <p className="mt-1 flex flex-wrap gap-2 text-xs">
            <span className="badge badge-sm badge-ghost">{template.systemWide ? t("owner.system") : t("owner.organization")}</span>
            {template.archived ? <span className="badge badge-sm badge-warning">{t("status.archived")}</span> : null}
            <span>{template.dueInDays ? t("tasks.dueIn", { count: template.dueInDays }) : t("tasks.noDueIn")}</span>
            <span>{t("tasks.sentCount", { count: template.tasks })}</span>
          </p>
          {description ? <div className="markdown mt-2 text-sm" dangerouslySetInnerHTML={{ __html: renderMarkdown(description) }} /> : null}
          {template.file ? <p className="mt-2 text-sm">{t("tasks.fileLine", { file: template.file.fileName })}</p> : null}
        </div>
        {template.editable ? (
          <div className="flex shrink-0 flex-wrap gap-2">
            <Link to={`${PATH}?edit=${template.id}#template-form`} className="btn btn-sm" aria-label={t("editNamed", { title })}>
              {t("edit")}
            </Link>
            <Form method="post" action={PATH}>
              <input type="hidden" name="intent" value={template.archived ? INTENT.restore : INTENT.archive} />
              <input type="hidden" name="id" value={template.id} />
              <button type="submit" className="btn btn-sm btn-ghost" aria-label={t(template.archived ? "restoreNamed" : "archiveNamed", { title })}>
                {template.archived ? t("restore") : t("archive")}
              </button>
            </Form>
          </div>
        ) : null}
      </div>
    </article>
  );
}

function TemplateForm({ template, manageOwn, manageSystem }: { template: TaskTemplateItem | null; manageOwn: boolean; manageSystem: boolean }) {
  const { files } = useLoaderData<typeof loader>();
  const { t } = useTranslation("taskTemplates");
  const intent = template ? INTENT.update : INTENT.create;
  const kit = useFormReply(intent, template ? { id: template.id } : {});
  const formId = "template-form";
  const fileErrors = kit.errors("fileId");
  const fileValue = kit.keeping ? (kit.kept("fileId") ?? "") : template?.file ? String(template.file.id) : "";
  const fileChoices = template?.file && !files.some((f) => f.id === template.file!.id) ? [template.file, ...files] : files;
  return (
    <section id={formId} aria-labelledby={`${formId}-heading`} className="mt-8 scroll-mt-20 rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id={`${formId}-heading`} className="text-lg font-semibold">
        {template ? t("tasks.editHeading", { title: template.title }) : t("tasks.createHeading")}
      </h2>
      <Form method="post" action={PATH} className="mt-4 grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value={intent} />
        {template ? <input type="hidden" name="id" value={template.id} /> : null}
        <TextInput kit={kit} formId={formId} name="titleEn" label={t("fields.titleEn")} value={template?.title} maxLength={200} required />
        <TextInput kit={kit} formId={formId} name="titleNo" label={t("fields.titleNo")} value={template?.titleNo ?? ""} maxLength={200} />
        <TextInput
          kit={kit}
          formId={formId}
          name="descriptionEn"
          label={t("fields.descriptionMarkdownEn")}
          value={template?.description ?? ""}
          multiline
          maxLength={DESCRIPTION_MAX}
        />
        <TextInput
          kit={kit}
          formId={formId}
          name="descriptionNo"
          label={t("fields.descriptionMarkdownNo")}
          value={template?.descriptionNo ?? ""}
          multiline
          maxLength={DESCRIPTION_MAX}
        />
        <TextInput
          kit={kit}
          formId={formId}
          name="dueInDays"
          label={t("fields.dueInDays")}
          value={template?.dueInDays ?? undefined}
          inputMode="numeric"
          maxLength={4}
        />
        <div>
          <label htmlFor={`${formId}-fileId`} className="mb-1 block text-sm font-medium">
            {t("fields.file")}
          </label>
          <select
            id={`${formId}-fileId`}
            name="fileId"
            defaultValue={fileValue}
            className={`select select-sm w-full ${fileErrors.length ? "select-error" : ""}`}
            aria-invalid={fileErrors.length ? true : undefined}
            aria-describedby={`${formId}-fileId-hint${fileErrors.length ? ` ${formId}-fileId-error` : ""}`}
          >
            <option value="">{t("fields.noFile")}</option>
            {fileChoices.map((f) => (
              <option key={f.id} value={f.id}>
                {f.fileName}
              </option>
            ))}
          </select>
          <p id={`${formId}-fileId-hint`} className="mt-1 text-xs text-base-content/70">
            {t("fields.fileHint")}{" "}
            <Link to="?panel=files" className="link">
              {t("fields.fileUploadLink")}
            </Link>
          </p>
          {fileErrors.length ? (
            <p id={`${formId}-fileId-error`} role="alert" className="mt-1 text-sm text-error">
              {fileErrors.join(" ")}
            </p>
          ) : null}
        </div>
        {template ? null : <OwnerChoice kit={kit} manageOwn={manageOwn} manageSystem={manageSystem} className="sm:col-span-2" />}
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <button type="submit" className="btn btn-primary btn-sm">
            {template ? t("tasks.save") : t("tasks.create")}
          </button>
          {template ? (
            <Link to={PATH} className="btn btn-ghost btn-sm">
              {t("cancel")}
            </Link>
          ) : null}
        </div>
        <div className="sm:col-span-2">
          <FormErrors result={kit.result} />
        </div>
      </Form>
    </section>
  );
}
