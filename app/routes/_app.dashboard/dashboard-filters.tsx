import { Form, Link } from "@remix-run/react";
import { FilterSelect } from "~/components/ui/FilterSelect";
import { Icon } from "~/components/ui/icons";
import { useTranslation } from "~/translations";
import { flagValue } from "./dashboard-view";

/** The dashboard's filters: one GET form (tag, priority, due diligence) that every section honours. */
export function DashboardFilters({
  search,
  filtered,
  tags,
  query,
}: {
  /** The page's search string: a new one renders the selects afresh. */
  search: string;
  filtered: boolean;
  tags: Array<{ id: number; title: string }>;
  query: { tagId: number | null; priority: boolean | null; dueDiligence: boolean | null };
}) {
  const { t } = useTranslation("dashboard");
  const flagOptions: Array<[string, string]> = [
    ["", t("any")],
    ["yes", t("yes")],
    ["no", t("no")],
  ];
  return (
    <Form
      // A new URL (a filter applied, or cleared by the link) renders the selects afresh with its values.
      key={search}
      method="get"
      action="/dashboard"
      aria-label={t("filtersLabel")}
      preventScrollReset
      className="mt-5 grid grid-cols-1 gap-3 rounded-box border border-base-300 bg-base-100 p-3 sm:grid-cols-2 lg:grid-cols-[repeat(3,minmax(0,1fr))_auto] lg:items-end"
    >
      <FilterSelect
        name="tag"
        label={t("tag")}
        value={query.tagId != null ? String(query.tagId) : ""}
        options={[["", t("allTags")], ...tags.map((tag): [string, string] => [String(tag.id), tag.title])]}
      />
      <FilterSelect name="priority" label={t("priority")} value={flagValue(query.priority)} options={flagOptions} />
      <FilterSelect name="dd" label={t("dueDiligence")} value={flagValue(query.dueDiligence)} options={flagOptions} />
      <div className="flex items-center gap-2 sm:col-span-2 lg:col-span-1">
        <button type="submit" className="btn btn-primary btn-sm">
          <Icon name="search" className="size-4" />
          {t("filter")}
        </button>
        {filtered ? (
          <Link to="/dashboard" className="link link-hover text-sm whitespace-nowrap">
            {t("clearFilters")}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
