import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { respondentHandle, respondentHeaders, respondentMeta } from "~/components/respondent/ItemPage";
import { RESPONDENT_NAMESPACES } from "~/components/respondent/RespondentFrame";
import { RespondentListScreen } from "~/components/respondent/RespondentList";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { listLoader } from "~/http/respondent-pages.server";
import { useTranslation } from "~/translations";

/** The surveys the user's organisation must answer, from every customer that asked (decision 033). No script. */
export const handle = respondentHandle;
export const meta = respondentMeta;
export const headers = respondentHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const { items, organization, title } = await listLoader(request, { kind: "survey", titleKey: "respond:mySurveys.title" });
  return json({ items, organization, title });
}

export default function MySurveys() {
  const { items, organization } = useLoaderData<typeof loader>();
  const { t } = useTranslation(RESPONDENT_NAMESPACES);
  return <RespondentListScreen organization={organization} items={items} title={t("respond:mySurveys.title")} headingId="open-surveys" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
