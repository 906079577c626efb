import { Form, useLocation } from "@remix-run/react";
import { STEP_PARAM, withoutStep } from "~/models/admin/admin";
import { useTranslation } from "~/translations";

/** A GET search form (the list's URL state): one labelled field and Search. */
export function ListSearch({
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
  const { t } = useTranslation("common");
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

/**
 * Where the rows of a searched, paged list go back to: `here` is the list as shown (search and page) without its
 * confirmation step, the `redirectTo` of every change; `stepHref(id)` opens the step (`?deactivate={id}`) over it.
 */
export function useListUrls(): { here: string; stepHref: (id: number) => string } {
  const location = useLocation();
  const here = withoutStep(`${location.pathname}${location.search}`);
  return {
    here,
    stepHref: (id) => {
      const url = new URL(here, "http://local");
      url.searchParams.set(STEP_PARAM, String(id));
      return url.pathname + url.search;
    },
  };
}
