import { formatDate } from "~/models/shared/format";
import type { EvidenceFile, ItemHeader } from "~/models/tasks/respondent.server";
import {
  allQuestions,
  answerLabel,
  isVisible,
  localized,
  missingRequired,
  type AnswerProblem,
  type Answers,
  type SurveyDefinition,
  type SurveyLanguage,
  type SurveyQuestion,
} from "~/models/tasks/survey-definition";
import { useTranslation } from "~/translations";
import { fileSize, ItemHeading, RESPONDENT_NAMESPACES, RespondentFrame } from "./RespondentFrame";
import { FieldProblem, fileHref, NameFields } from "./TaskAnswerPage";

export interface SurveyPageData {
  page: "survey";
  mode: "user" | "link";
  base: string;
  header: ItemHeader;
  definition: SurveyDefinition;
  answers: Answers;
  files: EvidenceFile[];
  fileCounts: Record<string, number>;
  score: number | null;
  section: number | "summary";
  limit: string;
  linkEmail: string | null;
  signedInAs: string | null;
  organization: string | null;
  values: Answers | null;
  problems: Record<string, AnswerProblem> | null;
  summaryProblems: Array<{ questionId: string; section: number; text: { en: string; no: string }; problem: AnswerProblem }> | null;
  nameValues: Record<string, string> | null;
  errors: Record<string, string[] | null> | null;
  formError: string | null;
}

function sectionHref(base: string, section: number | "summary"): string {
  return `${base}${base.includes("?") ? "&" : "?"}section=${section}`;
}

const FORM_ID = "answers";

/** A survey: one section per page, each page's submit saves the draft; a summary before submitting; read-only once sent. */
export function SurveyAnswerPage({ data }: { data: SurveyPageData }) {
  const { t, i18n } = useTranslation(RESPONDENT_NAMESPACES);
  const language: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const { definition, header, base } = data;
  const count = definition.sections.length;
  return (
    <RespondentFrame organization={data.organization}>
      <ItemHeading header={header} formError={data.formError} />
      {!header.editable ? (
        <ReadOnlySurvey data={data} language={language} />
      ) : (
        <>
          <nav aria-label={t("respond:survey.sections")} className="mb-4">
            <ol className="flex flex-wrap gap-1 text-sm">
              {definition.sections.map((s, i) => (
                <li key={s.id}>
                  <a
                    href={sectionHref(base, i + 1)}
                    aria-current={data.section === i + 1 ? "page" : undefined}
                    className={`btn btn-xs ${data.section === i + 1 ? "btn-primary" : "btn-ghost"}`}
                  >
                    {i + 1}
                    <span className="sr-only">. {localized(s.title, language)}</span>
                  </a>
                </li>
              ))}
              <li>
                <a
                  href={sectionHref(base, "summary")}
                  aria-current={data.section === "summary" ? "page" : undefined}
                  className={`btn btn-xs ${data.section === "summary" ? "btn-primary" : "btn-ghost"}`}
                >
                  {t("respond:survey.summary")}
                </a>
              </li>
            </ol>
          </nav>
          {data.section === "summary" ? (
            <Summary data={data} language={language} />
          ) : (
            <SectionPage data={data} n={data.section} count={count} language={language} />
          )}
        </>
      )}
    </RespondentFrame>
  );
}

function problemText(t: (k: string, o?: Record<string, unknown>) => string, problem: AnswerProblem): string {
  return t(`taskStates:problem.${problem.kind}`, problem as unknown as Record<string, unknown>);
}

function SectionPage({ data, n, count, language }: { data: SurveyPageData; n: number; count: number; language: SurveyLanguage }) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  const section = data.definition.sections[n - 1]!;
  const answers = data.values ?? data.answers;
  const controlling = new Set(allQuestions(data.definition).flatMap((q) => (q.showIf ? [q.showIf.question] : [])));
  const visible = section.questions.filter((q) => isVisible(data.definition, q, answers));
  return (
    <section aria-labelledby="section-title" className="rounded-box border border-base-300 bg-base-100 p-4">
      <p className="text-sm text-base-content/70">{t("respond:survey.sectionOf", { n, count })}</p>
      <h2 id="section-title" className="text-lg font-semibold">
        {localized(section.title, language)}
      </h2>
      {section.description ? <p className="mt-1 text-sm whitespace-pre-line">{localized(section.description, language)}</p> : null}
      <div className="mt-4 space-y-6">
        {visible.map((q) => (
          <Question key={q.id} data={data} question={q} n={n} answers={answers} controls={controlling.has(q.id)} language={language} />
        ))}
      </div>
      <form id={FORM_ID} method="post" action={data.base} className="mt-6 flex flex-wrap gap-2 border-t border-base-300 pt-4">
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="section" value={n} />
        {n < count ? (
          <button type="submit" name="go" value={n + 1} className="btn btn-primary">
            {t("respond:actions.next")}
          </button>
        ) : (
          <button type="submit" name="go" value="summary" className="btn btn-primary">
            {t("respond:actions.review")}
          </button>
        )}
        <button type="submit" name="go" value="stay" className="btn">
          {t("respond:actions.saveDraft")}
        </button>
        {n > 1 ? (
          <button type="submit" name="go" value={n - 1} className="btn btn-ghost">
            {t("respond:actions.previous")}
          </button>
        ) : null}
      </form>
      <p className="mt-2 text-xs text-base-content/70">{t("respond:survey.savesHint")}</p>
    </section>
  );
}

