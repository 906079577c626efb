import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ItemPage, respondentHandle, respondentHeaders, respondentMeta } from "~/components/respondent/ItemPage";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { surveyAction, surveyLoader } from "~/http/respondent-pages.server";

/** A survey answered by its mailed link, no account, one section per page (decision 033). */
export const handle = respondentHandle;
export const meta = respondentMeta;
export const headers = respondentHeaders;

export function loader({ request, params }: LoaderFunctionArgs) {
  return surveyLoader(request, params, "link");
}

export function action({ request, params }: ActionFunctionArgs) {
  return surveyAction(request, params, "link");
}

export default ItemPage;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
