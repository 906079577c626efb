import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ItemPage, respondentHandle, respondentHeaders, respondentMeta } from "~/components/respondent/ItemPage";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { taskAction, taskLoader } from "~/http/respondent-pages.server";

/** A task sent to the user's organisation, answered signed in (decision 033): a comment and files, save or submit. */
export const handle = respondentHandle;
export const meta = respondentMeta;
export const headers = respondentHeaders;

export function loader({ request, params }: LoaderFunctionArgs) {
  return taskLoader(request, params, "user");
}

export function action({ request, params }: ActionFunctionArgs) {
  return taskAction(request, params, "user");
}

export default ItemPage;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
