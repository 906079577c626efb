import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ItemPage, respondentHandle, respondentHeaders, respondentMeta } from "~/components/respondent/ItemPage";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { taskAction, taskLoader } from "~/http/respondent-pages.server";

/** A task answered by its mailed link, no account (decision 033): the token travels in the URL of every page and form. */
export const handle = respondentHandle;
export const meta = respondentMeta;
export const headers = respondentHeaders;

export function loader({ request, params }: LoaderFunctionArgs) {
  return taskLoader(request, params, "link");
}

export function action({ request, params }: ActionFunctionArgs) {
  return taskAction(request, params, "link");
}

export default ItemPage;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