function Question({
  data,
  question: q,
  n,
  answers,
  controls,
  language,
}: {
  data: SurveyPageData;
  question: SurveyQuestion;
  n: number;
  answers: Answers;
  controls: boolean;
  language: SurveyLanguage;
}) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  const id = `q-${q.id}`;
  const problem = data.problems?.[q.id];
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const described = [q.help ? helpId : null, controls ? `${id}-controls` : null, problem ? errorId : null].filter(Boolean).join(" ") || undefined;
  const value = answers[q.id];
  const single = Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
  const list = Array.isArray(value) ? value : value ? [value] : [];
  const label = (
    <>
      {localized(q.text, language)}
      {q.required ? <span className="text-error"> *</span> : null}
      {q.required ? <span className="sr-only"> ({t("respond:survey.required")})</span> : null}
    </>
  );
  const extras = (
    <>
      {q.help ? (
        <p id={helpId} className="mt-1 text-xs text-base-content/70">
          {localized(q.help, language)}
        </p>
      ) : null}
      {controls ? (
        <p id={`${id}-controls`} className="mt-1 text-xs text-base-content/70">
          {t("respond:survey.controlsHint")}
        </p>
      ) : null}
      {problem ? (
        <p id={errorId} className="mt-1 text-sm text-error">
          {problemText(t, problem)}
        </p>
      ) : null}
    </>
  );
  const name = `a.${q.id}`;
  const invalid = problem ? true : undefined;

  if (q.type === "yes_no" || q.type === "single_choice" || q.type === "multiple_choice") {
    const options =
      q.type === "yes_no"
        ? [
            { value: "yes", label: t("taskStates:yes") },
            { value: "no", label: t("taskStates:no") },
          ]
        : (q.options ?? []).map((o) => ({ value: o.value, label: localized(o.label, language) }));
    return (
      <fieldset aria-describedby={described}>
        <legend className="text-sm font-medium">{label}</legend>
        <div className="mt-2 space-y-2">
          {options.map((o) => (
            <label key={o.value} className="flex items-start gap-2 text-sm">
              <input
                type={q.type === "multiple_choice" ? "checkbox" : "radio"}
                form={FORM_ID}
                name={name}
                value={o.value}
                defaultChecked={list.includes(o.value)}
                aria-invalid={invalid}
                className={q.type === "multiple_choice" ? "checkbox checkbox-sm mt-0.5" : "radio radio-sm mt-0.5"}
              />
              <span>{o.label}</span>
            </label>
          ))}
        </div>
        {extras}
      </fieldset>
    );
  }

  if (q.type === "file") return <FileQuestion data={data} question={q} n={n} label={label} extras={extras} language={language} />;

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
        {q.type === "number" && q.unit ? <span className="font-normal text-base-content/70"> ({localized(q.unit, language)})</span> : null}
      </label>
      {q.type === "long_text" ? (
        <textarea
          id={id}
          form={FORM_ID}
          name={name}
          rows={4}
          defaultValue={single}
          aria-invalid={invalid}
          aria-describedby={described}
          className="textarea mt-1 w-full"
        />
      ) : (
        <input
          id={id}
          form={FORM_ID}
          name={name}
          type={q.type === "date" ? "date" : "text"}
          inputMode={q.type === "number" ? "decimal" : undefined}
          defaultValue={single}
          aria-invalid={invalid}
          aria-describedby={described}
          className="input mt-1 w-full"
        />
      )}
      {extras}
    </div>
  );
}

