import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { StatusBadge } from "~/components/supplier-tasks/StatusBadge";
import { uiLanguage } from "~/i18n";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { useHydrated } from "~/components/ui/useHydrated";
import { requireUser } from "~/http/auth.server";
import { parseId } from "~/http/parse.server";
import { can } from "~/models/accounts/permissions";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { formatDate, formatDateTime, formatThousands } from "~/models/shared/format";
import { answerLabel, isVisible, localized, type SurveyQuestion } from "~/models/tasks/survey-definition";
import { surveyForReading } from "~/models/tasks/survey-read.server";

export const meta = titleMeta;
export const handle = { i18n: ["supplierTasks", "taskStates", "supplierWork"] };

/**
 * /tasks/surveys/{surveyResponseId}/read (shared/spec/02-supplier-credit-connections.md "Survey responses"; decision 034): the read view of an
 * answered survey response, for the customer that sent it (level 2) and for the supplier organisation that answered it
 * (any member) — each only its own. Every question the respondent saw, with its answer in the reader's language read
 * against the response's own template version, evidence with expiry dates, the score, who answered and when.
 * Printable: the print style hides the shell and starts each section on a new page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "respondentWork");
  const responseId = parseId(params.surveyResponseId);
  if (responseId === null) throw errorResponse(404, "No such survey response.");
  const reading = await surveyForReading({ organizationId: user.organizationId, responseId, mayReadSent: can(user, "supplierTasksRead") });
  if (reading === undefined) throw errorResponse(404, "No such survey response for your organization.");
  if (reading === "forbidden") throw errorResponse(403, "Reading the surveys your organization sent needs access level 2.");
  if (reading === "unanswered") throw errorResponse(404, "This survey response has not been submitted yet.");
  const t = await i18nServer.getFixedT(request);
  const name = user.language === "no" ? reading.titleNo || reading.title : reading.title;
  return json({ reading, title: `${name} · ${t("appName")}` });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

/** On paper: no shell (top bar, navigation, launcher), no buttons, each section on its own page. */
const PRINT_CSS = `@media print {
  body:has(#survey-read) header, body:has(#survey-read) nav, body:has(#survey-read) aside, body:has(#survey-read) .print-hide { display: none !important; }
  body:has(#survey-read) main { padding: 0 !important; }
  #survey-read section + section { break-before: page; }
  #survey-read li { break-inside: avoid; }
}`;

export default function SurveyReadScreen() {
  const { reading } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("supplierTasks");
  const lng = uiLanguage(i18n.language);
  const definition = reading.definition;
  const title = definition ? localized(definition.title, lng) : lng === "no" ? reading.titleNo || reading.title : reading.title;
  const words = { yes: t("taskStates:yes"), no: t("taskStates:no") };
  const answeredBy = [reading.answeredByName, reading.answeredByEmail && reading.answeredByEmail !== reading.answeredByName ? reading.answeredByEmail : null]
    .filter(Boolean)
    .join(" · ");
  return (
    <article id="survey-read" aria-labelledby="survey-read-title" className="mx-auto flex max-w-3xl flex-col gap-4">
      <style>{PRINT_CSS}</style>
      <div className="print-hide flex flex-wrap items-center justify-between gap-3">
        {reading.side === "customer" ? (
          <Link to={`/supplier_tasks/${reading.supplierTaskId}`} className="link text-sm">
            {t("read.back")}
          </Link>
        ) : (
          <span />
        )}
        <PrintButton label={t("read.print")} />
      </div>
      <header>
        <p className="text-sm text-base-content/70">{t("read.title")}</p>
        <h1 id="survey-read-title" className="break-words text-2xl font-semibold">
          {title}
        </h1>
        {reading.version !== null ? <p className="text-xs text-base-content/70">{t("read.version", { version: reading.version })}</p> : null}
      </header>
      <dl className="grid grid-cols-1 gap-3 rounded-box border border-base-300 bg-base-100 p-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs text-base-content/70">{t("read.supplier")}</dt>
          <dd className="font-medium break-words">{reading.supplierName}</dd>
        </div>
        <div>
          <dt className="text-xs text-base-content/70">{t("read.customer")}</dt>
          <dd className="font-medium break-words">{reading.customerName}</dd>
        </div>
        <div>
          <dt className="text-xs text-base-content/70">{t("read.answeredBy")}</dt>
          <dd className="font-medium break-words">{answeredBy || t("read.unknown")}</dd>
        </div>
        <div>
          <dt className="text-xs text-base-content/70">{t("read.submittedAt")}</dt>
          <dd className="font-medium tabular-nums">{formatDateTime(reading.submittedAt, lng)}</dd>
        </div>
        <div>
          <dt className="text-xs text-base-content/70">{t("read.status")}</dt>
          <dd>
            <StatusBadge status={reading.status} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-base-content/70">{t("taskStates:score")}</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="survey-score">
            {reading.score === null ? t("taskStates:notScored") : `${reading.score} / 100`}
          </dd>
        </div>
      </dl>

      {definition
        ? definition.sections.map((section) => {
            const shown = section.questions.filter((q) => isVisible(definition, q, reading.answers));
            if (shown.length === 0) return null;
            return (
              <section key={section.id} aria-labelledby={`section-${section.id}`} className="rounded-box border border-base-300 bg-base-100 p-4">
                <h2 id={`section-${section.id}`} className="text-lg font-semibold break-words">
                  {localized(section.title, lng)}
                </h2>
                <ol className="mt-3 flex flex-col gap-4">
                  {shown.map((question) => (
                    <Answer key={question.id} question={question} words={words} />
                  ))}
                </ol>
              </section>
            );
          })
        : null}
    </article>
  );
}

function Answer({ question, words }: { question: SurveyQuestion; words: { yes: string; no: string } }) {
  const { reading } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("supplierTasks");
  const lng = uiLanguage(i18n.language);
  const files = reading.evidence[question.id] ?? [];
  const answer = question.type === "file" ? "" : answerLabel(question, reading.answers[question.id], lng, words);
  return (
    <li className="text-sm">
      <p className="font-medium break-words">{localized(question.text, lng)}</p>
      {question.type === "file" ? (
        files.length === 0 ? (
          <p className="mt-1 text-base-content/70 italic">{t("read.noFiles")}</p>
        ) : (
          <ul className="mt-1 flex flex-col gap-1" aria-label={t("read.evidence")}>
            {files.map((file) => (
              <li key={file.fileId} className="flex flex-wrap items-baseline gap-x-3">
                <a
                  href={`/api/file-uploads/${file.fileId}/download`}
                  download
                  className="link link-primary break-all"
                  aria-label={t("read.download", { name: file.fileName })}
                >
                  {file.fileName}
                </a>
                <span className="text-xs text-base-content/70 tabular-nums">
                  {t("supplierWork:taskResponse.fileSize", { count: file.fileSize, size: formatThousands(file.fileSize, lng) })}
                </span>
                <span className="text-xs text-base-content/70">
                  {file.expiresOn ? t("read.expires", { date: formatDate(file.expiresOn, lng) }) : t("read.noExpiry")}
                </span>
              </li>
            ))}
          </ul>
        )
      ) : answer ? (
        <p className="mt-1 whitespace-pre-wrap break-words">{answer}</p>
      ) : (
        <p className="mt-1 text-base-content/70 italic">{t("read.noAnswer")}</p>
      )}
    </li>
  );
}

/** Printing needs the browser's script; without JavaScript the browser's own Print does the same, so no dead button is shown. */
function PrintButton({ label }: { label: string }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button type="button" className="btn btn-sm btn-outline" onClick={() => window.print()}>
      {label}
    </button>
  );
}
