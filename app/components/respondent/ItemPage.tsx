import type { HeadersFunction, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { RouteHandle } from "~/i18n";
import { RESPONDENT_HEADERS } from "~/http/respondent-headers";
import { LinkRefused, RESPONDENT_NAMESPACES } from "./RespondentFrame";
import { SurveyAnswerPage, type SurveyPageData } from "./SurveyAnswerPage";
import { TaskAnswerPage, type TaskPageData } from "./TaskAnswerPage";

/**
 * What the respondent routes share (decision 033): no script at all (`scripts: false`), their texts, a title, and a
 * document that never sends its address (with the link's token) as a Referer.
 */
export const respondentHandle: RouteHandle = { scripts: false, i18n: RESPONDENT_NAMESPACES };

export const respondentMeta: MetaFunction = ({ data }) => {
  const title = (data as { title?: string } | undefined)?.title;
  return [...(title ? [{ title }] : []), { name: "referrer", content: "same-origin" }];
};

export const respondentHeaders: HeadersFunction = () => RESPONDENT_HEADERS;

export type ItemPageData = { page: "refused"; refusal: string; title: string } | TaskPageData | SurveyPageData;

/** The page of one task or survey: the action's answer (a refused form, with what was typed) or the loader's. */
export function ItemPage() {
  const loaded = useLoaderData() as unknown as ItemPageData;
  const acted = useActionData() as unknown as ItemPageData | undefined;
  const data = acted ?? loaded;
  if (data.page === "refused") return <LinkRefused refusal={data.refusal} />;
  if (data.page === "task") return <TaskAnswerPage data={data} />;
  return <SurveyAnswerPage data={data} />;
}
