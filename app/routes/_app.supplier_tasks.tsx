import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translations";
import { StatusBadge, supplierScreenHref } from "~/components/supplier-tasks/StatusBadge";
import { uiLanguage } from "~/i18n";
import { GeneralErrorBoundary } from "~/components/ui/GeneralErrorBoundary";
import { titleMeta } from "~/components/ui/meta";
import { FilterSelect, useFilterErrors, useListHref } from "~/components/ui/FilterSelect";
import { Pagination } from "~/components/ui/Pagination";
import { TableScroll } from "~/components/ui/TableScroll";
import { requireUser } from "~/http/auth.server";
import { formatDate, MISSING } from "~/models/shared/format";
import { pageTitle } from "~/models/shared/page-title.server";
import { SUPPLIER_SEARCH_MAX, SUPPLIER_TASK_FILTER_KEYS, SUPPLIER_TASK_KINDS, SUPPLIER_TASK_PAGE_SIZE, SUPPLIER_TASK_SORTS } from "~/models/tasks/task-list";
import { campaignTitle, countSupplierTasks, listSupplierTasks, type TaskListItem } from "~/models/tasks/task-list.server";
import { parseSupplierTaskQuery, taskFilters } from "~/models/tasks/task-query";
import { osloDate, STATUS_FILTERS } from "~/models/tasks/task-states";
import { listTags } from "~/models/suppliers/tags.server";

export const meta = titleMeta;
export const handle = { i18n: ["supplierTasks", "taskStates"] };

