import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Errors, FormErrors, TextInput, kitOf, useReplyFor, type PlainReply } from "~/components/surveys/plain-form";
import { SurveyPreview, type PreviewWords } from "~/components/surveys/SurveyPreview";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { redirectWithNotice } from "~/http/notice.server";
import { parseId, readForm } from "~/http/parse.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { pageTitle } from "~/models/shared/page-title.server";
import {
  addQuestion,
  addSection,
  conditionChoices,
  deleteQuestion,
  deleteSection,
  moveQuestion,
  moveSection,
  optionsFromRows,
  replaceQuestion,
  updateSection,
  type NewTexts,
} from "~/models/tasks/survey-builder";
import { checkDefinition, type DefinitionProblem } from "~/models/tasks/survey-builder.server";
import {
  findQuestion,
  localized,
  QUESTION_TYPES,
  SURVEY_LIMITS,
  type Bilingual,
  type SurveyDefinition,
  type SurveyLanguage,
  type SurveyQuestion,
} from "~/models/tasks/survey-definition";
import { requireTemplateScope, saveSurveyDefinition, surveyTemplate } from "~/models/tasks/survey-templates.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
export const handle = { i18n: ["taskTemplates", "taskStates"] };

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Every text field of the builder: trimmed, at most the definition's limit. */
const text = (t: Translate) =>
  z
    .string()
    .trim()
    .max(SURVEY_LIMITS.textLength, t("taskTemplates:errors.tooLong", { max: SURVEY_LIMITS.textLength }))
    .optional();
const number = (t: Translate, min: number, max: number) =>
  z
    .number({ error: t("taskTemplates:errors.notANumber") })
    .min(min, t("taskTemplates:errors.between", { min, max }))
    .max(max, t("taskTemplates:errors.between", { min, max }))
    .optional();
const id = z
  .string()
  .max(SURVEY_LIMITS.idLength)
  .regex(/^[A-Za-z0-9_-]+$/);
const direction = z.enum(["up", "down"]);

const schema = (t: Translate) =>
  z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("saveTemplate"), versionId: z.string(), titleEn: text(t), titleNo: text(t), descriptionEn: text(t), descriptionNo: text(t) }),
    z.object({ intent: z.literal("addSection"), versionId: z.string() }),
    z.object({
      intent: z.literal("saveSection"),
      versionId: z.string(),
      sectionId: id,
      titleEn: text(t),
      titleNo: text(t),
      descriptionEn: text(t),
      descriptionNo: text(t),
    }),
    z.object({ intent: z.literal("moveSection"), versionId: z.string(), sectionId: id, direction }),
    z.object({ intent: z.literal("deleteSection"), versionId: z.string(), sectionId: id }),
    z.object({
      intent: z.literal("addQuestion"),
      versionId: z.string(),
      sectionId: id,
      type: z.enum(QUESTION_TYPES, { error: t("taskTemplates:errors.chooseType") }),
    }),
    z.object({
      intent: z.literal("saveQuestion"),
      versionId: z.string(),
      questionId: id,
      textEn: text(t),
      textNo: text(t),
      helpEn: text(t),
      helpNo: text(t),
      required: z.literal("on").optional(),
      weight: number(t, 0, 100),
      goodAnswer: z.enum(["yes", "no"]).optional(),
      unitEn: text(t),
      unitNo: text(t),
      min: z.number({ error: t("taskTemplates:errors.notANumber") }).optional(),
      max: z.number({ error: t("taskTemplates:errors.notANumber") }).optional(),
      askExpiry: z.literal("on").optional(),
      showIf: z.string().max(100).optional(),
      options: z
        .array(z.object({ value: id.optional(), en: text(t), no: text(t), points: number(t, 0, 100) }))
        .max(SURVEY_LIMITS.options + 2)
        .optional(),
    }),
    z.object({ intent: z.literal("moveQuestion"), versionId: z.string(), questionId: id, direction }),
    z.object({ intent: z.literal("deleteQuestion"), versionId: z.string(), questionId: id }),
  ]);

type Change = z.infer<ReturnType<typeof schema>>;

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

function bilingual(en: string | undefined, no: string | undefined): Bilingual {
  return { en: en ?? "", no: no ?? "" };
}
function optionalBilingual(en: string | undefined, no: string | undefined): Bilingual | undefined {
  return en || no ? bilingual(en, no) : undefined;
}

