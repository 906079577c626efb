import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileLoader } from "~/http/respondent-pages.server";

/** An evidence file of a survey sent to the user's organisation. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return fileLoader(request, params, "survey", "user");
}
