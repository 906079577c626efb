import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/translations";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { Icon } from "~/components/ui/icons";
import { titleMeta } from "~/components/ui/meta";
import { requireUser } from "~/http/auth.server";
import { parseId, readQuery } from "~/http/parse.server";
import i18nServer from "~/i18n.server";
import { isLanguage } from "~/i18n";
import { formatDate, MISSING } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { MAX_CAMPAIGN_SUPPLIERS } from "~/models/tasks/campaigns.server";
import { can } from "~/models/accounts/permissions";
import { DEFAULT_PAGE_SIZE, listSuppliers, supplierListQuery, supplierListTags } from "~/models/suppliers/supplier-list.server";
import { Pagination } from "~/components/ui/Pagination";
import { TableScroll } from "~/components/ui/TableScroll";
import { OverallRiskBadge } from "~/components/risk/OverallRiskBadge";

export const meta = titleMeta;

/** The translation namespaces this screen renders besides the root's (the browser loads only these). */
export const handle = { i18n: ["suppliers", "campaigns"] };

/** Typing in the search submits after this pause (with JavaScript). */
const SEARCH_DEBOUNCE_MS = 300;

type SortKey = "name" | "orgNumber" | "country" | "added" | "risk";

/**
 * /suppliers ("My suppliers"): the organisation's active supplier
 * connections. Everything is URL state read by a GET form and plain links
 * (search, filters, sorting, paging, CSV export), so the screen works
 * without JavaScript; with it, the search submits itself as the user types.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "suppliersRead");
  const { tag, page, size, ...filters } = readQuery(request, supplierListQuery);
  const query = { ...filters, tagId: parseId(tag), page: parseId(page) ?? 1, pageSize: parseId(size) ?? DEFAULT_PAGE_SIZE };
  const locale = await i18nServer.getLocale(request);
  const [list, tags, title] = await Promise.all([
    listSuppliers({ ...query, organizationId: user.organizationId, language: isLanguage(locale) ? locale : "en" }),
    supplierListTags({ organizationId: user.organizationId }),
    pageTitle(request, "suppliers:title"),
  ]);
  return json({
    list,
    tags,
    title,
    canSend: can(user, "supplierTasksManage"),
    maxSend: MAX_CAMPAIGN_SUPPLIERS,
    query: {
      q: query.q,
      tagId: query.tagId,
      priority: query.priority,
      dueDiligence: query.dueDiligence,
      risk: query.risk ?? null,
      sort: query.sort,
      dir: query.dir,
    },
  });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

const flagValue = (value: boolean | null) => (value === true ? "yes" : value === false ? "no" : "");

export default function SuppliersScreen() {
  const { list, tags, query, canSend, maxSend } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("suppliers");
  const { t: tSend } = useTranslation("campaigns");
  const [params] = useSearchParams();
  const submit = useSubmit();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  // Back/forward puts another term in the URL: show it, unless the user is typing.
  useEffect(() => {
    const input = searchRef.current;
    if (input && document.activeElement !== input && input.value !== query.q) input.value = query.q;
  }, [query.q]);

  const pending = navigation.state === "loading" && navigation.location.pathname === "/suppliers";
  const filtered = Boolean(query.q.trim()) || query.tagId != null || query.priority != null || query.dueDiligence != null || query.risk != null;

  /** The current URL with some parameters changed (null removes one). */
  const href = (changes: Record<string, string | null>, path = "/suppliers") => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value == null || value === "") next.delete(key);
      else next.set(key, value);
    }
    const search = next.toString();
    return search ? `${path}?${search}` : path;
  };

  const sortHeader = (key: SortKey, label: string, className = "") => {
    const active = query.sort === key;
    const nextDir = active ? (query.dir === "asc" ? "desc" : "asc") : key === "added" || key === "risk" ? "desc" : "asc";
    return (
      <th scope="col" aria-sort={active ? (query.dir === "asc" ? "ascending" : "descending") : "none"} className={className}>
        <Link
          to={href({ sort: key, dir: nextDir, page: null })}
          preventScrollReset
          className="inline-flex items-center gap-1 whitespace-nowrap hover:underline focus-visible:underline"
          title={t(nextDir === "asc" ? "sortAscending" : "sortDescending", { column: label })}
        >
          {label}
          <span aria-hidden="true" className={active ? "" : "text-base-content/60"}>
            {active ? (query.dir === "asc" ? "▲" : "▼") : "↕"}
          </span>
        </Link>
      </th>
    );
  };

  const exportHref = href({ page: null, size: null }, "/suppliers.csv");
  // Every row of the current filter: the send page resolves the same query with the list's own filter.
  const sendAllHref = `/supplier_tasks/send?${new URLSearchParams([["filter", "1"], ...[...params].filter(([key]) => ["q", "tag", "priority", "dd", "risk", "sort", "dir"].includes(key))])}`;

  return (
    <section aria-labelledby="suppliers-title" className="mx-auto max-w-6xl">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id="suppliers-title" className="text-2xl font-semibold">
            {t("title")}
          </h1>
          <p className="mt-1 max-w-prose text-sm text-base-content/70">{t("intro")}</p>
        </div>
        {/* A plain link: the CSV is a download, not a screen for client-side routing. */}
        <a href={exportHref} download className="btn btn-outline btn-sm" title={t("exportCsvHint")}>
          {t("exportCsv")}
        </a>
      </div>

      <Form
        ref={formRef}
        method="get"
        action="/suppliers"
        role="search"
        aria-label={t("filtersLabel")}
        preventScrollReset
        // A submit (button or Enter) supersedes a search still waiting for its pause.
        onSubmit={() => clearTimeout(timer.current)}
        className="mt-5 grid grid-cols-1 gap-3 rounded-box border border-base-300 bg-base-100 p-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_auto] lg:items-end"
      >
        {/* The order survives a new search; the page does not (a new result starts at page 1). */}
        {query.sort !== "name" ? <input type="hidden" name="sort" value={query.sort} /> : null}
        {query.dir !== "asc" ? <input type="hidden" name="dir" value={query.dir} /> : null}
        <div className="flex min-w-0 flex-col gap-1 sm:col-span-2 lg:col-span-1">
          <label htmlFor="suppliers-q" className="text-xs font-medium text-base-content/70">
            {t("search")}
          </label>
          <input
            id="suppliers-q"
            ref={searchRef}
            type="search"
            name="q"
            defaultValue={query.q}
            maxLength={100}
            autoComplete="off"
            placeholder={t("searchPlaceholder")}
            className="input input-sm w-full"
            onChange={(event) => {
              const form = event.currentTarget.form;
              clearTimeout(timer.current);
              timer.current = setTimeout(() => {
                if (form) submit(form, { replace: true, preventScrollReset: true });
              }, SEARCH_DEBOUNCE_MS);
            }}
          />
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="suppliers-tag" className="text-xs font-medium text-base-content/70">
            {t("tag")}
          </label>
          <select
            id="suppliers-tag"
            name="tag"
            defaultValue={query.tagId != null ? String(query.tagId) : ""}
            className="select select-sm w-full"
            key={`tag-${query.tagId ?? ""}`}
          >
            <option value="">{t("allTags")}</option>
            {tags.map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.title}
              </option>
            ))}
          </select>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="suppliers-priority" className="text-xs font-medium text-base-content/70">
            {t("priority")}
          </label>
          <select
            id="suppliers-priority"
            name="priority"
            defaultValue={flagValue(query.priority)}
            className="select select-sm w-full"
            key={`p-${flagValue(query.priority)}`}
          >
            <option value="">{t("any")}</option>
            <option value="yes">{t("yes")}</option>
            <option value="no">{t("no")}</option>
          </select>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="suppliers-dd" className="text-xs font-medium text-base-content/70">
            {t("dueDiligence")}
          </label>
          <select
            id="suppliers-dd"
            name="dd"
            defaultValue={flagValue(query.dueDiligence)}
            className="select select-sm w-full"
            key={`dd-${flagValue(query.dueDiligence)}`}
          >
            <option value="">{t("any")}</option>
            <option value="yes">{t("yes")}</option>
            <option value="no">{t("no")}</option>
          </select>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="suppliers-risk" className="text-xs font-medium text-base-content/70">
            {t("risk.filter")}
          </label>
          <select id="suppliers-risk" name="risk" defaultValue={query.risk ?? ""} className="select select-sm w-full" key={`risk-${query.risk ?? ""}`}>
            <option value="">{t("any")}</option>
            <option value="low">{t("risk.low")}</option>
            <option value="medium">{t("risk.medium")}</option>
            <option value="high">{t("risk.high")}</option>
          </select>
        </div>
        <div className="flex items-center gap-2 sm:col-span-2 lg:col-span-1">
          <button type="submit" className="btn btn-primary btn-sm">
            <Icon name="search" className="size-4" />
            {t("filter")}
          </button>
          {filtered ? (
            <Link
              to={href({ q: null, tag: null, priority: null, dd: null, risk: null, page: null })}
              onClick={() => clearTimeout(timer.current)}
              className="link link-hover text-sm whitespace-nowrap"
            >
              {t("clearFilters")}
            </Link>
          ) : null}
        </div>
      </Form>

      <p role="status" className="mt-3 text-sm text-base-content/70">
        {pending ? t("loading") : filtered ? t("countFiltered", { count: list.total }) : t("count", { count: list.total })}
      </p>

      {canSend && list.total > 0 ? (
        // The ticked rows (checkboxes below name this form) go to the send page as `supplier` ids.
        <form id="supplier-selection" method="get" action="/supplier_tasks/send" className="mt-2 flex flex-wrap items-center gap-2">
          <button type="submit" className="btn btn-outline btn-sm">
            {tSend("selection.sendChosen")}
          </button>
          {filtered ? (
            list.total <= maxSend ? (
              <Link to={sendAllHref} className="btn btn-ghost btn-sm">
                {tSend("selection.sendAll", { count: list.total })}
              </Link>
            ) : (
              <span className="text-sm text-base-content/70">{tSend("selection.tooMany", { max: maxSend })}</span>
            )
          ) : null}
        </form>
      ) : null}

      {list.total === 0 ? (
        <div className="mt-3 rounded-box border border-dashed border-base-300 bg-base-100 p-8">
          <p className="font-medium">{filtered ? t("noResults") : t("empty")}</p>
          <p className="mt-2 text-sm text-base-content/70">{filtered ? t("noResultsHint") : t("emptyHint")}</p>
        </div>
      ) : (
        <>
          <TableScroll
            className={`mt-3 rounded-box border border-base-300 bg-base-100 transition-opacity ${pending ? "opacity-60" : ""}`}
            aria-busy={pending || undefined}
          >
            <table className="table table-sm min-w-[52rem]">
              <caption className="sr-only">{t("tableCaption")}</caption>
              <thead className="text-base-content">
                <tr>
                  {canSend ? (
                    <th scope="col" className="w-8">
                      <span className="sr-only">{tSend("selection.column")}</span>
                    </th>
                  ) : null}
                  {sortHeader("name", t("columns.name"))}
                  {sortHeader("orgNumber", t("columns.orgNumber"))}
                  {sortHeader("country", t("columns.country"))}
                  {sortHeader("risk", t("columns.risk"))}
                  <th scope="col">{t("columns.tags")}</th>
                  <th scope="col">{t("columns.status")}</th>
                  {sortHeader("added", t("columns.added"))}
                </tr>
              </thead>
              <tbody>
                {list.rows.map((row) => (
                  <tr key={row.connectionId} className="hover:bg-base-200">
                    {canSend ? (
                      <td>
                        <input
                          type="checkbox"
                          name="supplier"
                          value={row.supplierOrganizationId}
                          form="supplier-selection"
                          className="checkbox checkbox-sm"
                          aria-label={tSend("selection.choose", { name: row.name })}
                        />
                      </td>
                    ) : null}
                    <th scope="row" className="max-w-[10rem] font-medium break-words sm:max-w-[18rem]">
                      <Link
                        to={`/supplier?${new URLSearchParams({ ...(row.orgNumber ? { externalId: row.orgNumber } : {}), localId: String(row.supplierOrganizationId) })}`}
                        className="link link-hover link-primary"
                      >
                        {row.name}
                      </Link>
                    </th>
                    <td className="whitespace-nowrap tabular-nums">{row.orgNumber ?? MISSING}</td>
                    <td className="whitespace-nowrap">{row.country.name ?? row.country.code}</td>
                    <td className="whitespace-nowrap">
                      <OverallRiskBadge risk={row.overallRisk} />
                    </td>
                    <td>
                      {row.tags.length > 0 ? (
                        <ul className="flex flex-wrap gap-1" aria-label={t("tagsOf", { name: row.name })}>
                          {row.tags.map((tag) => (
                            <li key={tag.id} className="badge badge-ghost badge-sm whitespace-nowrap">
                              {tag.title}
                            </li>
                          ))}
                        </ul>
                      ) : (
                        <span className="text-base-content/50">{MISSING}</span>
                      )}
                    </td>
                    <td>
                      <div className="flex flex-wrap gap-1">
                        {row.isPriority ? <span className="badge badge-warning badge-sm whitespace-nowrap">{t("badges.priority")}</span> : null}
                        {row.isDueDiligence ? <span className="badge badge-info badge-sm whitespace-nowrap">{t("badges.dueDiligence")}</span> : null}
                        {!row.isPriority && !row.isDueDiligence ? <span className="text-base-content/50">{MISSING}</span> : null}
                      </div>
                    </td>
                    <td className="whitespace-nowrap">{formatDate(row.createdAt, i18n.language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>

          <Pagination
            page={list.page}
            pageCount={list.pageCount}
            pageSize={list.pageSize}
            shown={list.rows.length}
            total={list.total}
            href={(page) => href({ page: page > 1 ? String(page) : null })}
          />
        </>
      )}
    </section>
  );
}