/**
 * /supplier_tasks (decision 034): every task and survey the organisation sent, with filters (status with
 * overdue, type, supplier name, tag, campaign), sorting, 25 per page and a CSV of the current filter
 * (/supplier_tasks.csv). The filters are a GET form, so the page works without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "supplierTasksRead");
  const url = new URL(request.url);
  const { raw, parsed } = parseSupplierTaskQuery(url);
  const today = osloDate(new Date());
  const [tags, title] = await Promise.all([listTags({ organizationId: user.organizationId }), pageTitle(request, "supplierTasks:list.title")]);
  const common = { raw, tags, title };
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? "");
    const empty = { items: [] as TaskListItem[], total: 0, page: 1, pageCount: 1, campaign: null as string | null, anySent: true };
    return json({ ...common, ...empty, error: field as string | null }, { status: 400 });
  }
  const query = parsed.data;
  const filters = taskFilters(query);
  const total = await countSupplierTasks({ organizationId: user.organizationId, filters, today });
  const pageCount = Math.max(1, Math.ceil(total / SUPPLIER_TASK_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const [items, campaign, anySent] = await Promise.all([
    listSupplierTasks({
      organizationId: user.organizationId,
      filters,
      sort: query.sort,
      today,
      limit: SUPPLIER_TASK_PAGE_SIZE,
      offset: (page - 1) * SUPPLIER_TASK_PAGE_SIZE,
    }),
    query.campaign ? campaignTitle({ organizationId: user.organizationId, campaignId: query.campaign }) : undefined,
    total > 0
      ? true
      : countSupplierTasks({
          organizationId: user.organizationId,
          filters: taskFilters({ ...query, status: null, kind: null, q: null, tag: null, campaign: null }),
          today,
        }).then((n) => n > 0),
  ]);
  return json({ ...common, items, total, page, pageCount, campaign: campaign ?? null, anySent, error: null as string | null });
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

export default function SentTasksScreen() {
  const data = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("supplierTasks");
  const lng = uiLanguage(i18n.language);
  const href = useListHref();
  const csvParams = new URLSearchParams();
  for (const key of SUPPLIER_TASK_FILTER_KEYS) if (data.raw[key]) csvParams.set(key, data.raw[key]);

  return (
    <section aria-labelledby="supplier-tasks-title" className="mx-auto max-w-7xl">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl">
          <h1 id="supplier-tasks-title" className="text-2xl font-semibold">
            {t("list.title")}
          </h1>
          <p className="mt-1 text-sm text-base-content/70">{t("list.intro")}</p>
        </div>
        {data.total > 0 ? (
          <a href={`/supplier_tasks.csv${csvParams.size ? `?${csvParams}` : ""}`} download className="btn btn-outline btn-sm" title={t("list.exportCsvHint")}>
            {t("list.exportCsv")}
          </a>
        ) : null}
      </div>

      {data.campaign ? (
        <p className="mt-3 flex flex-wrap items-baseline gap-3 text-sm">
          <span className="font-medium break-words">{t("list.campaign", { title: data.campaign })}</span>
          <Link to={href({ campaign: null, page: null })} className="link">
            {t("list.allCampaigns")}
          </Link>
        </p>
      ) : null}

      <Filters />

      <p className="mt-4 text-sm font-medium" role="status">
        {t("list.count", { count: data.total })}
      </p>

      {data.items.length === 0 ? (
        <p className="mt-3 rounded-box border border-dashed border-base-300 bg-base-100 p-6 text-sm text-base-content/70">
          {data.anySent ? t("list.empty") : t("list.emptyNone")}
        </p>
      ) : (
        <TableScroll className="mt-3 rounded-box border border-base-300 bg-base-100">
          <table className="table table-sm" aria-label={t("list.tableLabel")}>
            <thead>
              <tr>
                <th scope="col">{t("list.columns.title")}</th>
                <th scope="col">{t("list.columns.supplier")}</th>
                <th scope="col">{t("list.columns.type")}</th>
                <th scope="col">{t("list.columns.status")}</th>
                <th scope="col">{t("list.columns.dueDate")}</th>
                <th scope="col">{t("list.columns.sent")}</th>
                <th scope="col">{t("list.columns.recipient")}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((item) => (
                <tr key={item.id} className="hover:bg-base-200">
                  <th scope="row" className="min-w-48 break-words font-medium">
                    <Link to={`/supplier_tasks/${item.id}`} className="link link-hover link-primary">
                      {item.title}
                    </Link>
                  </th>
                  <td className="min-w-40 break-words">
                    {item.supplier.orgNumber ? (
                      <Link to={supplierScreenHref(item.supplier)} className="link link-hover">
                        {item.supplier.name}
                      </Link>
                    ) : (
                      item.supplier.name
                    )}
                  </td>
                  <td className="whitespace-nowrap">{t(`taskStates:kind.${item.kind}`)}</td>
                  <td className="whitespace-nowrap">
                    <StatusBadge status={item.shownStatus} />
                  </td>
                  <td className="whitespace-nowrap tabular-nums">{item.dueDate ? formatDate(item.dueDate, lng) : MISSING}</td>
                  <td className="whitespace-nowrap tabular-nums">{formatDate(item.sentAt, lng)}</td>
                  <td className="break-all">{item.recipientEmail ?? <span className="text-base-content/60">{t("list.noRecipient")}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      {data.total > 0 ? (
        <Pagination
          className="mt-4"
          page={data.page}
          pageCount={data.pageCount}
          pageSize={SUPPLIER_TASK_PAGE_SIZE}
          shown={data.items.length}
          total={data.total}
          href={(page) => href({ page: page > 1 ? String(page) : null })}
        />
      ) : null}
    </section>
  );
}

function Filters() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("supplierTasks");
  const { ids, error, invalid } = useFilterErrors(data.error);
  const raw = data.raw;
  const choice = (field: string) => ({ error: error(field, t("list.invalidChoice")), invalid: invalid(field) });
  return (
    <Form
      method="get"
      className="mt-4 grid grid-cols-1 gap-3 rounded-box border border-base-300 bg-base-100 p-3 sm:grid-cols-2 lg:grid-cols-6"
      aria-label={t("list.filters")}
    >
      {raw.campaign ? <input type="hidden" name="campaign" value={raw.campaign} /> : null}
      <FilterSelect
        name="status"
        label={t("list.status")}
        value={raw.status}
        options={[["", t("list.allStatuses")], ...STATUS_FILTERS.map((s): [string, string] => [s, t(`taskStates:status.${s}`)])]}
        {...choice("status")}
      />
      <FilterSelect
        name="kind"
        label={t("list.kind")}
        value={raw.kind}
        options={[["", t("list.allKinds")], ...SUPPLIER_TASK_KINDS.map((k): [string, string] => [k, t(`taskStates:kind.${k}`)])]}
        {...choice("kind")}
      />
      <div>
        <label htmlFor={`${ids}-q`} className="mb-1 block text-sm font-medium">
          {t("list.supplier")}
        </label>
        <input
          id={`${ids}-q`}
          name="q"
          type="search"
          maxLength={SUPPLIER_SEARCH_MAX}
          defaultValue={raw.q}
          className="input input-sm w-full"
          {...invalid("q")}
        />
        {error("q", t("list.invalidSearch", { max: SUPPLIER_SEARCH_MAX }))}
      </div>
      <FilterSelect
        name="tag"
        label={t("list.tag")}
        value={raw.tag}
        options={[["", t("list.allTags")], ...data.tags.map((tag): [string, string] => [String(tag.id), tag.title])]}
        {...choice("tag")}
      />
      <FilterSelect
        name="sort"
        label={t("list.sort")}
        value={raw.sort || "sent"}
        options={SUPPLIER_TASK_SORTS.map((s): [string, string] => [s, t(`list.sorts.${s}`)])}
        {...choice("sort")}
      />
      <div className="flex items-end gap-2">
        <button type="submit" className="btn btn-primary btn-sm">
          {t("list.filter")}
        </button>
        <Link to="/supplier_tasks" className="btn btn-ghost btn-sm">
          {t("list.reset")}
        </Link>
      </div>
      {data.error === "campaign" || data.error === "page" ? (
        <p role="alert" className="text-xs text-error sm:col-span-2 lg:col-span-6">
          {t("list.invalidChoice")}
        </p>
      ) : null}
    </Form>
  );
}
