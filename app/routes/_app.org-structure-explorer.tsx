import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { CompanyGroupView, EXPLORER_PATH, explorerHref } from "~/components/organization/CompanyGroupView";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { companyGroup, ownOrgNumber } from "~/models/registry/org-structure.server";
import { isOrgNumber, orgNumberParam } from "~/models/registry/registry-params";
import { pageTitle } from "~/models/shared/page-title.server";
import { searchCompanies } from "~/models/registry/registry.server";
import { useTranslation } from "~/translations";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["organization", "people"] };

const MAX_QUERY = 100;
const MAX_HITS = 20;

/**
 * /org-structure-explorer (decision 041; the top bar's organisation-name link): any company's group
 * (registryRead). `q` searches by organisation number or name; `org` is the company shown (the user's own
 * organisation's by default); `tree` opens a holding's ownership tree — all in the URL, so every step is a link.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "registryRead");
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_QUERY);
  const trees = url.searchParams.getAll("tree").flatMap((v) => orgNumberParam(v) ?? []);
  let org = url.searchParams.has("org") ? orgNumberParam(url.searchParams.get("org")) : null;
  let hits: { orgNumber: string; name: string; active: boolean }[] | null = null;
  let found = 0;
  if (!url.searchParams.has("org")) {
    if (q && isOrgNumber(q)) org = q.replace(/\s/g, "");
    else if (q) {
      const result = await searchCompanies(q, MAX_HITS);
      found = result.found;
      hits = result.hits.map((h) => ({ orgNumber: h.id, name: h.name, active: h.is_active }));
    } else org = await ownOrgNumber(user.organizationId);
  }
  const group = org ? await companyGroup(org, trees) : null;
  return json({
    q,
    hits,
    found,
    group,
    missing: Boolean((url.searchParams.has("org") || (q && isOrgNumber(q))) && !group),
    title: await pageTitle(request, "organization:explorer.title"),
  });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function OrgStructureExplorer() {
  const { q, hits, found, group, missing } = useLoaderData<typeof loader>();
  const { t } = useTranslation("organization");
  return (
    <section aria-labelledby="explorer-title" className="mx-auto max-w-4xl">
      <h1 id="explorer-title" className="text-2xl font-semibold">
        {t("explorer.title")}
      </h1>
      <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("explorer.intro")}</p>
      <Form
        method="get"
        action={EXPLORER_PATH}
        role="search"
        aria-label={t("explorer.searchLabel")}
        className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end"
      >
        <div className="flex-1">
          <label htmlFor="explorer-q" className="mb-1 block text-sm font-medium">
            {t("explorer.query")}
          </label>
          <input id="explorer-q" name="q" type="search" defaultValue={q} maxLength={MAX_QUERY} className="input w-full" autoComplete="off" />
        </div>
        <button type="submit" className="btn btn-primary">
          {t("explorer.search")}
        </button>
      </Form>
      {hits ? (
        <section aria-labelledby="explorer-hits" className="mt-6">
          <h2 id="explorer-hits" className="text-lg font-semibold">
            {t("explorer.hits", { count: found })}
          </h2>
          {found > hits.length ? <p className="mt-1 text-sm text-base-content/70">{t("explorer.hitsShown", { shown: hits.length })}</p> : null}
          {hits.length === 0 ? (
            <p className="mt-2 text-sm text-base-content/70">{t("explorer.noHits", { q })}</p>
          ) : (
            <ul className="mt-2 divide-y divide-base-300 rounded-box border border-base-300 bg-base-100">
              {hits.map((hit) => (
                <li key={hit.orgNumber} className="flex flex-wrap items-baseline gap-x-3 px-4 py-2 text-sm">
                  <Link to={explorerHref(hit.orgNumber)} className="link link-hover font-medium">
                    {hit.name}
                  </Link>
                  <span className="text-base-content/70">{hit.orgNumber}</span>
                  {hit.active ? null : <span className="badge badge-sm badge-ghost">{t("explorer.inactive")}</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      {missing ? (
        <p role="status" className="alert mt-6 text-sm">
          {t("explorer.notFound")}
        </p>
      ) : null}
      {group ? <CompanyGroupView group={group} showSupplierLink /> : null}
    </section>
  );
}
