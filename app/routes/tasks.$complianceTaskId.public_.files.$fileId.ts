import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileLoader } from "~/http/respondent-pages.server";

/** A file of a task opened by its link (the token as on the page). */
export function loader({ request, params }: LoaderFunctionArgs) {
  return fileLoader(request, params, "task", "link");
}