/** The changed question from the posted form, over the stored one (its id and type stay). */
function questionFrom(existing: SurveyQuestion, v: Extract<Change, { intent: "saveQuestion" }>): SurveyQuestion {
  const q: SurveyQuestion = { id: existing.id, type: existing.type, text: bilingual(v.textEn, v.textNo), required: v.required === "on" };
  const help = optionalBilingual(v.helpEn, v.helpNo);
  if (help) q.help = help;
  const scorable = ["yes_no", "single_choice", "multiple_choice", "file"].includes(q.type);
  if (scorable && v.weight !== undefined && v.weight > 0) q.weight = v.weight;
  if (q.type === "yes_no" && v.goodAnswer === "no") q.goodAnswer = "no";
  if (q.type === "single_choice" || q.type === "multiple_choice")
    q.options = optionsFromRows((v.options ?? []).map((o) => ({ value: o.value, en: o.en ?? "", no: o.no ?? "", points: o.points })));
  if (q.type === "number") {
    const unit = optionalBilingual(v.unitEn, v.unitNo);
    if (unit) q.unit = unit;
    if (v.min !== undefined) q.min = v.min;
    if (v.max !== undefined) q.max = v.max;
  }
  if (q.type === "file") q.askExpiry = v.askExpiry === "on";
  if (v.showIf) {
    const at = v.showIf.indexOf("=");
    if (at > 0) q.showIf = { question: v.showIf.slice(0, at), equals: v.showIf.slice(at + 1) };
  }
  return q;
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { template, scope } = await requireTemplate(request, params.id);
  const t = await i18nServer.getFixedT(request);
  if (!template.editable) throw errorResponse(403, "Only the installation's administrator changes a system-wide template; duplicate it to change it.");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: schema(t) });
  const intent = formData.get("intent");
  const known = typeof intent === "string" ? intent : null;
  const subject = { sectionId: formData.get("sectionId"), questionId: formData.get("questionId") };
  const reply = (status: 400 | 404 | 409, formErrors: string[], fieldErrors: Record<string, string[]> = {}) =>
    json({ intent: known, subject, result: submission.reply({ formErrors, fieldErrors }) }, { status });
  if (submission.status !== "success") {
    if (
      !known ||
      !["saveTemplate", "addSection", "saveSection", "moveSection", "deleteSection", "addQuestion", "saveQuestion", "moveQuestion", "deleteQuestion"].includes(
        known,
      )
    )
      return reply(400, [t("taskTemplates:errors.invalidRequest")]);
    return json({ intent: known, subject, result: submission.reply() }, { status: 400 });
  }
  const v = submission.value;
  if (parseId(v.versionId) !== template.versionId) return reply(409, [t("taskTemplates:errors.stale")]);
  const texts: NewTexts = {
    section: { en: t("taskTemplates:builder.new.section", { lng: "en" }), no: t("taskTemplates:builder.new.section", { lng: "no" }) },
    question: { en: t("taskTemplates:builder.new.question", { lng: "en" }), no: t("taskTemplates:builder.new.question", { lng: "no" }) },
    option: (n) => ({ en: t("taskTemplates:builder.new.option", { n, lng: "en" }), no: t("taskTemplates:builder.new.option", { n, lng: "no" }) }),
  };
  const current = template.definition;
  let next: SurveyDefinition | null = null;
  let anchor = "";
  switch (v.intent) {
    case "saveTemplate":
      next = { ...current, title: bilingual(v.titleEn, v.titleNo) };
      if (v.descriptionEn || v.descriptionNo) next.description = bilingual(v.descriptionEn, v.descriptionNo);
      else delete next.description;
      anchor = "template";
      break;
    case "addSection": {
      const added = addSection(current, texts);
      next = added.definition;
      anchor = `s-${added.id}`;
      break;
    }
    case "saveSection":
      next = updateSection(current, v.sectionId, { title: bilingual(v.titleEn, v.titleNo), description: optionalBilingual(v.descriptionEn, v.descriptionNo) });
      anchor = `s-${v.sectionId}`;
      break;
    case "moveSection":
      next = moveSection(current, v.sectionId, v.direction);
      anchor = `s-${v.sectionId}`;
      if (!next) return reply(400, [t("taskTemplates:errors.cannotMove")]);
      break;
    case "deleteSection":
      next = deleteSection(current, v.sectionId);
      anchor = "sections";
      break;
    case "addQuestion": {
      const added = addQuestion(current, v.sectionId, v.type, texts);
      next = added?.definition ?? null;
      anchor = added ? `q-${added.id}` : "";
      break;
    }
    case "saveQuestion": {
      const existing = findQuestion(current, v.questionId);
      next = existing ? replaceQuestion(current, questionFrom(existing, v)) : null;
      anchor = `q-${v.questionId}`;
      break;
    }
    case "moveQuestion":
      next = moveQuestion(current, v.questionId, v.direction);
      anchor = `q-${v.questionId}`;
      if (!next && findQuestion(current, v.questionId)) return reply(400, [t("taskTemplates:errors.cannotMove")]);
      break;
    case "deleteQuestion":
      next = deleteQuestion(current, v.questionId);
      anchor = "sections";
      break;
  }
  if (!next) return reply(404, [t("taskTemplates:errors.partNotFound")]);
  const checked = checkDefinition(next);
  if (!checked.ok) {
    // Problems of the part this form edits go next to its fields; the others (a condition elsewhere that the change
    // broke, an emptied section) are the form's own, naming the question they are about.
    const own = (p: DefinitionProblem) =>
      (v.intent === "saveQuestion" && p.questionId === v.questionId) ||
      (v.intent === "saveSection" && p.sectionId === v.sectionId && !p.questionId) ||
      (v.intent === "saveTemplate" && !p.sectionId);
    const message = (p: DefinitionProblem) => t(`taskTemplates:schema.${p.key}`, p.params);
    const fieldErrors: Record<string, string[]> = {};
    const formErrors: string[] = [];
    for (const p of checked.problems) {
      if (own(p) && p.field) (fieldErrors[p.field] ??= []).push(message(p));
      else {
        const q = p.questionId ? findQuestion(next, p.questionId) : undefined;
        formErrors.push(q ? t("taskTemplates:errors.aboutQuestion", { question: localized(q.text, "en") || q.id, message: message(p) }) : message(p));
      }
    }
    return reply(400, [...new Set(formErrors)], fieldErrors);
  }
  const saved = await saveSurveyDefinition(scope, { templateId: template.id, expectedVersionId: template.versionId, definition: checked.definition });
  if (!saved.saved) return saved.problem === "stale" ? reply(409, [t("taskTemplates:errors.stale")]) : reply(404, [t("taskTemplates:errors.notFound")]);
  return redirectWithNotice(
    request,
    `/admin/surveys/${template.id}#${anchor}`,
    saved.newVersion ? "taskTemplates:notices.newVersion" : "taskTemplates:notices.saved",
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/* ---------------- the page ---------------- */

function Hidden({ versionId, intent, fields = {} }: { versionId: number; intent: string; fields?: Record<string, string> }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="versionId" value={versionId} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

function SmallPost({
  versionId,
  intent,
  fields,
  label,
  ariaLabel,
  className = "btn btn-xs",
  disabled = false,
}: {
  versionId: number;
  intent: string;
  fields: Record<string, string>;
  label: string;
  ariaLabel: string;
  className?: string;
  disabled?: boolean;
}) {
  return (
    <Form method="post" preventScrollReset>
      <Hidden versionId={versionId} intent={intent} fields={fields} />
      <button type="submit" className={className} aria-label={ariaLabel} disabled={disabled}>
        {label}
      </button>
    </Form>
  );
}

/** Up, Down and Delete of a section or a question: each a plain POST of its own. */
function PartControls({
  part,
  versionId,
  fields,
  name,
  first,
  last,
}: {
  part: "Section" | "Question";
  versionId: number;
  fields: Record<string, string>;
  name: string;
  first: boolean;
  last: boolean;
}) {
  const { t } = useTranslation("taskTemplates");
  const moves = [
    ["up", first],
    ["down", last],
  ] as const;
  return (
    <div className="flex flex-wrap gap-1">
      {moves.map(([direction, disabled]) => (
        <SmallPost
          key={direction}
          versionId={versionId}
          intent={`move${part}`}
          fields={{ ...fields, direction }}
          label={t(`builder.${direction}`)}
          ariaLabel={t(`builder.move${part}${direction === "up" ? "Up" : "Down"}`, { title: name })}
          disabled={disabled}
        />
      ))}
      <Link
        to={`?delete=${part === "Section" ? "section" : "question"}:${Object.values(fields)[0]}`}
        preventScrollReset
        className="btn btn-xs btn-ghost text-error"
        aria-label={t(`builder.delete${part}`, { title: name })}
      >
        {t("builder.delete")}
      </Link>
    </div>
  );
}

/** "Please confirm" before a section or a question is deleted (docs/architecture.md: destructive actions ask first). */
function DeleteStep({
  definition,
  versionId,
  templateId,
  kind,
  id,
}: {
  definition: SurveyDefinition;
  versionId: number;
  templateId: number;
  kind: "section" | "question";
  id: string;
}) {
  const { t, i18n } = useTranslation("taskTemplates");
  const lng: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const section = definition.sections.find((s) => s.id === id);
  const name = kind === "section" ? localized(section?.title, lng) : localized(findQuestion(definition, id)?.text, lng);
  const here = `/admin/surveys/${templateId}`;
  return (
    <ConfirmStep
      title={t("builder.confirmTitle")}
      detail={name}
      text={t(kind === "section" ? "builder.confirmDeleteSection" : "builder.confirmDeleteQuestion", { count: section?.questions.length ?? 0 })}
      intent={kind === "section" ? "deleteSection" : "deleteQuestion"}
      fields={kind === "section" ? { versionId, sectionId: id } : { versionId, questionId: id }}
      confirmLabel={t("builder.delete")}
      cancelLabel={t("cancel")}
      cancelHref={`${here}#${kind === "section" ? "s" : "q"}-${id}`}
      redirectTo={here}
    />
  );
}

export default function SurveyBuilderScreen() {
  const { template, canDuplicate, words, confirmDelete } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("taskTemplates");
  const lng: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const definition = template.definition as SurveyDefinition;
  const { editable, versionId } = template;
  const stale = useActionData<PlainReply>();
  const addSectionReply = useReplyFor("addSection");
  const staleErrors = stale && !stale.intent ? (stale.result.error?.[""] ?? []) : [];
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
              <Hidden versionId={versionId} intent="addSection" />
              <button type="submit" className="btn btn-sm">
                {t("builder.addSection")}
              </button>
              <FormErrors result={addSectionReply} />
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

function TemplateForm({ definition, versionId }: { definition: SurveyDefinition; versionId: number }) {
  const { t } = useTranslation("taskTemplates");
  const result = useReplyFor("saveTemplate");
  const kit = kitOf(result);
  return (
    <section id="template" aria-labelledby="template-heading" className="mt-6 scroll-mt-20 rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id="template-heading" className="text-lg font-semibold">
        {t("builder.templateHeading")}
      </h2>
      <Form method="post" preventScrollReset className="mt-3 grid gap-3 sm:grid-cols-2">
        <Hidden versionId={versionId} intent="saveTemplate" />
        <TextInput kit={kit} formId="template" name="titleEn" label={t("fields.titleEn")} value={definition.title.en} />
        <TextInput kit={kit} formId="template" name="titleNo" label={t("fields.titleNo")} value={definition.title.no} />
        <TextInput kit={kit} formId="template" name="descriptionEn" label={t("fields.descriptionEn")} value={definition.description?.en} multiline />
        <TextInput kit={kit} formId="template" name="descriptionNo" label={t("fields.descriptionNo")} value={definition.description?.no} multiline />
        <div className="sm:col-span-2">
          <button type="submit" className="btn btn-sm btn-primary">
            {t("builder.saveTemplate")}
          </button>
          <FormErrors result={result} />
        </div>
      </Form>
    </section>
  );
}

function SectionCard({ definition, sectionIndex, versionId }: { definition: SurveyDefinition; sectionIndex: number; versionId: number }) {
  const { t, i18n } = useTranslation("taskTemplates");
  const lng: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const section = definition.sections[sectionIndex];
  const name = localized(section.title, lng);
  const result = useReplyFor("saveSection", { sectionId: section.id });
  const moveResult = useReplyFor("moveSection", { sectionId: section.id });
  const deleteResult = useReplyFor("deleteSection", { sectionId: section.id });
  const addResult = useReplyFor("addQuestion", { sectionId: section.id });
  const kit = kitOf(result);
  const formId = `section-${section.id}`;
  return (
    <section id={`s-${section.id}`} aria-labelledby={`${formId}-heading`} className="scroll-mt-20 rounded-box border border-base-300 bg-base-100 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={`${formId}-heading`} className="text-lg font-semibold">
          {t("builder.sectionNumber", { n: sectionIndex + 1, title: name })}
        </h3>
        <PartControls
          part="Section"
          versionId={versionId}
          fields={{ sectionId: section.id }}
          name={name}
          first={sectionIndex === 0}
          last={sectionIndex === definition.sections.length - 1}
        />
      </div>
      <FormErrors result={moveResult ?? deleteResult} />
      <Form method="post" preventScrollReset className="mt-3 grid gap-3 sm:grid-cols-2">
        <Hidden versionId={versionId} intent="saveSection" fields={{ sectionId: section.id }} />
        <TextInput kit={kit} formId={formId} name="titleEn" label={t("fields.sectionTitleEn")} value={section.title.en} />
        <TextInput kit={kit} formId={formId} name="titleNo" label={t("fields.sectionTitleNo")} value={section.title.no} />
        <TextInput kit={kit} formId={formId} name="descriptionEn" label={t("fields.descriptionEn")} value={section.description?.en} multiline />
        <TextInput kit={kit} formId={formId} name="descriptionNo" label={t("fields.descriptionNo")} value={section.description?.no} multiline />
        <div className="sm:col-span-2">
          <button type="submit" className="btn btn-sm">
            {t("builder.saveSection")}
          </button>
          <FormErrors result={result} />
        </div>
      </Form>
      <ol className="mt-4 flex flex-col gap-4">
        {section.questions.map((q, qi) => (
          <li key={q.id}>
            <QuestionCard
              definition={definition}
              question={q}
              first={sectionIndex === 0 && qi === 0}
              last={sectionIndex === definition.sections.length - 1 && qi === section.questions.length - 1}
              versionId={versionId}
            />
          </li>
        ))}
      </ol>
      <Form method="post" preventScrollReset className="mt-4 flex flex-wrap items-end gap-2">
        <Hidden versionId={versionId} intent="addQuestion" fields={{ sectionId: section.id }} />
        <div>
          <label htmlFor={`${formId}-type`} className="mb-1 block text-sm font-medium">
            {t("builder.newQuestionType")}
          </label>
          <select id={`${formId}-type`} name="type" className="select select-sm" defaultValue="short_text">
            {QUESTION_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`taskStates:questionType.${type}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-sm" aria-label={t("builder.addQuestionTo", { title: name })}>
          {t("builder.addQuestion")}
        </button>
        <FormErrors result={addResult} />
      </Form>
    </section>
  );
}

function QuestionCard({
  definition,
  question: q,
  first,
  last,
  versionId,
}: {
  definition: SurveyDefinition;
  question: SurveyQuestion;
  first: boolean;
  last: boolean;
  versionId: number;
}) {
  const { t, i18n } = useTranslation("taskTemplates");
  const lng: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const result = useReplyFor("saveQuestion", { questionId: q.id });
  const moveResult = useReplyFor("moveQuestion", { questionId: q.id });
  const deleteResult = useReplyFor("deleteQuestion", { questionId: q.id });
  const kit = kitOf(result);
  const formId = `question-${q.id}`;
  const name = localized(q.text, lng);
  const choice = q.type === "single_choice" || q.type === "multiple_choice";
  const scorable = choice || q.type === "yes_no" || q.type === "file";
  const conditions = conditionChoices(definition, q.id);
  const shownIf = kit.keeping ? (kit.kept("showIf") ?? "") : q.showIf ? `${q.showIf.question}=${q.showIf.equals}` : "";
  const optionRows = [...(q.options ?? []), { value: "", label: { en: "", no: "" } }, { value: "", label: { en: "", no: "" } }];
  const checked = (field: "required" | "askExpiry", stored: boolean) => (kit.keeping ? kit.kept(field) === "on" : stored);
  return (
    <article id={`q-${q.id}`} aria-labelledby={`${formId}-heading`} className="scroll-mt-20 rounded-box border border-base-300 p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h4 id={`${formId}-heading`} className="font-medium">
          {name} <span className="badge badge-sm badge-ghost">{t(`taskStates:questionType.${q.type}`)}</span>
        </h4>
        <PartControls part="Question" versionId={versionId} fields={{ questionId: q.id }} name={name} first={first} last={last} />
      </div>
      <FormErrors result={moveResult ?? deleteResult} />
      <Form method="post" preventScrollReset className="mt-2 grid gap-3 sm:grid-cols-2">
        <Hidden versionId={versionId} intent="saveQuestion" fields={{ questionId: q.id }} />
        <TextInput kit={kit} formId={formId} name="textEn" label={t("fields.textEn")} value={q.text.en} multiline />
        <TextInput kit={kit} formId={formId} name="textNo" label={t("fields.textNo")} value={q.text.no} multiline />
        <TextInput kit={kit} formId={formId} name="helpEn" label={t("fields.helpEn")} value={q.help?.en} />
        <TextInput kit={kit} formId={formId} name="helpNo" label={t("fields.helpNo")} value={q.help?.no} />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="required" className="checkbox checkbox-sm" defaultChecked={checked("required", q.required)} />
          {t("fields.required")}
        </label>
        {scorable ? <TextInput kit={kit} formId={formId} name="weight" label={t("fields.weight")} value={q.weight} inputMode="decimal" /> : null}
        {q.type === "yes_no" ? (
          <div>
            <label htmlFor={`${formId}-goodAnswer`} className="mb-1 block text-sm font-medium">
              {t("fields.goodAnswer")}
            </label>
            <select
              id={`${formId}-goodAnswer`}
              name="goodAnswer"
              className="select select-sm"
              defaultValue={kit.keeping ? (kit.kept("goodAnswer") ?? "yes") : (q.goodAnswer ?? "yes")}
            >
              <option value="yes">{t("taskStates:yes")}</option>
              <option value="no">{t("taskStates:no")}</option>
            </select>
          </div>
        ) : null}
        {q.type === "number" ? (
          <>
            <TextInput kit={kit} formId={formId} name="unitEn" label={t("fields.unitEn")} value={q.unit?.en} />
            <TextInput kit={kit} formId={formId} name="unitNo" label={t("fields.unitNo")} value={q.unit?.no} />
            <TextInput kit={kit} formId={formId} name="min" label={t("fields.min")} value={q.min} inputMode="decimal" />
            <TextInput kit={kit} formId={formId} name="max" label={t("fields.max")} value={q.max} inputMode="decimal" />
          </>
        ) : null}
        {q.type === "file" ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="askExpiry" className="checkbox checkbox-sm" defaultChecked={checked("askExpiry", q.askExpiry ?? false)} />
            {t("fields.askExpiry")}
          </label>
        ) : null}
        <div className="sm:col-span-2">
          <label htmlFor={`${formId}-showIf`} className="mb-1 block text-sm font-medium">
            {t("fields.showIf")}
          </label>
          <select
            id={`${formId}-showIf`}
            name="showIf"
            className="select select-sm w-full max-w-xl"
            defaultValue={shownIf}
            aria-invalid={kit.errors("showIf").length ? true : undefined}
            aria-describedby={kit.errors("showIf").length ? `${formId}-showIf-error` : undefined}
          >
            <option value="">{t("fields.always")}</option>
            {conditions.flatMap(({ question: on, values }) =>
              values.map((value) => {
                const answer = on.type === "yes_no" ? t(`taskStates:${value}`) : localized(on.options?.find((o) => o.value === value)?.label, lng);
                return (
                  <option key={`${on.id}=${value}`} value={`${on.id}=${value}`}>
                    {t("fields.whenAnswer", { question: localized(on.text, lng), answer })}
                  </option>
                );
              }),
            )}
          </select>
          <Errors id={`${formId}-showIf-error`} errors={kit.errors("showIf")} />
        </div>
        {choice ? (
          <fieldset className="sm:col-span-2">
            <legend className="mb-1 text-sm font-medium">{t("fields.options")}</legend>
            <p className="mb-2 text-xs text-base-content/70">{t("fields.optionsHint")}</p>
            <ol className="flex flex-col gap-2">
              {optionRows.map((o, i) => (
                <li key={i} className="grid gap-2 sm:grid-cols-[1fr_1fr_6rem]">
                  <input type="hidden" name={`options[${i}].value`} value={o.value} />
                  <TextInput kit={kit} formId={formId} name={`options[${i}].en`} label={t("fields.optionEn", { n: i + 1 })} value={o.label.en} />
                  <TextInput kit={kit} formId={formId} name={`options[${i}].no`} label={t("fields.optionNo", { n: i + 1 })} value={o.label.no} />
                  <TextInput
                    kit={kit}
                    formId={formId}
                    name={`options[${i}].points`}
                    label={t("fields.points")}
                    value={"points" in o ? o.points : undefined}
                    inputMode="numeric"
                  />
                </li>
              ))}
            </ol>
            <Errors id={`${formId}-options-error`} errors={kit.errors("options")} />
          </fieldset>
        ) : null}
        <div className="sm:col-span-2">
          <button type="submit" className="btn btn-sm btn-primary" aria-label={t("builder.saveQuestionNamed", { title: name })}>
            {t("builder.saveQuestion")}
          </button>
          <FormErrors result={result} />
        </div>
      </Form>
    </article>
  );
}
