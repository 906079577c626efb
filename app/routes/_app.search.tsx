import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { z } from "zod";
import { SearchResults } from "~/components/search/SearchResults";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { readQuery } from "~/http/parse.server";
import { pageTitle } from "~/models/shared/page-title.server";
import { globalSearch, type SearchTab } from "~/models/registry/search.server";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["search"] };

export const SEARCH_LIMIT_PAGE = 25;
export const SEARCH_LIMIT_DROPDOWN = 8;

const query = z.object({
  q: z
    .string()
    .optional()
    .transform((v) => (v ?? "").trim().slice(0, 200)),
  tab: z.enum(["organizations", "people"]).catch("organizations"),
  limit: z
    .string()
    .optional()
    .transform((v) => (v === "dropdown" ? SEARCH_LIMIT_DROPDOWN : SEARCH_LIMIT_PAGE)),
});

/**
 * The global search, rendered on the server. Without JavaScript the top-bar
 * search box submits here and this page shows the results; with JavaScript
 * the box loads the same data through a fetcher (`&limit=dropdown`).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "registryRead");
  const { q, tab, limit } = readQuery(request, query);
  const result = await globalSearch(q, tab, limit);
  return json({ ...result, failed: false, title: await pageTitle(request, "search:resultsTitle") });
}

/**
 * In the browser (the dropdown's fetcher and navigations to this page): a
 * search that fails on the way — the network, the server, a refused query —
 * shows 'No results found.' (shared/spec/01-shell-chat-lei.md §8) instead of replacing the page, so
 * what the user typed stays. Redirects and a missing permission still count.
 */
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  try {
    return await serverLoader<typeof loader>();
  } catch (error) {
    if (error instanceof Response && (error.status < 400 || error.status === 401 || error.status === 403)) throw error;
    if (request.signal.aborted) throw error;
    const params = new URL(request.url).searchParams;
    const tab: SearchTab = params.get("tab") === "people" ? "people" : "organizations";
    const title = typeof document === "undefined" ? "" : document.title;
    return { q: (params.get("q") ?? "").trim().slice(0, 200), tab, found: 0, organizations: [], people: [], failed: true, title };
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function SearchPage() {
  const data = useLoaderData<typeof clientLoader>();
  const { t } = useTranslation("search");
  const location = useLocation();
  const dialogHref = (dialog: string) => {
    const params = new URLSearchParams(location.search);
    params.set("dialog", dialog);
    return `?${params}`;
  };
  const tabHref = (tab: SearchTab) => {
    const params = new URLSearchParams(location.search);
    params.set("tab", tab);
    params.delete("person");
    return `?${params}`;
  };
  return (
    <section aria-labelledby="search-title" className="mx-auto max-w-3xl">
      <h1 id="search-title" className="text-2xl font-semibold">
        {data.q ? t("resultsFor", { q: data.q }) : t("resultsTitle")}
      </h1>
      <Form method="get" action="/search" className="mt-4 flex gap-2" role="search" aria-label={t("label")}>
        <input type="hidden" name="tab" value={data.tab} />
        <label className="input w-full">
          <span className="sr-only">{t("label")}</span>
          <input type="search" name="q" defaultValue={data.q} placeholder={t("placeholder")} />
        </label>
        <button type="submit" className="btn btn-primary">
          {t("submit")}
        </button>
      </Form>
      <div className="mt-3 flex gap-2">
        {/* The dropdown's Credit and LEI buttons, for the page that serves searches without JavaScript. */}
        <Link to={dialogHref("credit")} preventScrollReset className="btn btn-sm btn-outline" title={t("creditHint")}>
          {t("credit")}
        </Link>
        <Link to={dialogHref("lei")} preventScrollReset className="btn btn-sm btn-outline" title={t("leiHint")}>
          {t("lei")}
        </Link>
      </div>
      <nav aria-label={t("tabs.label")} className="tabs tabs-border mt-4">
        {(["organizations", "people"] as const).map((tab) => (
          <Link key={tab} to={tabHref(tab)} className={`tab ${data.tab === tab ? "tab-active" : ""}`} aria-current={data.tab === tab ? "page" : undefined}>
            {t(`tabs.${tab}`)}
          </Link>
        ))}
      </nav>
      <div className="mt-4 rounded-box border border-base-300 bg-base-100">
        <SearchResults result={data} />
      </div>
    </section>
  );
}
