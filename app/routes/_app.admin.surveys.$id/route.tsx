import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormErrors } from "~/components/surveys/template-inputs";
import { SurveyPreview, type PreviewWords } from "~/components/surveys/SurveyPreview";
import { useFormReply, type ActionReply } from "~/components/ui/ActionForm";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { refuseForm, refuseFormFor } from "~/http/forms.server";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { errorResponse } from "~/http/responses.server";
import { requireTemplateScope } from "~/http/template-pages.server";
import i18nServer from "~/i18n.server";
import { isRefusalOf } from "~/models/shared/refusal";
import { pageTitle } from "~/models/shared/page-title.server";
import type { NewTexts } from "~/models/tasks/survey-builder";
import { checkDefinition, type DefinitionProblem } from "~/models/tasks/survey-builder.server";
import { findQuestion, localized, type SurveyDefinition, type SurveyLanguage } from "~/models/tasks/survey-definition";
import { saveSurveyDefinition, surveyTemplate } from "~/models/tasks/survey-templates.server";
import { useTranslation } from "~/translations";
import { applyBuilderChange, isOwnProblem } from "./survey-builder-changes";
import { INTENT, isBuilderIntent, surveyBuilderSchema } from "./survey-builder-schema";
import { DeleteStep, Hidden, SectionCard, TemplateForm } from "./survey-builder-sections";

export const meta = titleMeta;
export const handle = { i18n: ["taskTemplates", "taskStates"] };

async function requireTemplate(request: Request, rawId: string | undefined) {
  const { scope } = await requireTemplateScope(request);
  const templateId = parseId(rawId);
  const template = templateId === null ? undefined : await surveyTemplate(scope, templateId);
  if (!template) throw errorResponse(404, "There is no such survey template.");
  return { scope, template };
}

async function previewWords(): Promise<Record<SurveyLanguage, PreviewWords>> {
  const words = async (lng: SurveyLanguage): Promise<PreviewWords> => {
    const t = await i18nServer.getFixedT(lng);
    return {
      yes: t("taskStates:yes"),
      no: t("taskStates:no"),
      required: t("taskTemplates:preview.required"),
      shownWhen: t("taskTemplates:preview.shownWhen", { interpolation: { skipOnVariables: true }, question: "{{question}}", answer: "{{answer}}" }),
      expiryAsked: t("taskTemplates:preview.expiryAsked"),
      bounds: t("taskTemplates:preview.bounds", { min: "{{min}}", max: "{{max}}" }),
    };
  };
  return { en: await words("en"), no: await words("no") };
}

/**
 * /admin/surveys/{id}: the survey builder (decision 032). Without JavaScript every change is a plain POST with its
 * intent and the version it was made from, answered by a redirect back to the changed part (#s-… / #q-…). Every change
 * checks the whole definition (surveyDefinitionSchema); a refused one comes back with its message next to the field and
 * what the user typed. A change to a version somebody answered writes version n+1 (decision 031). Another
 * organisation's template: 404; a system-wide template is changed only by the installation's operator, others see the
 * preview and may duplicate it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { template, scope } = await requireTemplate(request, params.id);
  // `?delete=section:{id}` / `?delete=question:{id}`: the confirmation step of a delete (URL state, works without JavaScript).
  const asked = /^(section|question):([A-Za-z0-9_-]{1,40})$/.exec(new URL(request.url).searchParams.get("delete") ?? "");
  const exists = asked && (asked[1] === "section" ? template.definition.sections.some((s) => s.id === asked[2]) : findQuestion(template.definition, asked[2]));
  const confirmDelete = template.editable && asked && exists ? { kind: asked[1] as "section" | "question", id: asked[2] } : null;
  return json({
    template,
    confirmDelete,
    canDuplicate: scope.manageOwn,
    words: await previewWords(),
    title: await pageTitle(request, "taskTemplates:builder.title"),
  });
}

/** The words of a new section, question or option, in both languages of the survey. */
function newTexts(t: Awaited<ReturnType<typeof i18nServer.getFixedT>>): NewTexts {
  return {
    section: { en: t("taskTemplates:builder.new.section", { lng: "en" }), no: t("taskTemplates:builder.new.section", { lng: "no" }) },
    question: { en: t("taskTemplates:builder.new.question", { lng: "en" }), no: t("taskTemplates:builder.new.question", { lng: "no" }) },
    option: (n) => ({ en: t("taskTemplates:builder.new.option", { n, lng: "en" }), no: t("taskTemplates:builder.new.option", { n, lng: "no" }) }),
  };
}

