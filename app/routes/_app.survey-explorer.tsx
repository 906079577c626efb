import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { TableScroll } from "~/components/ui/TableScroll";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { can } from "~/models/accounts/permissions";
import { pageTitle } from "~/models/shared/page-title.server";
import { localized, type SurveyDefinition, type SurveyLanguage, type SurveyQuestion } from "~/models/tasks/survey-definition";
import { explorerFigures, type QuestionFigures } from "~/models/tasks/survey-explorer";
import { explorerResponses, explorerSelection } from "~/models/tasks/survey-explorer.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;
export const handle = { i18n: ["surveyExplorer", "taskStates"] };

/**
 * /survey-explorer (supplierTasksRead): a GET form picks a survey template, a version and the filters (the
 * organisation's tag, the supplier's country); per question the organisation's submitted responses — counts and CSS
 * bars for yes/no and choices, min/median/max and a histogram for numbers, the text answers with the supplier — and
 * the CSV of the answers (survey-explorer.csv, same query). Server-rendered: works without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "supplierTasksRead");
  const params = new URL(request.url).searchParams;
  const selection = await explorerSelection(user.organizationId, params);
  const responses = selection.version ? await explorerResponses(user.organizationId, { versionId: selection.version.id, ...selection.filter }) : [];
  const figures = selection.version ? explorerFigures(selection.version.definition, responses) : [];
  return json({
    templates: selection.templates,
    tags: selection.tags,
    countries: selection.countries,
    templateId: selection.template?.id ?? null,
    version: selection.version ? { id: selection.version.id, version: selection.version.version, definition: selection.version.definition } : null,
    filter: selection.filter,
    unknown: selection.unknown,
    count: responses.length,
    figures: figures.map((f) => ({ questionId: f.question.id, figures: f.figures })),
    // The organisation's administrator reaches the templates from here (the navigation's admin group is the operator's).
    manageTemplates: can(user, "taskTemplatesManage"),
    title: await pageTitle(request, "surveyExplorer:title"),
  });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

function numberFormat(lng: SurveyLanguage) {
  return new Intl.NumberFormat(lng === "no" ? "nb-NO" : "en-GB", { maximumFractionDigits: 2 });
}

function countryName(code: string, lng: SurveyLanguage): string {
  try {
    return new Intl.DisplayNames([lng === "no" ? "nb" : "en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

export default function SurveyExplorerScreen() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("surveyExplorer");
  const lng: SurveyLanguage = i18n.language === "no" ? "no" : "en";
  const selected = data.templates.find((tpl) => tpl.id === data.templateId);
  const definition = data.version?.definition as SurveyDefinition | undefined;
  const query = new URLSearchParams();
  if (data.templateId) query.set("template", String(data.templateId));
  if (data.version) query.set("version", String(data.version.id));
  if (data.filter.tagId) query.set("tag", String(data.filter.tagId));
  if (data.filter.country) query.set("country", data.filter.country);
  return (
    <section aria-labelledby="explorer-title" className="mx-auto max-w-6xl">
      <h1 id="explorer-title" className="text-2xl font-semibold">
        {t("title")}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("intro")}</p>
      {data.manageTemplates ? (
        <p className="mt-2 text-sm">
          <Link to="/admin/surveys/surveys" className="link link-primary">
            {t("manageTemplates")}
          </Link>
        </p>
      ) : null}
      <Form method="get" className="mt-4 grid gap-3 rounded-box border border-base-300 bg-base-100 p-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
        <div className="lg:col-span-2">
          <label htmlFor="explorer-template" className="mb-1 block text-sm font-medium">
            {t("form.template")}
          </label>
          <select id="explorer-template" name="template" className="select select-sm w-full" defaultValue={data.templateId ?? ""}>
            <option value="">{t("form.chooseTemplate")}</option>
            {data.templates.map((tpl) => (
              <option key={tpl.id} value={tpl.id}>
                {localized({ en: tpl.title, no: tpl.titleNo ?? "" }, lng)}
                {tpl.systemWide ? ` (${t("form.systemWide")})` : ""}
                {tpl.archived ? ` (${t("form.archived")})` : ""}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="explorer-version" className="mb-1 block text-sm font-medium">
            {t("form.version")}
          </label>
          <select id="explorer-version" name="version" className="select select-sm w-full" defaultValue={data.version?.id ?? ""}>
            {selected ? null : <option value="">{t("form.latest")}</option>}
            {(selected?.versions ?? []).map((v) => (
              <option key={v.id} value={v.id}>
                {t("form.versionOption", { version: v.version, count: v.responses })}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="explorer-tag" className="mb-1 block text-sm font-medium">
            {t("form.tag")}
          </label>
          <select id="explorer-tag" name="tag" className="select select-sm w-full" defaultValue={data.filter.tagId ?? ""}>
            <option value="">{t("form.allTags")}</option>
            {data.tags.map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.title}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="explorer-country" className="mb-1 block text-sm font-medium">
            {t("form.country")}
          </label>
          <select id="explorer-country" name="country" className="select select-sm w-full" defaultValue={data.filter.country ?? ""}>
            <option value="">{t("form.allCountries")}</option>
            {data.countries.map((c) => (
              <option key={c} value={c}>
                {countryName(c, lng)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-5">
          <button type="submit" className="btn btn-primary btn-sm">
            {t("form.show")}
          </button>
          {data.version && data.count > 0 ? (
            <a href={`/survey-explorer.csv?${query}`} download className="btn btn-outline btn-sm">
              {t("exportCsv")}
            </a>
          ) : null}
        </div>
      </Form>
      {data.unknown ? (
        <p role="alert" className="alert alert-warning mt-4 text-sm">
          {t("unknownTemplate")}
        </p>
      ) : null}
      {!data.version || !definition ? (
        <p className="mt-6 rounded-box border border-dashed border-base-300 p-6">{data.templates.length ? t("choose") : t("noTemplates")}</p>
      ) : (
        <>
          <h2 className="mt-6 text-xl font-semibold">
            {localized(definition.title, lng)} · {t("versionLine", { version: data.version.version })}
          </h2>
          <p className="mt-1 text-sm" role="status">
            {t("responsesCount", { count: data.count })}
          </p>
          {data.count === 0 ? (
            <p className="mt-4 rounded-box border border-dashed border-base-300 p-6">{t("noResponses")}</p>
          ) : (
            <ol className="mt-4 flex flex-col gap-4">
              {data.figures.map(({ questionId, figures }, index) => {
                const question = definition.sections.flatMap((s) => s.questions).find((q) => q.id === questionId)!;
                return (
                  <li key={questionId}>
                    <QuestionResult index={index + 1} question={question} figures={figures as QuestionFigures} lng={lng} />
                  </li>
                );
              })}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

function Bar({ share }: { share: number }) {
  return (
    <div className="h-3 w-full min-w-16 rounded bg-base-200" aria-hidden="true">
      <div className="h-3 rounded bg-primary" style={{ width: `${Math.round(share * 100)}%` }} />
    </div>
  );
}

/** A table of counts with their share of `total` and a CSS bar each (the bars are decoration: the numbers are in the table). */
function BarTable({
  caption,
  firstColumn,
  total,
  rows,
}: {
  caption?: string;
  firstColumn: string;
  total: number;
  rows: { key: string; label: string; count: number }[];
}) {
  const { t } = useTranslation("surveyExplorer");
  return (
    <TableScroll>
      <table className="table table-sm mt-2">
        {caption ? <caption className="text-left text-xs text-base-content/70">{caption}</caption> : null}
        <thead>
          <tr>
            <th scope="col">{firstColumn}</th>
            <th scope="col" className="text-right">
              {t("columns.count")}
            </th>
            <th scope="col" className="text-right">
              {t("columns.share")}
            </th>
            <th scope="col" className="w-1/2">
              <span className="sr-only">{t("columns.bar")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const share = total ? row.count / total : 0;
            return (
              <tr key={row.key}>
                <th scope="row" className="font-normal tabular-nums">
                  {row.label}
                </th>
                <td className="text-right tabular-nums">{row.count}</td>
                <td className="text-right tabular-nums">{`${Math.round(share * 100)} %`}</td>
                <td>
                  <Bar share={share} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}

function QuestionResult({ index, question, figures, lng }: { index: number; question: SurveyQuestion; figures: QuestionFigures; lng: SurveyLanguage }) {
  const { t } = useTranslation("surveyExplorer");
  const nf = numberFormat(lng);
  const headingId = `result-${question.id}`;
  return (
    <section aria-labelledby={headingId} className="rounded-box border border-base-300 bg-base-100 p-4">
      <h3 id={headingId} className="font-medium">
        {index}. {localized(question.text, lng)} <span className="badge badge-sm badge-ghost">{t(`taskStates:questionType.${question.type}`)}</span>
      </h3>
      <p className="mt-1 text-xs text-base-content/70">{t("answeredOf", { answered: figures.answered, shown: figures.shown })}</p>
      {figures.kind === "counts" ? (
        <BarTable
          firstColumn={t("columns.answer")}
          total={figures.answered}
          rows={figures.counts.map((c) => ({
            key: c.value,
            label:
              question.type === "yes_no"
                ? t(`taskStates:${c.value === "yes" ? "yes" : "no"}`)
                : localized(question.options?.find((o) => o.value === c.value)?.label, lng) || c.value,
            count: c.count,
          }))}
        />
      ) : null}
      {figures.kind === "numbers" ? (
        figures.answered === 0 ? (
          <p className="mt-2 text-sm">{t("noAnswers")}</p>
        ) : (
          <>
            <dl className="mt-2 grid grid-cols-3 gap-2 text-sm sm:max-w-md">
              {(["min", "median", "max"] as const).map((k) => (
                <div key={k} className="rounded bg-base-200 p-2">
                  <dt className="text-xs text-base-content/70">{t(`numbers.${k}`)}</dt>
                  <dd className="font-semibold tabular-nums">
                    {nf.format(figures[k])}
                    {question.unit ? ` ${localized(question.unit, lng)}` : ""}
                  </dd>
                </div>
              ))}
            </dl>
            <BarTable
              caption={t("numbers.histogram")}
              firstColumn={t("numbers.range")}
              total={figures.answered}
              rows={figures.bins.map((b, i) => ({
                key: String(i),
                label: b.from === b.to ? nf.format(b.from) : `${nf.format(b.from)} – ${nf.format(b.to)}`,
                count: b.count,
              }))}
            />
          </>
        )
      ) : null}
      {figures.kind === "texts" ? (
        figures.texts.length === 0 ? (
          <p className="mt-2 text-sm">{t("noAnswers")}</p>
        ) : (
          <ul className="mt-2 flex max-h-96 flex-col gap-2 overflow-y-auto text-sm">
            {figures.texts.map((x) => (
              <li key={x.responseId} className="rounded bg-base-200 p-2">
                <p className="whitespace-pre-line break-words">{x.text}</p>
                <p className="mt-1 text-xs">
                  {x.supplierOrgNumber ? (
                    <Link to={`/supplier?externalId=${encodeURIComponent(x.supplierOrgNumber)}`} className="link">
                      {x.supplierName}
                    </Link>
                  ) : (
                    x.supplierName
                  )}
                </p>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {figures.kind === "files" ? <p className="mt-2 text-sm">{t("filesAttached", { count: figures.answered })}</p> : null}
    </section>
  );
}
