import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/translations";

const LINKS = [
  ["/admin/organizations", "organizations"],
  ["/admin/users", "users"],
  ["/admin/users?view=audit", "audit"],
  ["/admin/credit-reports", "creditReports"],
  ["/admin/suppliers-overview", "suppliersOverview"],
] as const;

/** The administration screens' heading, their intro and the links between them (plain links: no JavaScript needed). */
export function AdminHeader({
  id,
  title,
  intro,
  current,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  current: (typeof LINKS)[number][1];
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("admin");
  return (
    <header>
      <nav aria-label={t("nav.label")} className="mb-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {LINKS.map(([to, key]) => (
          <Link key={key} to={to} className={`link ${key === current ? "font-semibold" : "link-hover"}`} aria-current={key === current ? "page" : undefined}>
            {t(`nav.${key}`)}
          </Link>
        ))}
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id={id} className="text-2xl font-semibold">
            {title}
          </h1>
          <p className="mt-1 max-w-prose text-sm text-base-content/70">{intro}</p>
        </div>
        {children}
      </div>
    </header>
  );
}

/** A GET search form (the list's URL state): one labelled field, Search and, when searching, Clear. */
export function AdminSearch({
  path,
  name = "q",
  label,
  value,
  extra,
}: {
  path: string;
  name?: string;
  label: string;
  value: string | null;
  extra?: React.ReactNode;
}) {
  const { t } = useTranslation("admin");
  return (
    <Form method="get" action={path} className="mt-5 flex flex-wrap items-end gap-2" role="search">
      <div className="w-full sm:w-80">
        <label htmlFor={`${path}-${name}`} className="mb-1 block text-sm font-medium">
          {label}
        </label>
        {/* Keyed by the search: going to another search of the list (a link, a change's redirect) shows that one, not the last typed. */}
        <input
          key={value ?? ""}
          id={`${path}-${name}`}
          name={name}
          type="search"
          defaultValue={value ?? ""}
          maxLength={200}
          className="input input-sm w-full"
        />
      </div>
      {extra}
      <button type="submit" className="btn btn-sm btn-primary">
        {t("search.submit")}
      </button>
    </Form>
  );
}
