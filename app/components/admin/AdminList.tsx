import { listPageHref } from "~/models/admin/admin";
import { ListSearch } from "~/components/ui/ListSearch";
import { Pagination } from "~/components/ui/Pagination";
import { TableScroll } from "~/components/ui/TableScroll";

export interface AdminListPage<T> {
  rows: T[];
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
}

/** A column heading of an administration table. */
export interface AdminColumn {
  label: string;
  className?: string;
}

/**
 * The table of an administration list, one page of it: the empty state (`empty`) or the table — its accessible name,
 * column headings and one `row` each — in its sideways scroll box, then the paging links (`pageHref`). A table whose
 * rows hold no control names its scroll box with `labelledBy` (it becomes a focusable region, TableScroll).
 */
export function AdminTable<T>({
  list,
  empty,
  label,
  labelledBy,
  className = "mt-4",
  tableClassName,
  columns,
  row,
  pageHref,
}: {
  list: AdminListPage<T>;
  /** Said when there is nothing to list; without it the caller has said so already. */
  empty?: string;
  /** The table's accessible name. */
  label?: string;
  labelledBy?: string;
  /** The scroll box's margin. */
  className?: string;
  /** The table's width (`min-w-[…]`), below which it scrolls sideways. */
  tableClassName: string;
  columns: readonly AdminColumn[];
  /** One `<tr>` (with its key). */
  row: (item: T) => React.ReactNode;
  pageHref: (page: number) => string;
}) {
  if (empty !== undefined && list.rows.length === 0) {
    return <p className="mt-6 rounded-box border border-dashed border-base-300 bg-base-100 p-6">{empty}</p>;
  }
  return (
    <>
      <TableScroll className={`${className} rounded-box border border-base-300 bg-base-100`} labelledBy={labelledBy}>
        <table className={`table table-sm ${tableClassName}`} aria-label={label}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.label} scope="col" className={column.className}>
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{list.rows.map(row)}</tbody>
        </table>
      </TableScroll>
      <Pagination page={list.page} pageCount={list.pageCount} pageSize={list.pageSize} shown={list.rows.length} total={list.total} href={pageHref} />
    </>
  );
}

/**
 * A searched, paged list of the administration (organisations, users): the search form, then its AdminTable, whose
 * paging links keep the search. Works without JavaScript: the search is a GET form, the pages links.
 */
export function AdminList<T>({
  path,
  searchLabel,
  q,
  list,
  empty,
  label,
  tableClassName,
  columns,
  row,
}: {
  /** The list's path (the search form's action, the paging links' path). */
  path: string;
  searchLabel: string;
  /** The search as the loader read it. */
  q: string | null;
  list: AdminListPage<T>;
  /** Said when nothing matches. */
  empty: string;
  /** The table's accessible name. */
  label: string;
  /** Its width (`min-w-[…]`), below which it scrolls sideways. */
  tableClassName: string;
  columns: readonly AdminColumn[];
  /** One `<tr>` with its `<th scope="row">` first. */
  row: (item: T) => React.ReactNode;
}) {
  return (
    <>
      <ListSearch path={path} label={searchLabel} value={q} />
      <AdminTable
        list={list}
        empty={empty}
        label={label}
        tableClassName={tableClassName}
        columns={columns}
        row={row}
        pageHref={(page) => listPageHref(path, q, page)}
      />
    </>
  );
}
