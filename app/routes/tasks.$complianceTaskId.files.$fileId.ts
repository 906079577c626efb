import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileLoader } from "~/http/respondent-pages.server";

/** A file of a task sent to the user's organisation: the template's file or one of the answer's files. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return fileLoader(request, params, "task", "user");
}
