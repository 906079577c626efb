import { findQuestion, localized, type SurveyDefinition, type SurveyLanguage, type SurveyQuestion } from "~/models/tasks/survey-definition";

/** The interface's words in the preview's language (the page's loader reads them from the language files of both languages). */
export interface PreviewWords {
  yes: string;
  no: string;
  required: string;
  /** "Shown when “{{question}}” is answered “{{answer}}”." */
  shownWhen: string;
  expiryAsked: string;
  /** "From {{min}} to {{max}}" */
  bounds: string;
}

function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ""));
}

/**
 * The respondent's view of a survey definition, read-only (the builder's preview): sections, questions with their help,
 * the controls of each type (disabled), the unit and bounds of a number, and the condition that shows a question.
 * Everything in `language`: the survey's texts and the interface's words.
 */
export function SurveyPreview({
  definition,
  language,
  words,
  idPrefix = "preview",
}: {
  definition: SurveyDefinition;
  language: SurveyLanguage;
  words: PreviewWords;
  idPrefix?: string;
}) {
  return (
    <div lang={language === "no" ? "nb" : "en"} className="flex flex-col gap-6">
      <div>
        <h3 className="text-xl font-semibold">{localized(definition.title, language)}</h3>
        {definition.description ? <p className="mt-1 whitespace-pre-line text-sm text-base-content/80">{localized(definition.description, language)}</p> : null}
      </div>
      {definition.sections.map((section, si) => (
        <fieldset key={section.id} className="rounded-box border border-base-300 p-4">
          <legend className="px-1 font-semibold">
            {si + 1}. {localized(section.title, language)}
          </legend>
          {section.description ? <p className="mb-3 whitespace-pre-line text-sm text-base-content/80">{localized(section.description, language)}</p> : null}
          <ol className="flex flex-col gap-4">
            {section.questions.map((q) => (
              <li key={q.id}>
                <PreviewQuestion definition={definition} question={q} language={language} id={`${idPrefix}-${language}-${q.id}`} words={words} />
              </li>
            ))}
          </ol>
        </fieldset>
      ))}
    </div>
  );
}

function conditionText(definition: SurveyDefinition, question: SurveyQuestion, language: SurveyLanguage, words: PreviewWords) {
  if (!question.showIf) return null;
  const on = findQuestion(definition, question.showIf.question);
  if (!on) return null;
  const value =
    on.type === "yes_no"
      ? words[question.showIf.equals === "yes" ? "yes" : "no"]
      : localized(on.options?.find((o) => o.value === question.showIf!.equals)?.label, language) || question.showIf.equals;
  return fill(words.shownWhen, { question: localized(on.text, language), answer: value });
}

function PreviewQuestion({
  definition,
  question: q,
  language,
  id,
  words,
}: {
  definition: SurveyDefinition;
  question: SurveyQuestion;
  language: SurveyLanguage;
  id: string;
  words: PreviewWords;
}) {
  const label = (
    <span className="font-medium">
      {localized(q.text, language)}
      {q.required ? (
        <span className="ml-1 text-error">
          *<span className="sr-only">{words.required}</span>
        </span>
      ) : null}
    </span>
  );
  const help = q.help && (q.help.en || q.help.no) ? <span className="block text-sm text-base-content/70">{localized(q.help, language)}</span> : null;
  const condition = conditionText(definition, q, language, words);
  const note = condition ? <span className="mt-1 block text-xs italic text-base-content/70">{condition}</span> : null;
  if (q.type === "yes_no" || q.type === "single_choice" || q.type === "multiple_choice") {
    const options =
      q.type === "yes_no"
        ? [
            { value: "yes", label: words.yes },
            { value: "no", label: words.no },
          ]
        : (q.options ?? []).map((o) => ({ value: o.value, label: localized(o.label, language) }));
    return (
      <fieldset>
        <legend>
          {label}
          {help}
          {note}
        </legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {options.map((o) => (
            <label key={o.value} className="inline-flex items-center gap-2 text-sm">
              <input
                type={q.type === "multiple_choice" ? "checkbox" : "radio"}
                name={id}
                disabled
                className={q.type === "multiple_choice" ? "checkbox checkbox-sm" : "radio radio-sm"}
              />
              {o.label}
            </label>
          ))}
        </div>
      </fieldset>
    );
  }
  return (
    <div>
      <label htmlFor={id} className="block">
        {label}
        {help}
        {note}
      </label>
      {q.type === "long_text" ? (
        <textarea id={id} disabled rows={3} className="textarea mt-1 w-full" />
      ) : q.type === "file" ? (
        <span className="mt-1 flex flex-wrap items-center gap-3">
          <input id={id} type="file" disabled className="file-input file-input-sm" />
          {q.askExpiry ? <span className="text-sm text-base-content/70">{words.expiryAsked}</span> : null}
        </span>
      ) : (
        <span className="mt-1 flex items-center gap-2">
          <input
            id={id}
            type={q.type === "date" ? "date" : "text"}
            inputMode={q.type === "number" ? "decimal" : undefined}
            disabled
            className="input input-sm w-full max-w-md"
          />
          {q.type === "number" && q.unit ? <span className="text-sm">{localized(q.unit, language)}</span> : null}
        </span>
      )}
      {q.type === "number" && (q.min !== undefined || q.max !== undefined) ? (
        <span className="mt-1 block text-xs text-base-content/70">{fill(words.bounds, { min: q.min ?? "–", max: q.max ?? "–" })}</span>
      ) : null}
    </div>
  );
}
