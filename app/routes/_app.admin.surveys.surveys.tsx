import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { FormErrors, OwnerChoice, TemplatesHeader, TextInput } from "~/components/surveys/template-inputs";
import { useFormReply, type ActionReply } from "~/components/ui/ActionForm";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { TableScroll } from "~/components/ui/TableScroll";
import { titleMeta } from "~/components/ui/meta";
import { refuseForm, refuseFormFor } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { requireTemplateScope } from "~/http/template-pages.server";
import i18nServer from "~/i18n.server";
import { isRefusalOf, refuse } from "~/models/shared/refusal";
import { pageTitle } from "~/models/shared/page-title.server";
import { localized } from "~/models/tasks/survey-definition";
import {
  createSurveyTemplate,
  duplicateSurveyTemplate,
  listSurveyTemplates,
  type TemplateScope,
  setSurveyTemplateArchived,
  surveyTemplate,
} from "~/models/tasks/survey-templates.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
export const handle = { i18n: ["taskTemplates", "taskStates"] };

const PATH = "/admin/surveys/surveys";

export const INTENT = { create: "create", duplicate: "duplicate", archive: "archive", restore: "restore" } as const;
type Translate = (key: string, options?: Record<string, unknown>) => string;

const requiredTitle = (t: Translate) =>
  z
    .string({ error: t("taskTemplates:errors.titleRequired") })
    .trim()
    .min(1, t("taskTemplates:errors.titleRequired"))
    .max(200, t("taskTemplates:errors.tooLong", { max: 200 }));
const optionalTitle = (t: Translate) =>
  z
    .string()
    .trim()
    .max(200, t("taskTemplates:errors.tooLong", { max: 200 }))
    .optional();

const createSchema = (t: Translate) =>
  z.object({
    intent: z.literal(INTENT.create),
    titleEn: requiredTitle(t),
    titleNo: optionalTitle(t),
    owner: z.enum(["organization", "system"]).default("organization"),
  });

const rowSchema = z.object({ intent: z.enum([INTENT.duplicate, INTENT.archive, INTENT.restore]), id: z.string() });

