import type { MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";

/** The root loader's translated error titles (a failed route has no data of its own to name its page). */
export interface ErrorTitles {
  notFound: string;
  forbidden: string;
  badRequest: string;
  server: string;
  app: string;
}

/** What an error page says, by the error's status: the one rule for its heading, text and document title. */
export type ErrorKind = "notFound" | "forbidden" | "badRequest" | "server";

export function errorKind(status: number): ErrorKind {
  if (status === 404) return "notFound";
  if (status === 403) return "forbidden";
  return status >= 400 && status < 500 ? "badRequest" : "server";
}

/** "404 Page Not Found · Supplier Risk": the title of an error page, from the error's status. */
export function errorPageTitle(error: unknown, titles: ErrorTitles): string {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return `${status} ${titles[errorKind(status)]} · ${titles.app}`;
}

/**
 * Loaders return a translated `title`; this puts it in the document head. A route that failed has no data: its error
 * page is titled from the error and the root's texts, never left without a title.
 */
export const titleMeta: MetaFunction = ({ data, error, matches }) => {
  const title = (data as { title?: string } | undefined)?.title;
  if (title) return [{ title }];
  const titles = (matches.find((match) => match.id === "root")?.data as { errorTitles?: ErrorTitles } | undefined)?.errorTitles;
  return error && titles ? [{ title: errorPageTitle(error, titles) }] : [];
};
