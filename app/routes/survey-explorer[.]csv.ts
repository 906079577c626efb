import type { LoaderFunctionArgs } from "@remix-run/node";
import Papa from "papaparse";
import { requireUser } from "~/http/auth.server";
import { fileDownloadResponse } from "~/http/download.server";
import { errorResponse } from "~/http/responses.server";
import i18nServer from "~/i18n.server";
import { allQuestions, answerLabel, isVisible } from "~/models/tasks/survey-definition";
import { explorerResponses, explorerSelection } from "~/models/tasks/survey-explorer.server";
import { osloDate } from "~/models/shared/oslo-time";

/**
 * GET /survey-explorer.csv?template=&version=&tag=&country= — the organisation's submitted responses to the version (the
 * explorer's selection), one row per response, one column per question with the answer as a reader sees it
 * (answerLabel, in the user's language; a hidden question is empty; a file question: the file names and the expiry
 * date). UTF-8 with a byte order mark; cells that start like a formula are escaped (answers come from outside).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "supplierTasksRead");
  const selection = await explorerSelection(user.organizationId, new URL(request.url).searchParams);
  if (!selection.version) throw errorResponse(404, "Choose a survey template of your organization (template=…).");
  const definition = selection.version.definition;
  const rows = await explorerResponses(user.organizationId, { versionId: selection.version.id, ...selection.filter });
  const t = await i18nServer.getFixedT(request);
  const lng = user.language === "no" ? "no" : "en";
  const words = { yes: t("taskStates:yes"), no: t("taskStates:no") };
  const questions = allQuestions(definition);
  const csv = Papa.unparse(
    {
      fields: [
        t("surveyExplorer:csv.supplier"),
        t("surveyExplorer:csv.orgNumber"),
        t("surveyExplorer:csv.country"),
        t("surveyExplorer:csv.submitted"),
        t("surveyExplorer:csv.score"),
        ...questions.map((q) => (lng === "no" ? q.text.no || q.text.en : q.text.en)),
      ],
      data: rows.map((r) => [
        r.supplierName,
        r.supplierOrgNumber ?? "",
        r.countryCode,
        r.submittedAt ? osloDate(r.submittedAt) : "",
        r.score ?? "",
        ...questions.map((q) => {
          if (!isVisible(definition, q, r.answers)) return "";
          if (q.type === "file") return [...(r.fileNames[q.id] ?? []), answerLabel(q, r.answers[q.id], lng, words)].filter(Boolean).join("; ");
          return answerLabel(q, r.answers[q.id], lng, words);
        }),
      ]),
    },
    { header: true, newline: "\r\n", escapeFormulae: true },
  );
  const response = fileDownloadResponse(`\uFEFF${csv}\r\n`, {
    fileName: `survey-${selection.version.id}-v${selection.version.version}-${osloDate(new Date())}.csv`,
    contentType: "text/csv",
  });
  response.headers.set("Content-Type", "text/csv; charset=utf-8");
  return response;
}