function FileQuestion({
  data,
  question: q,
  n,
  label,
  extras,
  language,
}: {
  data: SurveyPageData;
  question: SurveyQuestion;
  n: number;
  label: React.ReactNode;
  extras: React.ReactNode;
  language: SurveyLanguage;
}) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  const files = data.files.filter((f) => f.questionId === q.id);
  const id = `q-${q.id}`;
  const uploadErrors = data.errors?.[`file.${q.id}`];
  return (
    <div className="rounded-box border border-base-300 p-3">
      <p className="text-sm font-medium" id={`${id}-label`}>
        {label}
      </p>
      {extras}
      {files.length > 0 ? (
        <ul className="mt-2 space-y-1 text-sm">
          {files.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center gap-2">
              <a className="link break-all" href={fileHref(data.base, f.id)} rel="noreferrer">
                {f.fileName}
              </a>
              <span className="text-base-content/70">
                ({fileSize(f.fileSize)}
                {f.expiresOn ? `, ${t("respond:files.expires", { date: formatDate(f.expiresOn, language) })}` : ""})
              </span>
              <form method="post" action={data.base}>
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="section" value={n} />
                <input type="hidden" name="fileId" value={f.id} />
                <button type="submit" className="btn btn-ghost btn-xs" aria-label={t("respond:files.removeNamed", { name: f.fileName })}>
                  {t("respond:files.remove")}
                </button>
              </form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-base-content/70">{t("respond:task.noFiles")}</p>
      )}
      <form method="post" action={data.base} encType="multipart/form-data" className="mt-3 space-y-2" aria-labelledby={`${id}-label`}>
        <input type="hidden" name="intent" value="upload" />
        <input type="hidden" name="section" value={n} />
        <input type="hidden" name="question" value={q.id} />
        {q.askExpiry ? (
          <div>
            <label htmlFor={`${id}-expiry`} className="block text-sm">
              {t("respond:files.expiry")}
            </label>
            <input
              id={`${id}-expiry`}
              type="date"
              name="expiresOn"
              defaultValue={uploadErrors ? (data.nameValues?.expiresOn ?? "") : ""}
              className="input input-sm mt-1 w-full"
            />
          </div>
        ) : null}
        <div>
          <label htmlFor={`${id}-file`} className="block text-sm">
            {t("respond:files.add")}
          </label>
          <input
            id={`${id}-file`}
            type="file"
            name="file"
            aria-describedby={`${id}-file-hint${uploadErrors ? ` ${id}-file-error` : ""}`}
            aria-invalid={uploadErrors ? true : undefined}
            className="file-input file-input-sm mt-1 w-full"
          />
          <p id={`${id}-file-hint`} className="mt-1 text-xs text-base-content/70">
            {t("respond:files.hint", { limit: data.limit })} {t("respond:files.uploadSavesOnlyFile")}
          </p>
          <FieldProblem id={`${id}-file-error`} errors={uploadErrors} />
        </div>
        <button type="submit" className="btn btn-sm">
          {t("respond:files.upload")}
        </button>
      </form>
    </div>
  );
}

function Summary({ data, language }: { data: SurveyPageData; language: SurveyLanguage }) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  const { definition } = data;
  const missing = missingRequired(definition, data.answers, data.fileCounts);
  const sectionOf = (id: string) => definition.sections.findIndex((s) => s.questions.some((q) => q.id === id)) + 1;
  const problems = data.summaryProblems;
  const errors = data.errors ?? {};
  return (
    <section aria-labelledby="summary-title" className="rounded-box border border-base-300 bg-base-100 p-4">
      <h2 id="summary-title" className="text-lg font-semibold">
        {t("respond:survey.summaryTitle")}
      </h2>
      {problems && problems.length > 0 ? (
        <div className="mt-3">
          <h3 className="text-sm font-medium text-error">{t("respond:survey.problemsTitle")}</h3>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
            {problems.map((p) => (
              <li key={p.questionId}>
                <a className="link" href={sectionHref(data.base, p.section)}>
                  {t("respond:survey.inSection", { n: p.section })}: {localized(p.text, language)}
                </a>{" "}
                — {problemText(t, p.problem)}
              </li>
            ))}
          </ul>
        </div>
      ) : missing.length > 0 ? (
        <div className="mt-3">
          <h3 className="text-sm font-medium">{t("respond:survey.missingTitle", { count: missing.length })}</h3>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
            {missing.map((q) => (
              <li key={q.id}>
                <a className="link" href={sectionHref(data.base, sectionOf(q.id))}>
                  {t("respond:survey.inSection", { n: sectionOf(q.id) })}: {localized(q.text, language)}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="mt-3 text-sm">{t("respond:survey.complete")}</p>
      )}
      <form method="post" action={data.base} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="submit" />
        {data.mode === "link" ? <NameFields values={data.nameValues} errors={errors} linkEmail={data.linkEmail} /> : null}
        <button type="submit" className="btn btn-primary">
          {t("respond:actions.submit")}
        </button>
      </form>
    </section>
  );
}

function ReadOnlySurvey({ data, language }: { data: SurveyPageData; language: SurveyLanguage }) {
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  const words = { yes: t("taskStates:yes"), no: t("taskStates:no") };
  return (
    <div className="space-y-4">
      {data.definition.sections.map((s) => (
        <section key={s.id} className="rounded-box border border-base-300 bg-base-100 p-4" aria-label={localized(s.title, language)}>
          <h2 className="text-lg font-semibold">{localized(s.title, language)}</h2>
          <dl className="mt-2 space-y-3 text-sm">
            {s.questions
              .filter((q) => isVisible(data.definition, q, data.answers))
              .map((q) => (
                <div key={q.id}>
                  <dt className="font-semibold">{localized(q.text, language)}</dt>
                  <dd className="mt-0.5 whitespace-pre-line break-words">
                    {q.type === "file"
                      ? data.files
                          .filter((f) => f.questionId === q.id)
                          .map((f) => f.fileName)
                          .join(", ") || t("respond:survey.noAnswer")
                      : answerLabel(q, data.answers[q.id], language, words) || t("respond:survey.noAnswer")}
                  </dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
    </div>
  );
}
