import { Link } from "@remix-run/react";
import { useTranslation } from "~/translations";

/**
 * Paging of a list (links, so it works without JavaScript): "Page 2 of 5 · 26–50 of 120" and First, Previous, Next,
 * Last. `href(page)` is the list's URL on that page (page 1 without the parameter, by the caller's choice).
 */
export function Pagination({
  page,
  pageCount,
  pageSize,
  shown,
  total,
  href,
  className = "mt-3",
}: {
  page: number;
  pageCount: number;
  pageSize: number;
  /** Rows on this page. */
  shown: number;
  total: number;
  href: (page: number) => string;
  className?: string;
}) {
  const { t } = useTranslation("common");
  return (
    <nav aria-label={t("pagination.label")} className={`${className} flex flex-wrap items-center justify-between gap-3 text-sm`}>
      <p>
        {t("pagination.pageOf", { page, pages: pageCount })}
        <span aria-hidden="true" className="mx-2 text-base-content/40">
          ·
        </span>
        {t("pagination.showing", { from: shown ? (page - 1) * pageSize + 1 : 0, to: (page - 1) * pageSize + shown, total })}
      </p>
      {pageCount > 1 ? (
        <ul className="join">
          <PageLink to={page > 1 ? href(1) : null} label={t("pagination.first")} />
          <PageLink to={page > 1 ? href(page - 1) : null} label={t("pagination.previous")} rel="prev" />
          <PageLink to={page < pageCount ? href(page + 1) : null} label={t("pagination.next")} rel="next" />
          <PageLink to={page < pageCount ? href(pageCount) : null} label={t("pagination.last")} />
        </ul>
      ) : null}
    </nav>
  );
}

function PageLink({ to, label, rel }: { to: string | null; label: string; rel?: string }) {
  return (
    <li className="join-item">
      {to ? (
        <Link to={to} rel={rel} className="btn btn-sm">
          {label}
        </Link>
      ) : (
        <span aria-disabled="true" className="btn btn-sm btn-disabled">
          {label}
        </span>
      )}
    </li>
  );
}
