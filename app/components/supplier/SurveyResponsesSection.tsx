import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { formatDate } from "~/models/shared/format";
import type { SupplierScreenData } from "~/models/suppliers/supplier-screen.server";
import { Empty, Section } from "./Section";

/**
 * Submitted survey responses from this supplier to the viewer's organisation (shared/spec/02-supplier-credit-connections.md "Survey responses"), each linking
 * to its read view, with its score.
 */
export function SurveyResponsesSection({ data }: { data: SupplierScreenData; extra?: string }) {
  const { t, i18n } = useTranslation(["supplierWork", "supplierTasks"]);
  const surveys = data.surveys;
  return (
    <Section id="survey-responses" title={t("surveys.title")}>
      {surveys.length === 0 ? (
        <Empty>{t("surveys.empty")}</Empty>
      ) : (
        <ul className="divide-y divide-base-300">
          {surveys.map((survey) => {
            const score = data.taskItems.find((i) => i.surveyResponseId === survey.id)?.score ?? null;
            return (
              <li key={survey.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
                <Link to={`/tasks/surveys/${survey.id}/read`} className="link link-hover link-primary min-w-0 flex-1 break-words font-medium">
                  {survey.surveyTemplate.title}
                </Link>
                <span className="shrink-0 text-base-content/70 tabular-nums">
                  {score === null ? t("supplierTasks:screen.notScored") : t("supplierTasks:screen.score", { score })}
                </span>
                <span className="shrink-0 text-base-content/70 tabular-nums">
                  <span className="sr-only">{t("surveys.updated")} </span>
                  <time dateTime={survey.updatedAt}>{formatDate(survey.updatedAt, i18n.language)}</time>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}