/**
 * /admin/surveys/surveys: the organisation's survey templates and the system-wide ones (decision 032): version, question
 * count, this organisation's responses, archived; create (then the builder), duplicate into the organisation, archive and
 * restore. The organisation's administrator (taskTemplatesManage) or the installation's operator (system-wide ones).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { scope } = await requireTemplateScope(request);
  const templates = await listSurveyTemplates(scope);
  return json({ templates, manageOwn: scope.manageOwn, manageSystem: scope.manageSystem, title: await pageTitle(request, "taskTemplates:surveys.title") });
}

type FixedT = Awaited<ReturnType<typeof i18nServer.getFixedT>>;

async function create(request: Request, formData: FormData, scope: TemplateScope, t: FixedT) {
  const submission = parseWithZod(formData, { schema: createSchema(t) });
  if (submission.status !== "success") return refuseForm(submission, { intent: INTENT.create });
  const { titleEn, titleNo, owner } = submission.value;
  const system = owner === "system" || scope.organizationId === null;
  if (system ? !scope.manageSystem : !scope.manageOwn)
    return refuseForm(submission, { intent: INTENT.create, status: 403, formErrors: [t("taskTemplates:errors.forbidden")] });
  const id = await createSurveyTemplate({
    organizationId: system ? null : scope.organizationId,
    userId: scope.userId,
    definition: {
      title: { en: titleEn, no: titleNo ?? "" },
      sections: [
        {
          id: "s1",
          title: { en: t("taskTemplates:builder.new.section", { lng: "en" }), no: t("taskTemplates:builder.new.section", { lng: "no" }) },
          questions: [
            {
              id: "q1",
              type: "short_text",
              text: { en: t("taskTemplates:builder.new.question", { lng: "en" }), no: t("taskTemplates:builder.new.question", { lng: "no" }) },
              required: false,
            },
          ],
        },
      ],
    },
  });
  return redirectWithNotice(request, `/admin/surveys/${id}`, "taskTemplates:notices.created");
}

async function duplicate(request: Request, scope: TemplateScope, id: number, t: FixedT) {
  const template = await surveyTemplate(scope, id);
  if (!template) throw refuse("not-found", "template-not-found");
  const copy = await duplicateSurveyTemplate(scope, {
    id,
    title: {
      en: t("taskTemplates:surveys.copyOf", { title: template.definition.title.en, lng: "en" }).slice(0, 200),
      no: template.definition.title.no ? t("taskTemplates:surveys.copyOf", { title: template.definition.title.no, lng: "no" }).slice(0, 200) : "",
    },
  });
  return redirectWithNotice(request, `/admin/surveys/${copy}`, "taskTemplates:notices.duplicated");
}

async function setArchived(request: Request, scope: TemplateScope, id: number, archived: boolean) {
  await setSurveyTemplateArchived(scope, { id, archived });
  return redirectWithNotice(request, PATH, archived ? "taskTemplates:notices.archived" : "taskTemplates:notices.restored");
}

export async function action({ request }: ActionFunctionArgs) {
  const { scope } = await requireTemplateScope(request);
  const formData = await readForm(request);
  const t = await i18nServer.getFixedT(request);
  if (formData.get("intent") === INTENT.create) return create(request, formData, scope, t);
  const submission = parseWithZod(formData, { schema: rowSchema });
  const id = submission.status === "success" ? parseId(submission.value.id) : null;
  if (submission.status !== "success" || id === null) return refuseForm(submission, { intent: null, formErrors: [t("taskTemplates:errors.invalidRequest")] });
  const intent = submission.value.intent;
  try {
    switch (intent) {
      case INTENT.duplicate:
        return await duplicate(request, scope, id, t);
      case INTENT.archive:
      case INTENT.restore:
        return await setArchived(request, scope, id, intent === INTENT.archive);
    }
  } catch (error) {
    if (!isRefusalOf(error, ["template-not-found", "template-forbidden"])) throw error;
    const message = error.code === "template-forbidden" ? t("taskTemplates:errors.forbidden") : t("taskTemplates:errors.notFound");
    return refuseFormFor(error, submission, message, { intent });
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function SurveyTemplatesScreen() {
  const { templates, manageOwn, manageSystem } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionReply>();
  const { t, i18n } = useTranslation("taskTemplates");
  const lng = i18n.language === "no" ? "no" : "en";
  const rowErrors = actionData && actionData.intent !== INTENT.create ? Object.values(actionData.result?.error ?? {}).flatMap((e) => e ?? []) : [];
  return (
    <section aria-labelledby="survey-templates-title" className="mx-auto max-w-6xl">
      <TemplatesHeader
        id="survey-templates-title"
        title={t("surveys.title")}
        intro={t("surveys.intro")}
        links={[
          { to: "/admin/tasks/templates", label: t("tasks.title") },
          { to: "/survey-explorer", label: t("surveys.explorerLink") },
        ]}
        errors={rowErrors}
      />
      <TableScroll>
        <table className="table table-sm mt-6 min-w-[48rem]">
          <caption className="sr-only">{t("surveys.tableCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("columns.title")}</th>
              <th scope="col">{t("columns.owner")}</th>
              <th scope="col" className="text-right">
                {t("columns.version")}
              </th>
              <th scope="col" className="text-right">
                {t("columns.questions")}
              </th>
              <th scope="col" className="text-right">
                {t("columns.responses")}
              </th>
              <th scope="col">{t("columns.status")}</th>
              <th scope="col">
                <span className="sr-only">{t("columns.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {templates.map((row) => {
              const title = localized({ en: row.title, no: row.titleNo ?? "" }, lng);
              return (
                <tr key={row.id} className={row.archived ? "opacity-70" : undefined}>
                  <th scope="row" className="font-medium">
                    <Link to={`/admin/surveys/${row.id}`} className="link link-hover">
                      {title}
                    </Link>
                  </th>
                  <td>{row.systemWide ? t("owner.system") : t("owner.organization")}</td>
                  <td className="text-right tabular-nums">{row.version}</td>
                  <td className="text-right tabular-nums">{row.questions}</td>
                  <td className="text-right tabular-nums">{row.responses}</td>
                  <td>
                    {row.archived ? (
                      <span className="badge badge-sm badge-ghost">{t("status.archived")}</span>
                    ) : (
                      <span className="badge badge-sm badge-success">{t("status.active")}</span>
                    )}
                  </td>
                  <td>
                    <div className="flex flex-wrap justify-end gap-2">
                      {manageOwn ? (
                        <Form method="post" action={PATH}>
                          <input type="hidden" name="intent" value={INTENT.duplicate} />
                          <input type="hidden" name="id" value={row.id} />
                          <button type="submit" className="btn btn-xs" aria-label={t("surveys.duplicateNamed", { title })}>
                            {t("surveys.duplicate")}
                          </button>
                        </Form>
                      ) : null}
                      {row.editable ? (
                        <Form method="post" action={PATH}>
                          <input type="hidden" name="intent" value={row.archived ? INTENT.restore : INTENT.archive} />
                          <input type="hidden" name="id" value={row.id} />
                          <button type="submit" className="btn btn-xs btn-ghost" aria-label={t(row.archived ? "restoreNamed" : "archiveNamed", { title })}>
                            {row.archived ? t("restore") : t("archive")}
                          </button>
                        </Form>
                      ) : null}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      <CreateForm manageOwn={manageOwn} manageSystem={manageSystem} />
    </section>
  );
}

function CreateForm({ manageOwn, manageSystem }: { manageOwn: boolean; manageSystem: boolean }) {
  const { t } = useTranslation("taskTemplates");
  const kit = useFormReply(INTENT.create);
  return (
    <section aria-labelledby="create-survey-heading" className="mt-8 max-w-2xl rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id="create-survey-heading" className="text-lg font-semibold">
        {t("surveys.create")}
      </h2>
      <Form method="post" action={PATH} className="mt-4 flex flex-col gap-4" key={kit.result ? "refused" : "fresh"}>
        <input type="hidden" name="intent" value={INTENT.create} />
        <TextInput kit={kit} formId="create" name="titleEn" label={t("fields.titleEn")} value="" maxLength={200} required />
        <TextInput kit={kit} formId="create" name="titleNo" label={t("fields.titleNo")} value="" maxLength={200} />
        <OwnerChoice kit={kit} manageOwn={manageOwn} manageSystem={manageSystem} />
        <FormErrors result={kit.result} />
        <div className="sm:text-right">
          <button type="submit" className="btn btn-primary w-full sm:w-auto">
            {t("surveys.createSubmit")}
          </button>
        </div>
      </Form>
    </section>
  );
}
