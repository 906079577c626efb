import { Form, Link } from "@remix-run/react";
import { Errors, FormErrors, TextInput } from "~/components/surveys/template-inputs";
import { ConfirmStep } from "~/components/ui/ConfirmStep";
import { useFormReply } from "~/components/ui/ActionForm";
import { conditionChoices } from "~/models/tasks/survey-builder";
import { findQuestion, localized, QUESTION_TYPES, type SurveyDefinition, type SurveyLanguage, type SurveyQuestion } from "~/models/tasks/survey-definition";
import { useTranslation } from "~/translations";
import { INTENT } from "./survey-builder-schema";

/**
 * The survey builder's parts: the template's texts, each section and each question as a plain form of its own (an
 * intent and the version it was made from), their Up/Down/Delete posts and the delete confirmation. Each form finds its
 * refused reply by intent and by the section or question it edits.
 */

export function Hidden({ versionId, intent, fields = {} }: { versionId: number; intent: string; fields?: Record<string, string> }) {
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

export function SmallPost({
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
export function PartControls({
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
  const { t } = useTranslation(["taskTemplates", "taskStates"]);
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
          intent={part === "Section" ? INTENT.moveSection : INTENT.moveQuestion}
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
export function DeleteStep({
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
  const { t, i18n } = useTranslation(["taskTemplates", "taskStates"]);
  const lng: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const section = definition.sections.find((s) => s.id === id);
  const name = kind === "section" ? localized(section?.title, lng) : localized(findQuestion(definition, id)?.text, lng);
  const here = `/admin/surveys/${templateId}`;
  return (
    <ConfirmStep
      title={t("builder.confirmTitle")}
      detail={name}
      text={t(kind === "section" ? "builder.confirmDeleteSection" : "builder.confirmDeleteQuestion", { count: section?.questions.length ?? 0 })}
      intent={kind === "section" ? INTENT.deleteSection : INTENT.deleteQuestion}
      fields={kind === "section" ? { versionId, sectionId: id } : { versionId, questionId: id }}
      confirmLabel={t("builder.delete")}
      cancelLabel={t("cancel")}
      cancelHref={`${here}#${kind === "section" ? "s" : "q"}-${id}`}
      redirectTo={here}
    />
  );
}

export function TemplateForm({ definition, versionId }: { definition: SurveyDefinition; versionId: number }) {
  const { t } = useTranslation(["taskTemplates", "taskStates"]);
  const kit = useFormReply(INTENT.saveTemplate);
  return (
    <section id="template" aria-labelledby="template-heading" className="mt-6 scroll-mt-20 rounded-box border border-base-300 bg-base-100 p-5">
      <h2 id="template-heading" className="text-lg font-semibold">
        {t("builder.templateHeading")}
      </h2>
      <Form method="post" preventScrollReset className="mt-3 grid gap-3 sm:grid-cols-2">
        <Hidden versionId={versionId} intent={INTENT.saveTemplate} />
        <TextInput kit={kit} formId="template" name="titleEn" label={t("fields.titleEn")} value={definition.title.en} />
        <TextInput kit={kit} formId="template" name="titleNo" label={t("fields.titleNo")} value={definition.title.no} />
        <TextInput kit={kit} formId="template" name="descriptionEn" label={t("fields.descriptionEn")} value={definition.description?.en} multiline />
        <TextInput kit={kit} formId="template" name="descriptionNo" label={t("fields.descriptionNo")} value={definition.description?.no} multiline />
        <div className="sm:col-span-2">
          <button type="submit" className="btn btn-sm btn-primary">
            {t("builder.saveTemplate")}
          </button>
          <FormErrors result={kit.result} />
        </div>
      </Form>
    </section>
  );
}

export function SectionCard({ definition, sectionIndex, versionId }: { definition: SurveyDefinition; sectionIndex: number; versionId: number }) {
  const { t, i18n } = useTranslation(["taskTemplates", "taskStates"]);
  const lng: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const section = definition.sections[sectionIndex];
  const name = localized(section.title, lng);
  const kit = useFormReply(INTENT.saveSection, { sectionId: section.id });
  const moveReply = useFormReply(INTENT.moveSection, { sectionId: section.id });
  const deleteReply = useFormReply(INTENT.deleteSection, { sectionId: section.id });
  const addReply = useFormReply(INTENT.addQuestion, { sectionId: section.id });
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
      <FormErrors result={moveReply.result ?? deleteReply.result} />
      <Form method="post" preventScrollReset className="mt-3 grid gap-3 sm:grid-cols-2">
        <Hidden versionId={versionId} intent={INTENT.saveSection} fields={{ sectionId: section.id }} />
        <TextInput kit={kit} formId={formId} name="titleEn" label={t("fields.sectionTitleEn")} value={section.title.en} />
        <TextInput kit={kit} formId={formId} name="titleNo" label={t("fields.sectionTitleNo")} value={section.title.no} />
        <TextInput kit={kit} formId={formId} name="descriptionEn" label={t("fields.descriptionEn")} value={section.description?.en} multiline />
        <TextInput kit={kit} formId={formId} name="descriptionNo" label={t("fields.descriptionNo")} value={section.description?.no} multiline />
        <div className="sm:col-span-2">
          <button type="submit" className="btn btn-sm">
            {t("builder.saveSection")}
          </button>
          <FormErrors result={kit.result} />
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
        <Hidden versionId={versionId} intent={INTENT.addQuestion} fields={{ sectionId: section.id }} />
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
        <FormErrors result={addReply.result} />
      </Form>
    </section>
  );
}

export function QuestionCard({
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
  const { t, i18n } = useTranslation(["taskTemplates", "taskStates"]);
  const lng: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const kit = useFormReply(INTENT.saveQuestion, { questionId: q.id });
  const moveReply = useFormReply(INTENT.moveQuestion, { questionId: q.id });
  const deleteReply = useFormReply(INTENT.deleteQuestion, { questionId: q.id });
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
      <FormErrors result={moveReply.result ?? deleteReply.result} />
      <Form method="post" preventScrollReset className="mt-2 grid gap-3 sm:grid-cols-2">
        <Hidden versionId={versionId} intent={INTENT.saveQuestion} fields={{ questionId: q.id }} />
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
          <FormErrors result={kit.result} />
        </div>
      </Form>
    </article>
  );
}