/** The message of each refusal of a change (the status comes from its reason: 400, 404 or 409). */
const REFUSAL_MESSAGE = {
  "part-not-found": "taskTemplates:errors.partNotFound",
  "cannot-move": "taskTemplates:errors.cannotMove",
  "stale-version": "taskTemplates:errors.stale",
  "template-not-found": "taskTemplates:errors.notFound",
} as const;

export async function action({ request, params }: ActionFunctionArgs) {
  const { template, scope } = await requireTemplate(request, params.id);
  const t = await i18nServer.getFixedT(request);
  if (!template.editable) throw errorResponse(403, "Only the installation's administrator changes a system-wide template; duplicate it to change it.");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: surveyBuilderSchema(t) });
  const intent = formData.get("intent");
  const known = typeof intent === "string" ? intent : null;
  // The section or question the form edits, so that form (of many on the page) finds its reply.
  const subject: Record<string, string> = {};
  for (const name of ["sectionId", "questionId"]) {
    const value = formData.get(name);
    if (typeof value === "string") subject[name] = value;
  }
  const answer = { intent: known, subject };
  if (submission.status !== "success") {
    if (!isBuilderIntent(known)) return refuseForm(submission, { ...answer, formErrors: [t("taskTemplates:errors.invalidRequest")] });
    return refuseForm(submission, answer);
  }
  const change = submission.value;
  if (parseId(change.versionId) !== template.versionId)
    return refuseForm(submission, { ...answer, status: 409, formErrors: [t("taskTemplates:errors.stale")] });
  try {
    const { next, anchor } = applyBuilderChange(template.definition, change, newTexts(t));
    const checked = checkDefinition(next);
    if (!checked.ok) {
      const message = (p: DefinitionProblem) => t(`taskTemplates:schema.${p.key}`, p.params);
      const fieldErrors: Record<string, string[]> = {};
      const formErrors: string[] = [];
      for (const p of checked.problems) {
        if (isOwnProblem(change, p) && p.field) (fieldErrors[p.field] ??= []).push(message(p));
        else {
          const q = p.questionId ? findQuestion(next, p.questionId) : undefined;
          formErrors.push(q ? t("taskTemplates:errors.aboutQuestion", { question: localized(q.text, "en") || q.id, message: message(p) }) : message(p));
        }
      }
      return refuseForm(submission, { ...answer, formErrors: [...new Set(formErrors)], fieldErrors });
    }
    const saved = await saveSurveyDefinition(scope, { templateId: template.id, expectedVersionId: template.versionId, definition: checked.definition });
    return redirectWithNotice(
      request,
      `/admin/surveys/${template.id}#${anchor}`,
      saved.newVersion ? "taskTemplates:notices.newVersion" : "taskTemplates:notices.saved",
    );
  } catch (error) {
    if (!isRefusalOf(error, Object.keys(REFUSAL_MESSAGE) as (keyof typeof REFUSAL_MESSAGE)[])) throw error;
    return refuseFormFor(error, submission, t(REFUSAL_MESSAGE[error.code]), answer);
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function SurveyBuilderScreen() {
  const { template, canDuplicate, words, confirmDelete } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("taskTemplates");
  const lng: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const definition = template.definition as SurveyDefinition;
  const { editable, versionId } = template;
  const refused = useActionData<ActionReply>();
  const addSectionReply = useFormReply(INTENT.addSection);
  // A post without a known intent: its message has no form of its own to stand in.
  const staleErrors = refused && !refused.intent ? (refused.result?.error?.[""] ?? []) : [];
  return (
    <section aria-labelledby="builder-title" className="mx-auto max-w-5xl">
      <p className="text-sm">
        <Link to="/admin/surveys/surveys" className="link link-hover">
          {t("builder.back")}
        </Link>
      </p>
      <h1 id="builder-title" className="mt-1 text-2xl font-semibold">
        {localized(definition.title, lng)}
      </h1>
      <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-base-content/80">
        <span>{t("builder.versionLine", { version: template.version, count: template.responses })}</span>
        <span className="badge badge-sm badge-ghost">{template.systemWide ? t("owner.system") : t("owner.organization")}</span>
        {template.archived ? <span className="badge badge-sm badge-warning">{t("status.archived")}</span> : null}
      </p>
      {editable && template.responses > 0 ? <p className="mt-2 max-w-prose text-sm text-base-content/70">{t("builder.versionHint")}</p> : null}
      {staleErrors.length ? (
        <p role="alert" className="alert alert-error mt-3 text-sm">
          {staleErrors.join(" ")}
        </p>
      ) : null}
      {confirmDelete ? (
        <DeleteStep definition={definition} versionId={versionId} templateId={template.id} kind={confirmDelete.kind} id={confirmDelete.id} />
      ) : null}
      {!editable ? (
        <div className="alert mt-4 flex flex-wrap items-center justify-between gap-3 text-sm" role="note">
          <span>{t("builder.readOnly")}</span>
          {canDuplicate ? (
            <Form method="post" action="/admin/surveys/surveys">
              <input type="hidden" name="intent" value="duplicate" />
              <input type="hidden" name="id" value={template.id} />
              <button type="submit" className="btn btn-sm btn-primary">
                {t("surveys.duplicate")}
              </button>
            </Form>
          ) : null}
        </div>
      ) : (
        <>
          <nav aria-label={t("builder.jumpTo")} className="mt-3 flex flex-wrap gap-3 text-sm">
            <a href="#template" className="link link-primary">
              {t("builder.templateHeading")}
            </a>
            <a href="#sections" className="link link-primary">
              {t("builder.sectionsHeading")}
            </a>
            <a href="#preview" className="link link-primary">
              {t("builder.previewHeading")}
            </a>
          </nav>
          <TemplateForm definition={definition} versionId={versionId} />
          <section id="sections" aria-labelledby="sections-heading" className="mt-8 scroll-mt-20">
            <h2 id="sections-heading" className="text-xl font-semibold">
              {t("builder.sectionsHeading")}
            </h2>
            <ol className="mt-4 flex flex-col gap-6">
              {definition.sections.map((section, si) => (
                <li key={section.id}>
                  <SectionCard definition={definition} sectionIndex={si} versionId={versionId} />
                </li>
              ))}
            </ol>
            <Form method="post" preventScrollReset className="mt-4">
              <Hidden versionId={versionId} intent={INTENT.addSection} />
              <button type="submit" className="btn btn-sm">
                {t("builder.addSection")}
              </button>
              <FormErrors result={addSectionReply.result} />
            </Form>
          </section>
        </>
      )}
      <section id="preview" aria-labelledby="preview-heading" className="mt-10 scroll-mt-20 rounded-box border border-base-300 bg-base-100 p-5">
        <h2 id="preview-heading" className="text-xl font-semibold">
          {t("builder.previewHeading")}
        </h2>
        <p className="mt-1 text-sm text-base-content/70">{t("builder.previewHint")}</p>
        <div className="mt-4 grid gap-8 lg:grid-cols-2">
          {(["en", "no"] as const).map((language) => (
            <section key={language} aria-label={t(`builder.previewIn.${language}`)} className="min-w-0">
              <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-base-content/60">{t(`builder.previewIn.${language}`)}</p>
              <SurveyPreview definition={definition} language={language} words={words[language]} />
            </section>
          ))}
        </div>
      </section>
    </section>
  );
}
