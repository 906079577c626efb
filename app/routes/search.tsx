import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SearchResults } from "~/components/search/SearchResults";
import { titleMeta } from "~/components/ui/meta";
import { pageTitle } from "~/models/page-title.server";
import { globalSearch, type SearchTab } from "~/models/search.server";
import { hasAccessLevel, requireUser } from "~/models/session.server";

export const meta = titleMeta;

export const SEARCH_LIMIT_PAGE = 25;
export const SEARCH_LIMIT_DROPDOWN = 8;

/**
 * The global search, rendered on the server. Without JavaScript the top-bar
 * search box submits here and this page shows the results; with JavaScript
 * the box loads the same data through a fetcher (`&limit=dropdown`).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!hasAccessLevel(user)) throw new Response("Forbidden", { status: 403 });
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const tab: SearchTab = url.searchParams.get("tab") === "people" ? "people" : "organizations";
  const limit = url.searchParams.get("limit") === "dropdown" ? SEARCH_LIMIT_DROPDOWN : SEARCH_LIMIT_PAGE;
  const result = await globalSearch(q, tab, limit);
  return json({ ...result, title: await pageTitle(request, "search:resultsTitle") });
}

export default function SearchPage() {
  const data = useLoaderData<typeof loader>();
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
