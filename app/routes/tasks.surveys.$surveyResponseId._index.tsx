import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ItemPage, respondentHandle, respondentHeaders, respondentMeta } from "~/components/respondent/ItemPage";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { surveyAction, surveyLoader } from "~/http/respondent-pages.server";

/** A survey sent to the user's organisation, answered signed in, one section per page (decision 033). */
export const handle = respondentHandle;
export const meta = respondentMeta;
export const headers = respondentHeaders;

export function loader({ request, params }: LoaderFunctionArgs) {
  return surveyLoader(request, params, "user");
}

export function action({ request, params }: ActionFunctionArgs) {
  return surveyAction(request, params, "user");
}

export default ItemPage;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
